import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
import TincanSessions

/// A lesson of two steps on two requests: the first step's goals on the request and the
/// response, the second's on the request only.
let twoStepLesson = """
    name: Parameters
    base: "{{server}}/"
    lesson:
      title: Where parameters go
      summary: Query against body.
      steps:
        - title: In the query
          text: |
            A GET puts its parameters in the **query**.

            - `q` is one.
          request: search
          goals:
            - says: The query holds q
              request:
                query:
                  q: tea
            - status: 200
              body:
                $.args.q: tea
          hints: Add q==tea.
        - title: In the body
          goals:
            - request:
                method: POST
                headers:
                  Content-Type: {starts-with: application/x-www-form-urlencoded}
          hints:
            - Switch the method to POST.
            - The form serializer puts them in the body.
    requests:
      - name: search
        method: GET
        url: get
      - name: form
        method: GET
        url: post
        params:
          q: tea

    """

@Suite("Lesson files")
struct LessonFormatTests {
    @Test("a lesson's steps, goals and hints are read, and a step without request: starts from the request at its position")
    func aLessonIsRead() throws {
        let session = try Session.parse(twoStepLesson, path: "lesson.tincan.yaml")
        let lesson = try #require(session.lesson)
        #expect(lesson.title == "Where parameters go")
        #expect(lesson.summary == "Query against body.")
        #expect(lesson.steps.map(\.title) == ["In the query", "In the body"])
        #expect(lesson.steps.map(\.requestIndex) == [0, 1])
        #expect(lesson.steps[0].requestName == "search")
        #expect(lesson.steps[1].requestName == nil)
        #expect(lesson.steps[0].goals.map(\.says) == ["The query holds q", nil])
        #expect(lesson.steps[0].goals[0].assertions == [.request(.query("q", Predicate([.equals(.string("tea"))])))])
        #expect(lesson.steps[0].goals[0].isOnRequest)
        #expect(lesson.steps[0].goals[1].assertions.count == 2)
        #expect(!lesson.steps[0].goals[1].isOnRequest)
        #expect(lesson.steps[0].hints == ["Add q==tea."])
        #expect(lesson.steps[1].hints.count == 2)
        #expect(lesson.steps[0].text.contains("**query**"))
        #expect(lesson.steps[0].line == 7)
    }

    @Test("a lesson is written back as read, and writing what was read gives the same bytes")
    func aLessonRoundTrips() throws {
        let session = try Session.parse(twoStepLesson, path: "lesson.tincan.yaml")
        let written = session.yamlText()
        let reread = try Session.parse(written, path: "again.tincan.yaml")
        #expect(reread.lesson == session.lesson)
        #expect(reread.yamlText() == written)
        #expect(written.contains("lesson:\n  title: Where parameters go"))
    }

    /// The error reading `text` gives.
    func error(_ text: String) -> String {
        do {
            _ = try Session.parse(text, path: "bad.tincan.yaml")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("an unknown goal kind is named at its line and column, with the kinds a goal takes")
    func anUnknownGoalKindIsNamed() {
        let message = error(twoStepLesson.replacingOccurrences(of: "        - status: 200\n", with: "        - staus: 200\n"))
        #expect(message.hasPrefix("bad.tincan.yaml:18:11:"), "\(message)")
        #expect(message.contains("'staus'"), "\(message)")
        #expect(message.contains("says") && message.contains("status"), "\(message)")
    }

    @Test("a step without a title, goals without checks and a request that does not exist are refused at their place")
    func badStepsAreRefusedAtTheirPlace() {
        let untitled = error(twoStepLesson.replacingOccurrences(of: "    - title: In the body\n", with: "    - text: In the body\n"))
        #expect(untitled.hasPrefix("bad.tincan.yaml:22:7:") && untitled.contains("needs title:"), "\(untitled)")
        let noChecks = error(twoStepLesson.replacingOccurrences(of: "        - status: 200\n          body:\n            $.args.q: tea\n", with: "        - says: nothing\n"))
        #expect(noChecks.hasPrefix("bad.tincan.yaml:18:11:") && noChecks.contains("a goal needs a check"), "\(noChecks)")
        let unknown = error(twoStepLesson.replacingOccurrences(of: "request: search", with: "request: serch"))
        #expect(unknown.hasPrefix("bad.tincan.yaml:12:16:") && unknown.contains("no request is named 'serch'") && unknown.contains("search, form"), "\(unknown)")
        let noGoals = error(twoStepLesson.replacingOccurrences(of: "      goals:\n        - request:\n            method: POST", with: "      hints2:\n        - request:\n            method: POST"))
        #expect(noGoals.contains("'hints2'"), "\(noGoals)")
        let noRequests = error("lesson:\n  title: T\n  steps:\n    - title: S\n      goals: [{status: 200}]\nrequests: []\n")
        #expect(noRequests.hasPrefix("bad.tincan.yaml:4:5:") && noRequests.contains("requests: is empty"), "\(noRequests)")
    }

    @Test("a goal's result is split back from its checks laid end to end, and a check not judged says why")
    func goalResultsAreSplitBack() throws {
        let goals = try #require(try Session.parse(twoStepLesson, path: "l.tincan.yaml").lesson?.steps[0].goals)
        let passed = CheckResult(name: "request query q", failure: nil)
        let failed = CheckResult(name: "status 200", failure: "is 404")
        let results = GoalResult.results(of: goals, checks: [passed, failed, nil], unjudged: "no response")
        #expect(results.map(\.passed) == [true, false])
        #expect(results[0].title == "The query holds q")
        #expect(results[1].title == "status 200, body $.args.q equals tea")
        #expect(results[1].failures == ["status 200: is 404", "body $.args.q equals tea: not judged (no response)"])
        let pending = GoalResult.results(of: goals, checks: [], unjudged: nil)
        #expect(pending.allSatisfy { $0.isPending })
    }
}

@Suite("Checking lessons against the demo server")
struct LessonCheckTests {
    @Test("a lesson as shipped fails with each goal's reason, and solved it passes")
    func aLessonFailsThenPasses() async throws {
        try await withDemoServer { server in
            let lesson = try Session.parse(twoStepLesson, path: "/tmp/lesson.tincan.yaml")
            let shipped = try await LessonCheck.run(lesson, path: "/tmp/lesson.tincan.yaml", variables: ["server": server.baseURL])
            #expect(!shipped.passed)
            #expect(shipped.steps.map { $0.goals.map(\.passed) } == [[false, false], [false]])
            #expect(shipped.steps[0].goals[1].failures.contains { $0.hasPrefix("body $.args.q") }, "\(shipped.steps[0].goals[1].failures)")
            #expect(shipped.text().contains("✗ The query holds q"))
            #expect(shipped.text().hasSuffix("failed: 3 of 3 goals not reached\n"))

            let solved = try Session.parse(twoStepLesson
                .replacingOccurrences(of: "    url: get\n", with: "    url: get\n    query:\n      q: tea\n")
                .replacingOccurrences(of: "    method: GET\n    url: post", with: "    method: POST\n    url: post"), path: "/tmp/solved.tincan.yaml")
            let report = try await LessonCheck.run(solved, path: "/tmp/solved.tincan.yaml", variables: ["server": server.baseURL])
            #expect(report.passed, "\(report.text())")
            #expect(report.goalCounts == (3, 3))
        }
    }

    @Test("a step whose request cannot be sent fails its goals with the reason")
    func aStepThatCannotBeSentSaysWhy() async throws {
        let lesson = try Session.parse(twoStepLesson, path: "/tmp/lesson.tincan.yaml")
        let report = try await LessonCheck.run(lesson, path: "/tmp/lesson.tincan.yaml", variables: ["server": "http://127.0.0.1:1"])
        #expect(!report.passed)
        let failures = report.steps[0].goals[1].failures
        #expect(failures.count == 2 && failures.allSatisfy { $0.contains("not judged (") }, "\(failures)")
    }

    @Test("the lesson servers pin: a pinned certificate is trusted and another one is refused")
    func theLessonServersCanBePinned() async throws {
        let servers = try await DemoServers.start()
        defer { Task { await servers.stop() } }
        let text = """
            base: "{{secure-server}}/"
            defaults:
              security:
                pins: ["{{pin}}"]
            lesson:
              title: Pins
              steps:
                - title: Pin it
                  goals:
                    - status: 200
            requests:
              - url: get
            """
        let session = try Session.parse(text, path: "/tmp/pins.tincan.yaml")
        var variables = servers.lessonVariables
        variables["pin"] = variables["server-cert"]
        let pinned = try await LessonCheck.run(session, path: "/tmp/pins.tincan.yaml", variables: variables)
        #expect(pinned.passed, "\(pinned.text())")
        variables["pin"] = variables["other-cert"]
        let wrong = try await LessonCheck.run(session, path: "/tmp/pins.tincan.yaml", variables: variables)
        #expect(!wrong.passed)
        #expect(wrong.text().contains("pin"), "\(wrong.text())")
        await servers.stop()
        #expect(!FileManager.default.fileExists(atPath: try #require(servers.folder)))
    }
}

@Suite("Lesson progress")
struct LessonProgressTests {
    @Test("progress is kept under XDG_STATE_HOME, else ~/.local/state")
    func theProgressFileFollowsXDG() {
        #expect(LessonProgress.defaultPath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/tincan/lessons.json")
        #expect(LessonProgress.defaultPath(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/tincan/lessons.json")
    }

    @Test("progress is saved private and read back; a file that does not read is named and never written over")
    func progressRoundTrips() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/state/tincan/lessons.json"
        #expect(try LessonProgress.load(path: path) == LessonProgress())
        var progress = LessonProgress()
        progress.lessons["01-base-url"] = .init(passedSteps: [0, 2], stepCount: 3)
        try progress.save(path: path)
        let read = try LessonProgress.load(path: path)
        #expect(read == progress)
        #expect(read.lessons["01-base-url"]?.nextStep == 1)
        #expect(read.lessons["01-base-url"]?.isComplete == false)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // Another Tincan's lesson is kept when this one records its own.
        try LessonProgress.record(.init(passedSteps: [1], stepCount: 2), for: "02-other", path: path)
        let both = try LessonProgress.load(path: path)
        #expect(both.lessons.keys.elementsEqual(["01-base-url", "02-other"]))
        #expect(both.lessons["01-base-url"] == progress.lessons["01-base-url"])

        for bad in [#"{"lessons": {"x": {"steps": 2, "passed": [3]}}}"#, #"{"lessons": {"x": {"steps": 0, "passed": [1]}}}"#,
                    #"{"lessons": {"x": {"steps": 0, "passed": []}}}"#, #"{"lessons": {"x": {"steps": 2, "passed": [0]}}}"#] {
            try Data(bad.utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: LessonProgress.Failure.self, "\(bad)") { _ = try LessonProgress.load(path: path) }
            #expect(throws: LessonProgress.Failure.self) { try LessonProgress.record(.init(stepCount: 1), for: "y", path: path) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == bad)
        }
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try LessonProgress.load(path: path)
            Issue.record("a file that is not JSON was read")
        } catch {
            #expect(error.description.hasPrefix(path + ": "), "\(error)")
            #expect(error.description.contains("not saved until it reads"))
        }
    }
}
