import Foundation
import Testing
import TestSupport
import TincanCore
import TincanSessions
@testable import tincan

/// What a teacher hands out and what a learner sees of their way through the lessons (issue 37 §5).
@Suite("Handouts and the lesson list")
struct LessonRoomTests {
    // MARK: - The list

    @Test("a lesson's status is not started, in progress on its first step not passed, or done")
    func statuses() {
        typealias Status = LessonListing.Status
        #expect(Status(nil, steps: 3) == .notStarted)
        #expect(Status(LessonProgress.Entry(passedSteps: [], stepCount: 3), steps: 3) == .notStarted)
        #expect(Status(LessonProgress.Entry(passedSteps: [0, 2], stepCount: 3), steps: 3) == .inProgress(step: 2, passed: 2))
        #expect(Status(LessonProgress.Entry(passedSteps: [0, 1, 2], stepCount: 3), steps: 3) == .done)
        // Steps recorded by an older, longer version of the lesson do not count.
        #expect(Status(LessonProgress.Entry(passedSteps: [3, 4], stepCount: 5), steps: 3) == .notStarted)
    }

    @Test("the next lesson is the one in progress, else the first not started after the last done, else the first not done")
    func nextLesson() {
        func listing(_ statuses: [LessonListing.Status]) -> LessonListing {
            LessonListing(rows: statuses.enumerated().map { LessonListing.Row(name: "0\($0 + 1)-l", title: "L\($0 + 1)", summary: nil, steps: 2, status: $1) })
        }
        #expect(listing([.notStarted, .notStarted]).next?.name == "01-l")
        #expect(listing([.done, .notStarted, .inProgress(step: 2, passed: 1)]).next?.name == "03-l")
        #expect(listing([.done, .notStarted, .done, .notStarted]).next?.name == "04-l")
        #expect(listing([.notStarted, .done, .done]).next?.name == "01-l")
        #expect(listing([.done, .done]).next == nil)
    }

    @Test("tincan learn lists each lesson's status and summary, and the next one to take")
    func listShowsStatus() async throws {
        let state = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: state.path + "/tincan", withIntermediateDirectories: true)
        try Data(#"{"lessons": {"01-base-url": {"steps": 2, "passed": [1, 2]}, "02-where-parameters-go": {"steps": 3, "passed": [1]}}}"#.utf8)
            .write(to: URL(fileURLWithPath: state.path + "/tincan/lessons.json"))
        let result = try await learn([], state: state.path)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  01-base-url") && $0.hasSuffix("✓ done") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("  02-where-parameters-go") && $0.hasSuffix("in progress · step 2 of 3") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("  03-nested-parameters") && $0.contains("not started · ") }, "\(result.stdout)")
        let lesson1 = try #require(lines.firstIndex { $0.hasPrefix("  01-base-url") })
        #expect(lines[lesson1 + 1].hasPrefix("    ") && lines[lesson1 + 1].count > 20, "the summary under the title: \(lines[lesson1 + 1])")
        #expect(lines.contains { $0.hasPrefix("Next: tincan learn 2 (") && $0.hasSuffix(", step 2)") }, "\(result.stdout)")

        let json = try await learn(["--json"], state: state.path)
        #expect(json.stdout.contains(#""next": "02-where-parameters-go""#), "\(json.stdout)")
        #expect(json.stdout.contains(#""status": "in-progress""#), "\(json.stdout)")
        #expect(json.stdout.contains(#""status": "done""#), "\(json.stdout)")
    }

    // MARK: - Handouts

    /// The handout of built-in lesson `lesson` on standard output.
    private static func handout(_ lesson: String, _ extra: [String] = [], state: TemporaryDirectory) async throws -> String {
        let result = try await learn([lesson, "--handout", "-"] + extra, state: state.path, in: state.path)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test("two runs write the same handout: no per-run ports, folders or dates")
    func handoutIsStable() async throws {
        let state = try TemporaryDirectory()
        let first = try await Self.handout("1", state: state)
        let second = try await Self.handout("1", state: state)
        #expect(first == second)
        #expect(!first.isEmpty)
        #expect(first.contains("127.0.0.1:8080"), "\(first)")
        // Any other port would be the run's own.
        let ports = first.matches(of: /127\.0\.0\.1:(\d+)/).map { String($0.1) }
        #expect(Set(ports).isSubset(of: ["8080", "8443"]), "\(Set(ports))")
        #expect(!first.contains(NSTemporaryDirectory()), "no private folder")
        let pinning = try await Self.handout("12", state: state)
        #expect(pinning == (try await Self.handout("12", state: state)))
        #expect(!pinning.contains("tincan-demo-"), "the certificates' folder is named as the lesson names it")
        // A multipart boundary (lesson 4's answers), a Digest nonce (lesson 14's), an OAuth 2.0
        // code and its tokens (lesson 15's) are new each run.
        for lesson in ["4", "14", "15"] {
            let teacher = try await Self.handout(lesson, ["--teacher"], state: state)
            #expect(teacher == (try await Self.handout(lesson, ["--teacher"], state: state)), "lesson \(lesson)")
            if lesson == "15" {
                #expect(teacher.contains("at-(new each time)") && teacher.contains("code=(new each time)"), "\(teacher)")
                #expect(teacher.firstMatch(of: /\bat-[A-Za-z0-9_-]{32}/) == nil, "no token is shown")
                #expect(!teacher.contains("demo-secret"), "the client secret is hidden")
            }
        }
    }

    @Test("the student's handout holds no answers and says each Explain part once; lesson 1 is short")
    func studentHandout() async throws {
        let state = try TemporaryDirectory()
        let text = try await Self.handout("1", state: state)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 160, "lesson 1 was 186 lines of repeated Explain: \(lines.count)")
        #expect(text.contains("_As in an earlier step: "), "\(text)")
        #expect(!text.contains("### The answer"))
        #expect(!text.contains("**Hints**"))
        #expect(text.contains("in the TUI: alt+t shows the next"), "\(text)")
        // The solution's URL (../users) is nowhere.
        #expect(!text.contains("url: ../users"))
    }

    @Test("the teacher's handout adds each step's answer, the server's answer to it, and the hints")
    func teacherHandout() async throws {
        let state = try TemporaryDirectory()
        let text = try await Self.handout("1", ["--teacher"], state: state)
        #expect(text.contains("_The teacher's version"), "\(text)")
        #expect(text.components(separatedBy: "### The answer").count - 1 == 2, "one answer per step")
        #expect(text.contains("The solution writes:\n\n```yaml\nrequests:\n"), "\(text)")
        #expect(text.contains("url: ../users"), "\(text)")
        #expect(text.contains("It passes 2 of 2 goals."), "\(text)")
        #expect(text.contains("**Hints**"))
        let noTeacher = try await learn(["1", "--teacher"], state: state.path, in: state.path)
        #expect(noTeacher.status == 2)
        #expect(noTeacher.stderr.contains("--teacher goes with --handout"), "\(noTeacher.stderr)")
    }

    @Test("a lesson file's teacher handout needs its solution in solutions/, and says where it looked")
    func teacherHandoutOfAFile() async throws {
        let folder = try TemporaryDirectory()
        let lesson = try folder.write("01-query.tincan.yaml", Array(LearnCommandTests.lesson.utf8))
        let missing = try await learn([lesson, "--handout", "-", "--teacher"], state: folder.path)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("has no solution: expected \(folder.path)/solutions/01-query.tincan.yaml"), "\(missing.stderr)")
        try FileManager.default.createDirectory(atPath: folder.path + "/solutions", withIntermediateDirectories: true)
        try folder.write("solutions/01-query.tincan.yaml", Array(LearnCommandTests.solution.utf8))
        let found = try await learn([lesson, "--handout", "-", "--teacher"], state: folder.path)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("q: tea"), "\(found.stdout)")
        #expect(found.stdout.contains("It passes 1 of 1 goals."), "\(found.stdout)")
    }

    @Test("a binary body is a short hex excerpt, never raw bytes")
    func binaryBodies() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 100)
        #expect(LessonHandout.bodyExcerpt(png) == "<binary: 108 bytes; first bytes: 89 50 4e 47 0d 0a 1a 0a 00 00 00 00 00 00 00 00 …>")
        #expect(LessonHandout.bodyExcerpt(Array("{\"a\": 1}".utf8)) == "{\"a\": 1}")
    }

    @Test("lesson 8's handout shows the PNG as hex, with no control character")
    func lesson8Handout() async throws {
        let state = try TemporaryDirectory()
        let text = try await Self.handout("8", state: state)
        #expect(text.contains("<binary: "), "\(text)")
        #expect(text.contains("first bytes: 89 50 4e 47"), "the PNG's signature")
        #expect(!text.unicodeScalars.contains { TerminalText.isControl($0) && $0 != "\n" })
    }
}
