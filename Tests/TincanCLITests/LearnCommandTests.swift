import Foundation
import TestSupport
import Testing

/// `tincan learn` with the learner's state in a folder of the test's own.
func learn(_ arguments: [String], state: String, in directory: String? = nil) async throws -> ProcessResult {
    try await run(BuiltProducts.tincan, ["learn"] + arguments, environment: ["LANG": "en_US.UTF-8", "XDG_STATE_HOME": state, "HOME": state],
                  currentDirectory: directory)
}

@Suite("tincan learn")
struct LearnCommandTests {
    static let lesson = """
        name: Query
        base: "{{server}}/"
        variables:
          server: http://127.0.0.1:8080
        lesson:
          title: Parameters in the query
          steps:
            - title: Add q
              text: Add a query field.
              goals:
                - says: The server saw q
                  request:
                    query:
                      q: tea
                  status: 200
                  body:
                    $.args.q: tea
        requests:
          - name: search
            url: get

        """
    static let solution = lesson.replacingOccurrences(of: "    url: get\n", with: "    url: get\n    query:\n      q: tea\n")

    @Test("with no lesson it lists the built-in lessons with the learner's progress")
    func listsTheBuiltInLessons() async throws {
        let state = try TemporaryDirectory()
        let first = try await learn([], state: state.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("01-base-url"), "\(first.stdout)")
        #expect(first.stdout.contains("Progress is kept in \(state.path)/tincan/lessons.json"))
        try FileManager.default.createDirectory(atPath: state.path + "/tincan", withIntermediateDirectories: true)
        try Data(#"{"lessons": {"01-base-url": {"steps": 2, "passed": [1]}}}"#.utf8).write(to: URL(fileURLWithPath: state.path + "/tincan/lessons.json"))
        let json = try await learn(["--json"], state: state.path)
        #expect(json.stdout.contains(#""name": "01-base-url""#), "\(json.stdout)")
        #expect(json.stdout.contains(#""passed": 1"#), "\(json.stdout)")
        let unknown = try await learn(["no-such-lesson"], state: state.path)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("'no-such-lesson' is neither a file nor a built-in lesson"), "\(unknown.stderr)")
    }

    @Test("--check passes a solution, fails a lesson as shipped naming its goals, and checks a pack's pairs")
    func checksLessonsAndPacks() async throws {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.path + "/solutions", withIntermediateDirectories: true)
        let lessonPath = try folder.write("01-query.tincan.yaml", Array(Self.lesson.utf8))
        let solutionPath = try folder.write("solutions/01-query.tincan.yaml", Array(Self.solution.utf8))

        let solved = try await learn(["--check", solutionPath], state: state.path)
        #expect(solved.status == 0, "\(solved.stdout)\(solved.stderr)")
        #expect(solved.stdout.contains("ok    \(solutionPath): its goal reached"))
        let shipped = try await learn(["--check", lessonPath], state: state.path)
        #expect(shipped.status == 3)
        #expect(shipped.stderr.contains("✗ The server saw q"), "\(shipped.stderr)")
        #expect(shipped.stderr.contains("request query q"), "\(shipped.stderr)")

        let pack = try await learn(["--check", folder.path], state: state.path)
        #expect(pack.status == 0, "\(pack.stdout)\(pack.stderr)")
        #expect(pack.stdout.contains("1 of 1 goals left for the learner"))

        // A lesson that already passes teaches nothing; a lesson without a solution is named.
        try folder.write("02-solved.tincan.yaml", Array(Self.solution.utf8))
        let bad = try await learn(["--check", folder.path], state: state.path)
        #expect(bad.status == 3)
        #expect(bad.stderr.contains("\(folder.path)/02-solved.tincan.yaml:1:1: no solution: expected \(folder.path)/solutions/02-solved.tincan.yaml"), "\(bad.stderr)")
        #expect(bad.stderr.contains("every goal already passes as shipped"), "\(bad.stderr)")

        // A solution may change only the requests.
        try folder.write("solutions/02-solved.tincan.yaml", Array(Self.solution.replacingOccurrences(of: "q: tea\n      status", with: "q: tea\n      status").replacingOccurrences(of: "title: Add q", with: "title: Easier").utf8))
        let changed = try await learn(["--check", folder.path], state: state.path)
        #expect(changed.stderr.contains("its lesson: block is not \(folder.path)/02-solved.tincan.yaml's (step 1's title)"), "\(changed.stderr)")

        // A solution without a lesson is named too.
        try folder.write("solutions/03-orphan.tincan.yaml", Array(Self.solution.utf8))
        let orphan = try await learn(["--check", folder.path], state: state.path)
        #expect(orphan.stderr.contains("\(folder.path)/solutions/03-orphan.tincan.yaml:1:1: a solution without a lesson: expected \(folder.path)/03-orphan.tincan.yaml"), "\(orphan.stderr)")

        let broken = try folder.write("broken.tincan.yaml", Array(Self.lesson.replacingOccurrences(of: "- says:", with: "- sayz:").utf8))
        let unreadable = try await learn(["--check", broken], state: state.path)
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains("broken.tincan.yaml:11:11: unknown key 'sayz' in a goal"), "\(unreadable.stderr)")
    }

    @Test("the shipped lesson pack: every lesson fails as shipped and every solution passes")
    func theShippedPackChecks() async throws {
        let state = try TemporaryDirectory()
        let examples = (examplesDirectory as NSString).appendingPathComponent("lessons")
        let result = try await learn(["--check", examples], state: state.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test("a built-in lesson saved in a folder of its own checks there: its files are the built-in ones")
    func aSavedLessonFindsItsFiles() async throws {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        let lessons = (examplesDirectory as NSString).appendingPathComponent("lessons")
        // As `tincan learn 4` saves it: the lesson's own default, files/, which is not there.
        let solved = try String(contentsOfFile: lessons + "/solutions/04-request-serializers.tincan.yaml", encoding: .utf8)
            .replacingOccurrences(of: "lesson-files: ../files", with: "lesson-files: files")
        let path = try folder.write("04-request-serializers.tincan.yaml", Array(solved.utf8))
        let result = try await learn(["--check", path], state: state.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("not reachable"), "\(result.stderr)")
        // A lesson of the learner's own finds nothing it does not have.
        let own = try folder.write("own.tincan.yaml", Array(solved.replacingOccurrences(of: "title: One tree, four bodies", with: "title: My serializers").utf8))
        let alone = try await learn(["--check", own], state: state.path)
        #expect(alone.status == 3, "\(alone.stdout)\(alone.stderr)")
        #expect(alone.stderr.contains("notes.txt"), "\(alone.stderr)")
    }

    @Test("--handout writes a lesson as Markdown: each step's text, goals, request on the wire and why, and the server's answer, with secrets hidden")
    func writesAHandout() async throws {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        let lesson = try folder.write("secret.tincan.yaml", Array(Self.lesson.replacingOccurrences(of: "    url: get\n", with: "    url: get\n    headers:\n      Authorization: Bearer s3cret-token\n").utf8))
        let out = folder.path + "/handout.md"
        let result = try await learn([lesson, "--handout", out], state: state.path)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        for part in ["# Parameters in the query", "## Step 1: Add q", "Add a query field.", "- [ ] The server saw q", "#### URL", "#### On the wire", "```http\nGET /get HTTP/1.1",
                     "### What the server answered", "HTTP/1.1 200 OK", "Authorization: Bearer ••••••"] {
            #expect(text.contains(part), "\(part) in\n\(text)")
        }
        #expect(!text.contains("s3cret-token"))
        let both = try await learn([lesson, "--handout", out, "--check"], state: state.path)
        #expect(both.status == 2)
        let unwritable = try await learn([lesson, "--handout", folder.path + "/missing/handout.md"], state: state.path)
        #expect(unwritable.status == 23, "\(unwritable.stderr)")
    }
}
