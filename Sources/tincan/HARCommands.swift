import ArgumentParser
import Foundation
import TincanCore
import TincanSessions

/// `tincan import har FILE`: a browser's HAR export as a session, its responses recorded.
struct ImportHAR: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Import a HAR file (a browser's network log) as a session, each response recorded for --compare-recorded."
    )

    @Argument(help: "The .har file.")
    var file: String

    @OptionGroup var output: ImportOutput

    func run() throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue {
            throw CLIFailure.badInput("\(file) is a folder; expected a HAR file")
        }
        // A log of hundreds of megabytes takes a while: the terminal shows where it stands.
        let progress = ImportProgressLine.start(importing: file)
        defer { progress?.finish() }
        let bytes: [UInt8]
        do {
            progress?.reporter(.reading(bytes: SendCommand.regularFileSize(file).map(Int.init) ?? 0))
            bytes = try BoundedFile.readText(file, limit: HAR.maximumFileBytes)
        } catch .tooLarge {
            throw CLIFailure.badInput("\(InterchangeError(.harTooLarge(limit: HAR.maximumFileBytes), at: file))")
        } catch {
            throw CLIFailure.badInput("\(file) \(error)")
        }
        let imported: HAR.Imported
        do {
            progress?.reporter(.parsing(bytes: bytes.count))
            imported = try HAR.parse(bytes, path: file)
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
        progress?.finish()
        try output.write(imported.session, pathsFrom: Session.directory(of: file), warnings: imported.warnings)
    }
}

extension ExportCommand {
    /// The built requests as a HAR log, each with an empty response (none was sent).
    static func harText(_ built: [(name: String, request: HTTPRequest, resolved: ResolvedRequest)], showSecrets: Bool) -> (text: String, warnings: [String]) {
        let started = Date()
        let exchanges = built.map { HAR.Exchange(name: $0.name, request: $0.request, started: started) }
        let exported = HAR.export(exchanges, redactingSecrets: !showSecrets)
        var warnings = exported.warnings
        for item in built where item.resolved.options.credential != nil {
            warnings.append("request '\(item.name)': Digest credentials answer the server's challenge, so they are not part of the request written")
        }
        return (exported.text, warnings)
    }
}

extension ReplayCommand {
    /// Writes every exchange of the replay's files (in file order), with its response and
    /// timings, to `path` as one HAR log, atomically.
    static func writeHAR(_ runs: [(session: Session, report: ReplayReport)], to path: String, showSecrets: Bool) throws {
        var exchanges: [HAR.Exchange] = []
        var unsent = 0
        for (session, report) in runs {
            for outcome in report.outcomes {
                guard let result = outcome.result else {
                    unsent += 1
                    continue
                }
                var name = session.requests.indices.contains(outcome.index) ? session.requests[outcome.index].name : nil
                // Among several files, the entry says which file its request comes from.
                if runs.count > 1 { name = "\(report.file): \(name ?? outcome.name)" }
                exchanges.append(HAR.Exchange(name: name, request: result.request, result: result, started: outcome.started ?? Date()))
            }
        }
        let exported = HAR.export(exchanges, redactingSecrets: !showSecrets)
        for warning in exported.warnings { StandardError.warn(warning) }
        // A HAR holds traffic (bodies, and with --show-secrets every credential): private, as the cookie jar.
        try writeFile(exported.text, to: path, mode: 0o600)
        StandardError.print("tincan: wrote \(exchanges.count) exchange\(exchanges.count == 1 ? "" : "s") to \(path)\(unsent > 0 ? " (\(unsent) request\(unsent == 1 ? " was" : "s were") not sent)" : "")\n")
    }
}

/// Writes `text` to the file at `path` atomically; a failed write is exit 23, naming the file.
///
/// - Parameter mode: The file's permission bits (0600 for a file that holds secrets), or nil
///   to keep an existing file's and create a new one 0644.
func writeFile(_ text: String, to path: String, mode: mode_t? = nil) throws {
    do {
        try AtomicFile.write(Array(text.utf8), to: path, mode: mode)
    } catch {
        throw CLIFailure.writeFailed(error)
    }
}
