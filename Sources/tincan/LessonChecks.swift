import Foundation
import TincanCore
import TincanDemoServer
import TincanSessions

/// `tincan learn --check PATH…`: lessons and solutions checked headless against demo servers of
/// their own. A file must pass. A folder is a lesson pack: each lesson in it must fail as shipped
/// (a lesson that already passes teaches nothing), and its solution, the file of the same name
/// in `solutions/`, must pass with the very same `lesson:` block.
struct LessonChecks {
    var paths: [String]

    /// What one file is expected to do.
    enum Expectation {
        case passes
        case failsAsShipped
    }

    /// Where two lessons differ, in words; nil when they are the same.
    static func difference(_ lesson: Lesson?, _ other: Lesson?) -> String? {
        guard let lesson, let other else { return lesson == nil && other == nil ? nil : "one has no lesson: block" }
        if lesson.title != other.title || lesson.summary != other.summary { return "the title or summary" }
        if lesson.steps.count != other.steps.count { return "\(lesson.steps.count) steps against \(other.steps.count)" }
        for (index, (step, otherStep)) in zip(lesson.steps, other.steps).enumerated() where step != otherStep {
            let part = step.goals != otherStep.goals ? "goals" : step.title != otherStep.title ? "title" : step.text != otherStep.text ? "text"
                : step.hints != otherStep.hints ? "hints" : "request"
            return "step \(index + 1)'s \(part)"
        }
        return nil
    }

    /// A file to check: what it must do, and for a solution, its lesson.
    private struct Item {
        var path: String
        var expectation: Expectation
        var lesson: String?
    }

    /// The problems found, one message each, and whether one is a file that does not load.
    private struct Problems {
        var messages: [String] = []
        var badInput = false
    }

    func run() async throws {
        var plan: [Item] = []
        var problems = Problems()
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw CLIFailure.badInput("--check: \(path) does not exist; expected a lesson file or a folder of lessons")
            }
            guard isFolder.boolValue else {
                plan.append(Item(path: path, expectation: .passes))
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(BuiltinLessons.suffix) }.sorted()
            } catch {
                throw CLIFailure.badInput("--check: \(path) cannot be listed: \(error.localizedDescription)")
            }
            if names.isEmpty { throw CLIFailure.badInput("--check: \(path) holds no lesson (*\(BuiltinLessons.suffix))") }
            let solutionsFolder = (path as NSString).appendingPathComponent("solutions")
            let solutions = (try? FileManager.default.contentsOfDirectory(atPath: solutionsFolder))?.filter { $0.hasSuffix(BuiltinLessons.suffix) }.sorted() ?? []
            for orphan in solutions where !names.contains(orphan) {
                problems.messages.append("\((solutionsFolder as NSString).appendingPathComponent(orphan)):1:1: a solution without a lesson: expected \((path as NSString).appendingPathComponent(orphan))")
            }
            for name in names {
                let lesson = (path as NSString).appendingPathComponent(name)
                let solution = (solutionsFolder as NSString).appendingPathComponent(name)
                plan.append(Item(path: lesson, expectation: .failsAsShipped))
                if solutions.contains(name) {
                    plan.append(Item(path: solution, expectation: .passes, lesson: lesson))
                } else {
                    problems.messages.append("\(lesson):1:1: no solution: expected \(solution), the lesson solved")
                }
            }
        }

        let servers: DemoServers
        do {
            servers = try await DemoServers.start()
        } catch {
            throw CLIFailure(message: "error: the demo servers could not start: \(error)", exitCode: .transportFailed)
        }
        for item in plan {
            // Each file's line goes out as it is checked: a pack takes a while.
            var output = ""
            do {
                let session = try Session.load(path: item.path)
                if let lessonPath = item.lesson, let difference = Self.difference(try Session.load(path: lessonPath).lesson, session.lesson) {
                    output += "FAIL  \(item.path): its lesson: block is not the lesson's\n"
                    problems.messages.append("\(item.path): its lesson: block is not \(lessonPath)'s (\(difference)); a solution changes only the requests")
                } else if item.lesson == nil, let lesson = session.lesson, let original = BuiltinLessons.original(ofFile: item.path, titled: lesson.title),
                          let difference = BuiltinLessons.goalDifference(from: original.lesson, lesson) {
                    // A saved copy of a built-in lesson is judged by the lesson's goals, never by edited ones.
                    output += "FAIL  \(item.path): its goals are not built-in lesson \(original.name)'s\n"
                    problems.messages.append("\(item.path): its goals differ from built-in lesson \(original.name)'s (\(difference)); a lesson is passed by changing its requests, not its goals")
                } else {
                    try await check(session, item, servers: servers, output: &output, problems: &problems)
                }
            } catch {
                problems.badInput = true
                output += "FAIL  \(item.path): does not load\n"
                problems.messages.append("\(error)")
            }
            do {
                try StandardOutput.print(TerminalText.text(output))
            } catch {
                await servers.stop()
                throw error
            }
        }
        await servers.stop()
        guard problems.messages.isEmpty else {
            StandardError.print(problems.messages.map { "error: \($0)\n" }.joined())
            throw CLIFailure(message: "error: \(problems.messages.count) problem\(problems.messages.count == 1 ? "" : "s") in the lessons checked",
                             exitCode: problems.badInput ? .badInput : .validationFailed)
        }
    }

    /// Checks one file against what it is expected to do, and says how it went.
    private func check(_ session: Session, _ item: Item, servers: DemoServers, output: inout String, problems: inout Problems) async throws {
        let files = try LessonSource.filesFolder(forLessonAt: item.path, titled: session.lesson?.title)
        defer { if files.isPrivate { try? FileManager.default.removeItem(atPath: files.path) } }
        let variables = servers.lessonVariables.merging(["lesson-files": files.path]) { $1 }
        let report = try await LessonCheck.run(session, path: item.path, variables: variables, demo: servers.addresses)
        let counts = report.goalCounts
        switch item.expectation {
        case .passes:
            if report.passed {
                output += "ok    \(item.path): \(counts.total == 1 ? "its goal" : "all \(counts.total) goals") reached\n"
            } else {
                output += "FAIL  \(item.path): \(counts.total - counts.passed) of \(counts.total) goals not reached\n"
                problems.messages.append(report.text().trimmingNewlines())
            }
        case .failsAsShipped:
            if report.passed {
                output += "FAIL  \(item.path): passes as shipped, so it teaches nothing\n"
                problems.messages.append("\(item.path): every goal already passes as shipped; a lesson leaves something for the learner to do")
            } else {
                output += "ok    \(item.path): \(counts.total - counts.passed) of \(counts.total) goals left for the learner\n"
            }
        }
    }
}
