import ArgumentParser
import Foundation
import TincanCore
import TincanDemoServer
import TincanSessions

/// `tincan learn`: the lessons (issue 20). With no lesson, the built-in lessons and the
/// learner's progress; with one, the lesson in the TUI; with `--check`, lessons and solutions
/// checked headless.
struct LearnCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Learn how an HTTP client builds a request, in lessons checked live against the demo server.",
        discussion: """
        With no LESSON, lists the built-in lessons and your progress. LESSON is a lesson file, or a built-in \
        lesson's name or number (tincan learn 1). A built-in lesson saves to NAME.tincan.yaml in the current \
        folder, and is opened from there once that file exists.
        With --check, checks lesson files, solutions, or a folder of lessons with their solutions in \
        solutions/ (a lesson as shipped must fail, its solution pass), and exits 0 only when all is as expected.
        """
    )

    @Argument(help: ArgumentHelp("A lesson file, or a built-in lesson's name or number; with --check, files or folders.", valueName: "LESSON"))
    var lessons: [String] = []

    @Flag(help: "Check each lesson headless: exit 0 only when every goal of every step passes (a folder: lessons fail, solutions pass).")
    var check = false

    @Flag(help: "Print the lesson list as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Write LESSON as Markdown for a handout: each step's text, goals, request (on the wire, and why) and the demo server's answer, without the answers (--teacher adds them); - for standard output.", valueName: "FILE.md"))
    var handout: String?

    @Flag(help: "With --handout, the teacher's version: each step's answer (the solution's request and the server's answer to it) and hints.")
    var teacher = false

    @Option(help: ArgumentHelp("Send each step you pass to the teacher's tincan serve --classroom at URL (the address the teacher gives); needs --name. Nothing is sent without it.", valueName: "URL"))
    var classroom: String?

    @Option(help: ArgumentHelp("With --classroom, the name the teacher sees you by (1 to 40 characters).", valueName: "NAME"))
    var name: String?

    @OptionGroup var display: TUIOptions

    func validate() throws {
        if teacher && handout == nil { throw ValidationError("--teacher goes with --handout FILE.md, the handout it writes") }
        if classroom != nil || name != nil {
            guard classroom != nil, name != nil else { throw ValidationError(classroom == nil ? "--name goes with --classroom URL, the teacher's address" : "--classroom needs --name NAME, the name the teacher sees you by") }
            guard lessons.count == 1, !check, handout == nil else { throw ValidationError("--classroom reports the lesson you open: give one LESSON, without --check or --handout") }
        }
    }

    func run() async throws {
        StandardOutput.ignoreClosedPipeSignal()
        if let handout {
            guard !check else { throw CLIFailure.badInput("--handout writes one lesson; --check checks lessons; give one") }
            guard lessons.count == 1 else { throw CLIFailure.badInput("--handout needs one LESSON to write, not \(lessons.count)") }
            try await writeHandout(of: lessons[0], to: handout)
            return
        }
        if check {
            guard !lessons.isEmpty else { throw CLIFailure.badInput("--check needs a lesson file or a folder of lessons") }
            try await LessonChecks(paths: lessons).run()
            return
        }
        switch lessons.count {
        case 0: try list()
        case 1: try await open(lessons[0])
        default: throw CLIFailure.badInput("give one lesson to open, not \(lessons.count) (--check takes several)")
        }
    }

    /// Prints the built-in lessons with the learner's progress.
    private func list() throws {
        let path = LessonProgress.defaultPath()
        var problem: String?
        let progress: LessonProgress
        do {
            progress = try LessonProgress.load(path: path)
        } catch {
            progress = LessonProgress()
            problem = "\(error)"
        }
        var rows: [LessonListing.Row] = []
        for lesson in BuiltinLessons.all {
            let session: Session
            do {
                session = try Session.parse(lesson.text, path: "built-in lesson \(lesson.name)")
            } catch {
                throw CLIFailure(message: "error: \(error)", exitCode: .badInput)
            }
            let steps = session.lesson?.steps.count ?? 0
            rows.append(LessonListing.Row(name: lesson.name, title: session.lesson?.title ?? session.name ?? lesson.name, summary: session.lesson?.summary,
                                          steps: steps, status: LessonListing.Status(progress.lessons[lesson.name], steps: steps)))
        }
        let listing = LessonListing(rows: rows)
        if json {
            try StandardOutput.print(JSONWriter.string(listing.json(progressPath: path), indent: 2) + "\n")
            return
        }
        let text = listing.text(progressPath: path)
        // Titles come from lesson files, which the learner may not have written.
        try StandardOutput.print(TerminalText.text(text))
        if let problem { StandardError.print("warning: \(problem)\n") }
    }

    /// Writes a lesson's handout to `path` (atomically), or to standard output for `-`.
    private func writeHandout(of name: String, to path: String) async throws {
        var lesson = try LessonSource(name)
        defer { lesson.removeFiles() }
        // A built-in lesson's handout is the lesson as shipped, not a copy saved here.
        if lesson.builtinName != nil, let shipped = lesson.shipped { lesson.session = shipped }
        let solution = teacher ? try Self.solution(of: lesson) : nil
        let servers: DemoServers
        do {
            servers = try await DemoServers.start()
        } catch {
            throw CLIFailure(message: "error: the demo servers could not start: \(error)", exitCode: .transportFailed)
        }
        let text: String
        do {
            text = try await LessonHandout(lesson: lesson, solution: solution).markdown(servers: servers)
        } catch {
            await servers.stop()
            throw CLIFailure.badInput("\(lesson.path): \(error)")
        }
        await servers.stop()
        if path == "-" { return try StandardOutput.print(TerminalText.text(text)) }
        do {
            try AtomicFile.write(Array(text.utf8), to: path)
        } catch {
            throw CLIFailure.writeFailed(error)
        }
        StandardError.print("Wrote the handout of \(lesson.session.lesson?.title ?? name) to \(path)\n")
    }

    /// The solution of `lesson`, for a teacher's handout: a built-in lesson's own, or the file
    /// of the same name in `solutions/` beside a lesson file.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when there is none, or it does not load.
    private static func solution(of lesson: LessonSource) throws -> Session {
        if let name = lesson.builtinName {
            guard let text = BuiltinLessons.solution(of: name) else { throw CLIFailure.badInput("--teacher: built-in lesson \(name) has no solution") }
            do {
                return try Session.parse(text, path: "the solution of built-in lesson \(name)")
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
        }
        let folder = (lesson.path as NSString).deletingLastPathComponent
        let path = ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent("solutions/" + (lesson.path as NSString).lastPathComponent)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIFailure.badInput("--teacher: \(lesson.path) has no solution: expected \(path), as a lesson pack keeps them (docs/lessons.md)")
        }
        do {
            return try Session.load(path: path)
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
    }

    /// Opens a lesson in the TUI.
    private func open(_ name: String) async throws {
        let lesson = try LessonSource(name)
        var reporter: ClassroomReporter?
        if let classroom, let student = self.name {
            let (url, student) = try ClassroomReporter.parse(url: classroom, name: student)
            let key = LessonProgress.key(builtinName: lesson.builtinName, path: lesson.path)
            reporter = ClassroomReporter(url: url, name: student, lessonKey: key,
                                         lessonName: lesson.builtinName ?? String(((lesson.path as NSString).lastPathComponent).prefix(Classroom.maximumLessonLength)),
                                         title: lesson.session.lesson?.title)
            // Joining says where the learner starts, and finds a wrong address before the screen is taken.
            let steps = lesson.session.lesson?.steps.count ?? 1
            var entry = (try? LessonProgress.load(path: LessonProgress.defaultPath()))?.lessons[key] ?? LessonProgress.Entry(stepCount: steps)
            entry.stepCount = steps
            entry.passedSteps = entry.passedSteps.filter { $0 < steps }
            if let problem = await reporter?.report(entry, key: key) {
                lesson.removeFiles()
                throw CLIFailure(message: "error: --classroom: \(TerminalText.line(problem))", exitCode: .transportFailed)
            }
        }
        try await TUICommand.openLesson(lesson, display: display, classroom: reporter)
    }
}

/// Where a lesson comes from: a file, or a built-in lesson (saved to the current folder).
struct LessonSource {
    /// The file that edits are saved to.
    var path: String
    /// The lesson's session, with its `lesson:` block.
    var session: Session
    /// The built-in lesson's name, or nil for a lesson file.
    var builtinName: String?
    /// Whether `path` exists (a built-in lesson not saved yet does not).
    var fileExists: Bool
    /// The folder of the files the lesson sends (`{{lesson-files}}`): the pack's `files/`, or for
    /// a built-in lesson a private folder they are written to, removed by ``removeFiles()``.
    var filesFolder: String
    /// Whether ``filesFolder`` is a private folder written for this run (removed by ``removeFiles()``).
    var ownsFilesFolder = false

    /// Why a saved copy of a built-in lesson is judged by the built-in goals instead of its own
    /// (they were edited), for the TUI to say; nil when they are the lesson's.
    var goalsNotice: String?

    /// The lesson as shipped, which the TUI's resets put back: the built-in lesson, or the file
    /// as it was opened.
    var shipped: Session? {
        guard let builtinName, let builtin = BuiltinLessons.named(builtinName) else { return originalSession }
        return try? Session.parse(builtin.text, path: "built-in lesson \(builtinName)")
    }

    /// The file's session as read, before anything was put back.
    private var originalSession: Session?

    /// The variables a lesson reads its files from.
    var variables: [String: String] { ["lesson-files": filesFolder] }

    /// The `files/` folder of the lesson file at `path`: beside it, or beside the folder it is in
    /// (a solution in `solutions/`).
    static func filesFolder(forLessonAt path: String) -> String {
        // Absolute: the lesson's own paths are read relative to its folder.
        let folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        let beside = folder.appendingPathComponent("files").path
        let above = folder.deletingLastPathComponent().appendingPathComponent("files").path
        return !FileManager.default.fileExists(atPath: beside) && FileManager.default.fileExists(atPath: above) ? above : beside
    }

    /// The folder of the files the lesson at `path` sends, as ``filesFolder(forLessonAt:)`` finds
    /// it; for a saved copy of a built-in lesson with no `files/` beside it or above (a lesson
    /// saved from `tincan learn N` and checked later, when the run's private copy is gone), the
    /// built-in files written to a new private folder, which the caller removes (`isPrivate`).
    ///
    /// - Throws: ``CLIFailure`` when that private folder cannot be written.
    static func filesFolder(forLessonAt path: String, titled title: String?) throws -> (path: String, isPrivate: Bool) {
        let found = filesFolder(forLessonAt: path)
        guard !FileManager.default.fileExists(atPath: found), BuiltinLessons.original(ofFile: path, titled: title) != nil else { return (found, false) }
        return (try BuiltinLessons.writeSupportFiles(), true)
    }

    /// Removes the private folder the lesson's files were written to.
    func removeFiles() {
        guard ownsFilesFolder else { return }
        try? FileManager.default.removeItem(atPath: filesFolder)
    }

    /// The lesson `name` names: a file when one exists there, else a built-in lesson.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) for a file that is not a lesson, or no lesson of that name.
    init(_ name: String) throws {
        if FileManager.default.fileExists(atPath: name) {
            path = name
            builtinName = nil
            fileExists = true
            filesFolder = ""
            do {
                session = try Session.load(path: name)
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
            originalSession = session
        } else if let builtin = BuiltinLessons.named(name) {
            builtinName = builtin.name
            path = builtin.name + BuiltinLessons.suffix
            filesFolder = ""
            fileExists = FileManager.default.fileExists(atPath: path)
            do {
                session = fileExists ? try Session.load(path: path) : try Session.parse(builtin.text, path: "built-in lesson \(builtin.name)")
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
            if fileExists { try judgeByBuiltinGoals(builtin.name) }
        } else {
            let names = BuiltinLessons.all.map(\.name).joined(separator: ", ")
            throw CLIFailure.badInput("LESSON: '\(name)' is neither a file nor a built-in lesson; expected a lesson file or one of: \(names)")
        }
        guard session.lesson != nil else {
            throw CLIFailure.badInput("\(path): not a lesson: a lesson file has a lesson: block with steps (see docs/session-format.md, Lessons)")
        }
        // Written last, so nothing is left behind when the lesson cannot be opened.
        if builtinName != nil {
            filesFolder = try BuiltinLessons.writeSupportFiles()
            ownsFilesFolder = true
        } else {
            (filesFolder, ownsFilesFolder) = try Self.filesFolder(forLessonAt: path, titled: session.lesson?.title)
        }
    }
}

extension LessonSource {
    /// Puts the built-in lesson's goals back when the saved copy's were edited: a built-in lesson
    /// is judged by its own `lesson:` block, so progress never records goals the learner wrote.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when a step's request is no longer in the file.
    fileprivate mutating func judgeByBuiltinGoals(_ name: String) throws {
        guard let saved = session.lesson, let original = BuiltinLessons.original(ofFile: path, titled: nil)?.lesson,
              let difference = BuiltinLessons.goalDifference(from: original, saved) else { return }
        var lesson = original
        for index in lesson.steps.indices {
            let wanted = lesson.steps[index].requestName
            guard let found = wanted.flatMap({ wanted in session.requests.firstIndex { $0.name == wanted } }) ?? (session.requests.indices.contains(lesson.steps[index].requestIndex) ? lesson.steps[index].requestIndex : nil) else {
                throw CLIFailure.badInput("\(path): step \(index + 1) of built-in lesson \(name) starts from the request \(wanted ?? "at its position"), which this file no longer has; rename the file to start the lesson afresh")
            }
            lesson.steps[index].requestIndex = found
        }
        session.lesson = lesson
        goalsNotice = "This file's goals differ from lesson \(name)'s (\(difference)): the lesson's own goals are used, and saving writes them back."
    }
}
