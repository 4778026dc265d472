import ArgumentParser
import Foundation
import Synchronization
import TincanCore
import TincanDemoServer
import TincanSessions

/// `tincan replay FILE...`: runs saved sessions headless and checks every assertion; several
/// files run side by side with `--jobs`, each with its own cookies and cache.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        // As `send`'s (SendCommand.configuration).
        _superCommandName: "tincan",
        abstract: "Run saved sessions' requests in order and check their assertions.",
        discussion: """
            Exit codes: 0 when every request passed its checks, 3 when any failed, 2 for a session
            file or option that cannot be used. Variables: the file's, then --env's, then --var's,
            then captures as requests run. A folder stands for every *.tincan.yaml file under it,
            in name order. See docs/session-format.md.
            """
    )

    @Argument(help: "The session files (*.tincan.yaml), or folders of them.")
    var files: [String]

    @Option(help: "The environment whose variables apply.")
    var env: String?

    @Option(name: .customLong("var"), help: "A variable as name=value; wins over the file and --env. Repeatable.")
    var variables: [String] = []

    @Option(help: "The report: text (as requests finish), json or junit.")
    var report: ReportWriter.Format = .text

    @Option(help: "Write the json or junit report to FILE and show text progress on standard output.")
    var output: String?

    @Option(help: ArgumentHelp("How many session files run at once (1 to 256), each with its own cookies and cache. Default: 1.", valueName: "N"),
            transform: OptionValue.integer(ReplayBatch.jobsRange.named("--jobs")))
    var jobs: Int = 1

    @Option(help: ArgumentHelp("Run only shard K of N (K/N, such as 2/4): every Nth file from the Kth, for CI matrices.", valueName: "K/N"),
            transform: { try Shard(parsing: $0) })
    var shard: Shard?

    @Flag(help: "Print one line a file (passed or failed, requests, time) and a summary, instead of one line a request.")
    var test = false

    @Flag(name: .customLong("fail-fast"), help: "Stop a file at its first request that fails; the rest are reported as skipped.")
    var failFast = false

    @Flag(name: .customLong("compare-recorded"), help: "Also compare each response with the one recorded in the file (status, headers, body).")
    var compareRecorded = false

    @Flag(help: "Save each response into its request's recorded: (refused over a file with comments; see --record-to).")
    var record = false

    @Option(name: .customLong("record-to"), help: "Save the session with the recorded responses to FILE instead of over the session file (one session file only).")
    var recordTo: String?

    @Option(name: .customLong("record-har"), help: "Write every exchange, with its response and timings, to FILE as one HAR log (secrets hidden unless --show-secrets).")
    var recordHAR: String?

    @Flag(help: "Set the variable server to the embedded demo server's URL ({{$demo}} needs no flag: it is started whenever a session uses it).")
    var demo = false

    @Option(name: .customLong("max-body"), help: "The most response-body bytes kept in memory per request (k, M and G suffixes; default 256M, 0 for no limit).",
            transform: { text in BodyLimit(bytes: try OptionValue.checked { () throws(NumericRangeError) in try TaskOptions.maximumBodyBytes(parsing: text, name: "--max-body") }) })
    var maxBody: BodyLimit?

    @Flag(help: "List every check and capture, not only failures.")
    var verbose = false

    @Flag(name: .customLong("show-secrets"), help: "Show captured values whose names look secret (token, password…) instead of hiding them, and keep secrets in --record-har's log.")
    var showSecrets = false

    /// The most session files one replay takes, folders expanded.
    static let maximumFiles = 100_000

    /// The session files `arguments` name: a file as it is, a folder as every `*.tincan.yaml`
    /// file under it (its subfolders too, hidden ones left out), in name order.
    ///
    /// - Throws: ``CLIFailure`` for a path that does not exist, a folder without session files,
    ///   or more than ``maximumFiles`` files.
    static func sessionFiles(_ arguments: [String]) throws -> [String] {
        var paths: [String] = []
        for argument in arguments {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
                throw CLIFailure.badInput("\(argument): no such session file or folder")
            }
            guard isFolder.boolValue else {
                paths.append(argument)
                continue
            }
            guard let names = FileManager.default.enumerator(atPath: argument) else {
                throw CLIFailure.badInput("\(argument): the folder cannot be read")
            }
            var found: [String] = []
            while let name = names.nextObject() as? String {
                // Hidden files and folders (.git, an editor's backups) are not the user's sessions.
                if (name as NSString).lastPathComponent.hasPrefix(".") {
                    names.skipDescendants()
                    continue
                }
                guard name.hasSuffix(".tincan.yaml") else { continue }
                found.append((argument as NSString).appendingPathComponent(name))
                if paths.count + found.count > maximumFiles {
                    throw CLIFailure.badInput("\(argument): more than \(maximumFiles) session files; give fewer files or folders")
                }
            }
            guard !found.isEmpty else {
                throw CLIFailure.badInput("\(argument): the folder holds no session files (*.tincan.yaml)")
            }
            paths += found.sorted()
        }
        return paths
    }
}

extension ReplayCommand {
    func validate() throws {
        if record, let recordTo {
            throw ValidationError("--record and --record-to \(recordTo) cannot go together: --record saves over the session file, --record-to saves to \(recordTo); give one")
        }
        if let output, report == .text {
            throw ValidationError("--output \(output) writes a json or junit report, and --report is text; add --report json or --report junit")
        }
        if test, report != .text, output == nil {
            throw ValidationError("--test prints text, and --report \(report.rawValue) prints a report on standard output; add --output FILE for the report, or leave out one of them")
        }
    }

    func run() async throws {
        let format = report
        var paths = try ReplayCommand.sessionFiles(files)
        if let chosen = shard {
            let given = paths.count
            paths = ReplayBatch.shard(paths, chosen.index, of: chosen.count)
            if paths.isEmpty {
                // A CI matrix with more shards than files: this shard has nothing to do, which is not a failure.
                StandardError.print("tincan: shard \(chosen.index)/\(chosen.count) has no files (\(given) given); nothing to replay\n")
                return
            }
        }
        if recordTo != nil, paths.count > 1 {
            throw CLIFailure.badInput("--record-to saves one session, and \(paths.count) session files are given; use --record to save each over its own file")
        }
        // Every file is read before any request goes, so a file that does not load stops the run at once.
        var batch: [ReplayBatch.File] = []
        for path in paths {
            let session = try loadSession(path)
            guard !session.requests.isEmpty else {
                throw CLIFailure.badInput("\(path): the session has no requests, so there is nothing to replay; add one under requests:")
            }
            batch.append(ReplayBatch.File(session: session, path: path))
            // A file someone else may have written says when it weakens trust (issue 36 §7).
            for (source, weakening) in session.defaults.security.weakenings {
                StandardError.warn("\(path): \(source): \(weakening)")
            }
        }
        var options = ReplayOptions()
        options.environment = env
        options.variables = try parseVariables(variables)
        // Nor does it read or write local files outside its folder without saying so (issue 36 §1).
        for file in batch {
            guard let template = try? file.session.template(environment: env, overrides: options.variables) else { continue }
            for outside in file.session.filesOutsideFolder(of: file.path, template: template) {
                StandardError.warn("\(file.path): \(outside)")
            }
        }
        options.failFast = failFast
        options.compareRecorded = compareRecorded
        options.record = record || recordTo != nil
        // The HAR is written after the run, with every response's body; nothing else needs them then.
        options.keepsResponseBodies = recordHAR != nil
        if let maxBody { options.maximumBodyBytes = maxBody.bytes }
        options.oauth2Interaction = SendCommand.oauth2Interaction()
        // A body file, upload or multipart file of `-` (issue 18 §7): standard input, read once
        // for every request that names it, never from a terminal.
        if let reader = batch.first(where: { $0.session.readsStandardInput }) {
            guard let bytes = try StandardInput.current.read() else {
                throw CLIFailure.badInput("\(reader.path): a request reads standard input ('-'), which is a terminal; redirect or pipe the body in")
            }
            options.standardInput = bytes
        }

        // `{{$demo}}` (issue 34 §3), or --demo's `server`: in-process demo servers for the run.
        let use = max(batch.map(\.session.demoUse).max() ?? .none, demo ? .plain : .none)
        let servers = try await DemoServers.start(for: use)
        if let servers {
            options.demo = servers.addresses
            if demo, options.variables["server"] == nil { options.variables["server"] = servers.plain.baseURL }
        }

        let progress = ProgressText(streams: format == .text || output != nil, test: test, verbose: verbose, showSecrets: showSecrets, files: batch, jobs: jobs)
        let clock = ContinuousClock()
        let started = clock.now
        let results = await ReplayBatch(files: batch, jobs: jobs, options: options).run(
            progress: { index, outcome in progress.requestFinished(outcome, file: index) },
            finished: { index, result in progress.fileFinished(index, result) })
        await servers?.stop()
        let duration = (clock.now - started).inSeconds

        var reports: [ReplayReport] = []
        var firstError: CLIFailure?
        for (file, result) in zip(batch, results) {
            switch result {
            case .success(let run): reports.append(run.report)
            case .failure(let error as SessionError):
                // The requests ran; only the session's cookie file could not be written back.
                if case .cookieFileNotSaved(let writeError) = error.reason {
                    firstError = firstError ?? CLIFailure.writeFailed(writeError)
                } else {
                    firstError = firstError ?? CLIFailure.badInput("\(file.path): \(error)")
                }
            case .failure(let error):
                firstError = firstError ?? CLIFailure.badInput("\(file.path): \(error)")
            }
        }
        progress.finish(reports, duration: duration, filesGiven: batch.count)
        // Output that did not arrive makes the run a failure (exit 23) before anything is saved.
        if let failure = progress.lines.firstFailure { throw failure }
        if let firstError, batch.count == 1 { throw firstError }
        if let recordHAR {
            let runs = zip(batch, results).compactMap { file, result in (try? result.get()).map { (file.session, $0.report) } }
            try ReplayCommand.writeHAR(runs, to: recordHAR, showSecrets: showSecrets)
        }
        if format != .text {
            let text = ReportWriter.render(reports, duration: duration, format: format, showSecrets: showSecrets)
            if let output {
                // With --show-secrets the report holds captured secrets: private.
                try writeFile(text, to: output, mode: showSecrets ? 0o600 : nil)
            } else {
                try StandardOutput.print(text)
            }
        }
        if options.record {
            for (file, result) in zip(batch, results) {
                guard case .success(let run) = result else { continue }
                let target = recordTo ?? file.path
                try saveSession(run.session, to: target)
                StandardError.print("tincan: recorded \(run.report.outcomes.count { $0.result != nil }) responses in \(target)\n")
            }
        }
        if let firstError { throw firstError }
        if !reports.allSatisfy(\.passed) { throw ExitCode(CLIExitCode.validationFailed.rawValue) }
    }
}

/// What a replay prints on standard output as it goes: each request's line as it finishes (one
/// file, or one job), else each file's lines together once the file and those before it are done,
/// so that files replayed side by side never interleave; with `--test`, one line a file.
private final class ProgressText: Sendable {
    let lines = CheckedLines()
    private let streams: Bool
    private let test: Bool
    private let verbose: Bool
    private let showSecrets: Bool
    /// Whether request lines are printed as they come (files run one at a time).
    private let live: Bool
    private let headers: [String]
    /// The lines of the files running side by side, until their turn comes.
    private let pending: Mutex<[Int: String]>

    init(streams: Bool, test: Bool, verbose: Bool, showSecrets: Bool, files: [ReplayBatch.File], jobs: Int) {
        self.streams = streams
        self.test = test
        self.verbose = verbose
        self.showSecrets = showSecrets
        live = jobs == 1 || files.count == 1
        headers = files.map { "\($0.session.name ?? ($0.path as NSString).lastPathComponent) (\($0.path))\n" }
        pending = Mutex([:])
        if streams, !test, live, let first = headers.first { lines.print(first) }
    }

    func requestFinished(_ outcome: RequestOutcome, file: Int) {
        guard streams, !test else { return }
        let text = ReportWriter.outcomeText(outcome, verbose: verbose, showSecrets: showSecrets)
        if live {
            lines.print(text)
        } else {
            pending.withLock { $0[file, default: headers[file]] += text }
        }
    }

    func fileFinished(_ index: Int, _ result: ReplayBatch.FileResult) {
        guard streams else { return }
        var text = test ? "" : pending.withLock { $0.removeValue(forKey: index) } ?? (live ? "" : headers[index])
        switch result {
        case .success(let run):
            if test {
                text += ReportWriter.testLine(run.report) + "\n"
                for outcome in run.report.outcomes where outcome.state == .failed {
                    text += "  " + ReportWriter.outcomeText(outcome, verbose: verbose, showSecrets: showSecrets).replacingOccurrences(of: "\n    ", with: "\n      ")
                }
            } else {
                text += ReportWriter.summary(run.report) + "\n"
            }
        case .failure(let error):
            // One file's error is the command's, on standard error; among several, it is the file's line.
            if headers.count > 1 { text += "\(headers[index].dropLast()): could not run: \(error)\n" }
        }
        // The next file's header, when files run one at a time, so its lines follow it.
        if live, !test, index + 1 < headers.count { text += "\n" + headers[index + 1] }
        lines.print(text)
    }

    func finish(_ reports: [ReplayReport], duration: Double, filesGiven: Int) {
        guard streams, filesGiven > 1 || test else { return }
        lines.print((test ? "" : "\n") + ReportWriter.batchSummary(reports, duration: duration) + "\n")
    }
}
