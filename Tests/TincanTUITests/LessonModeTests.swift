import Foundation
import TerminalUI
import TestSupport
import Testing
import TincanCore
import TincanSessions
@testable import TincanTUI

/// A lesson of two steps: the first judged on the request (its URL), the second on the response.
let tuiLesson = """
    name: Base URL
    base: "{{server}}/anything/v1"
    lesson:
      title: The base URL
      steps:
        - title: A relative path
          text: |
            A path with a **leading slash** starts again at the host.

            - `users` is appended to the base's directory.
          goals:
            - says: The URL is the base's directory and users
              request:
                url: "{{server}}/anything/v1/users"
          hints:
            - Remove the leading slash.
        - title: What the server saw
          text: Send it and read `$.url`.
          goals:
            - says: The server saw /anything/v1/users
              status: 200
              body:
                $.url: "{{server}}/anything/v1/users"
    requests:
      - name: relative
        url: /users
      - name: sent
        url: users

    """

@Suite("A lesson in the TUI")
struct LessonModeTests {
    static let server = "http://127.0.0.1:8080"

    static func lessonState(width: Int = 80, height: Int = 24, progress: LessonProgress = LessonProgress()) throws -> AppState {
        var workspace = Workspace(session: try Session.parse(tuiLesson, path: "/tmp/lesson.tincan.yaml"), path: "/tmp/lesson.tincan.yaml")
        workspace.overrides["server"] = server
        var startup = Startup(demoServerURL: server, settings: TUISettings(theme: BuiltinThemes.dark), workspace: workspace)
        startup.lesson = LessonContext(key: "lesson", progressPath: "/tmp/progress.json", progress: progress)
        var state = AppState(startup, width: width, height: height)
        state.proxyEnvironment = ProxyEnvironment()
        state.refreshPreview()
        _ = state.refreshLessonGoals()
        return state
    }

    @Test("a lesson opens at its first step with the Notes showing, and the next step stays locked until its goals pass")
    func theNextStepIsLockedUntilTheGoalsPass() throws {
        var state = try Self.lessonState()
        #expect(state.previewView == .notes)
        #expect(state.lesson?.step == 0)
        #expect(state.lesson?.goals.map(\.passed) == [false])
        Fixtures.press([.key(.alt("n"))], into: &state)
        #expect(state.lesson?.step == 0)
        #expect(state.status?.text.contains("unlocks when every goal of step 1 passes") == true, "\(String(describing: state.status))")

        // The URL field has the focus: the learner removes the leading slash.
        let effects = Fixtures.press([.key(KeyEvent(.home)), .key(KeyEvent(.delete))], into: &state)
        #expect(state.lesson?.goals.map(\.passed) == [true])
        #expect(state.lesson?.passed == [0])
        guard case let .saveLessonProgress(entry, key, path)? = effects.last else {
            Issue.record("no progress saved: \(effects)")
            return
        }
        #expect(path == "/tmp/progress.json")
        #expect(key == "lesson")
        #expect(entry == LessonProgress.Entry(passedSteps: [0], stepCount: 2))
        #expect(state.status?.text.contains("step 2 is unlocked") == true)

        Fixtures.press([.key(.alt("n"))], into: &state)
        #expect(state.lesson?.step == 1)
        #expect(state.workspace.selected == 1)
        #expect(state.lesson?.goals.first?.isPending == true)
    }

    @Test("a response goal is judged on a send of the step's request, and the last step passing completes the lesson")
    func aResponseGoalIsJudgedOnSend() throws {
        var progress = LessonProgress()
        progress.lessons["lesson"] = .init(passedSteps: [0], stepCount: 2)
        var state = try Self.lessonState(progress: progress)
        // Progress opens the first step not passed.
        #expect(state.lesson?.step == 1)
        Fixtures.send(&state, body: #"{"url": "http://127.0.0.1:8080/anything/v1/other"}"#)
        #expect(state.lesson?.goals.map(\.passed) == [false])
        #expect(state.lesson?.goals.first?.failures.first?.hasPrefix("body $.url") == true)
        #expect(state.lesson?.isComplete == false)
        Fixtures.send(&state, body: #"{"url": "http://127.0.0.1:8080/anything/v1/users"}"#)
        #expect(state.lesson?.goals.map(\.passed) == [true])
        #expect(state.lesson?.isComplete == true)
        #expect(state.status?.text.contains("the lesson") == true)
    }

    @Test("the notes give the instructions before the goals, and a passed step or lesson stays said, pointing to what comes next")
    func passingStaysOnScreen() throws {
        var state = try Self.lessonState()
        state.lesson?.context.nextLesson = "tincan learn 2 (Where parameters go)"
        Fixtures.press([.key(KeyEvent(.home)), .key(KeyEvent(.delete))], into: &state)
        let passed = try #require(state.lesson)
        let tokens = NotesPane.lines(passed, width: 60)
        var lines = tokens.map { $0.map(\.text).joined() }
        let instructions = try #require(lines.firstIndex { $0.contains("starts again at the host") })
        let goals = try #require(NotesPane.goalsLine(in: tokens))
        #expect(instructions < goals)
        #expect(lines[goals] == "Goals (1 of 1 reached)")
        #expect(lines.contains("✓ Step passed: alt+n goes to step 2."), "\(lines)")

        Fixtures.press([.key(.alt("n"))], into: &state)
        Fixtures.send(&state, body: #"{"url": "http://127.0.0.1:8080/anything/v1/users"}"#)
        // Typing on does not take the news away: it is in the notes until the learner moves on.
        Fixtures.press([.key(.alt("t"))], into: &state)
        let done = try #require(state.lesson)
        lines = NotesPane.lines(done, width: 80).map { $0.map(\.text).joined() }
        #expect(lines.contains("✓ Lesson done: every step passes. Next: tincan learn 2 (Where parameters go)."), "\(lines)")
    }

    @Test("a lesson opened at a later step first sends the earlier steps again, on the first tick, and says so")
    func earlierStepsAreSentAgain() throws {
        var progress = LessonProgress()
        progress.lessons["lesson"] = .init(passedSteps: [0], stepCount: 2)
        var state = try Self.lessonState(progress: progress)
        #expect(state.needsTick)
        let effects = state.update(.tick(at: 0.5))
        guard case let .send(id, request, plan)? = effects.first else {
            Issue.record("the rebuild sent nothing: \(effects)")
            return
        }
        #expect(request.url.string == Self.server + "/users", "step 1's request as the file has it")
        #expect(state.lesson?.step == 0)
        #expect(state.status?.text.hasPrefix("Rebuilding: step 1 of step 1 sent again") == true, "\(String(describing: state.status))")
        _ = state.update(.task(exchange: id, .completed(Fixtures.result(for: request, status: 200, contentType: "application/json", body: "{}", serializer: plan.options.responseSerializer)), at: 0.6))
        #expect(state.lesson?.step == 1)
        #expect(state.lesson?.rebuild == nil)
        #expect(!state.needsTick)
        #expect(state.status?.text.hasPrefix("Step 1 sent again, so what they left (captures, cookies, cache) is back") == true, "\(String(describing: state.status))")
    }

    @Test("alt+R puts the step's request back as shipped and empties the stores; alt+E starts the lesson afresh and saves that")
    func resetsPutTheLessonBack() throws {
        var state = try Self.lessonState()
        state.lesson?.context.shipped = try Session.parse(tuiLesson, path: "/tmp/lesson.tincan.yaml")
        Fixtures.press([.key(KeyEvent(.home)), .key(KeyEvent(.delete))], into: &state)
        #expect(state.lesson?.passed == [0])
        state.commitPanes()
        #expect(state.workspace.session.requests[0].url == "users")
        let step = state.update(.input(.key(.alt("R"))))
        guard case .clearStores? = step.first else {
            Issue.record("the stores are not emptied: \(step)")
            return
        }
        #expect(state.workspace.session.requests[0].url == "/users")
        #expect(state.urlField.text == "/users")
        #expect(state.lesson?.passed == [0], "a reset step keeps what was passed")

        workspaceCapture(&state)
        let lesson = state.update(.input(.key(.alt("E"))))
        guard case .clearStores? = lesson.first else {
            Issue.record("the stores are not emptied: \(lesson)")
            return
        }
        #expect(state.workspace.captured.isEmpty)
        #expect(state.lesson?.passed == [])
        guard case let .saveLessonProgress(entry, _, _)? = lesson.last else {
            Issue.record("the reset is not saved: \(lesson)")
            return
        }
        #expect(entry.passedSteps.isEmpty)
    }

    private func workspaceCapture(_ state: inout AppState) {
        state.workspace.captured["etag"] = .string("\"v1\"")
    }

    @Test("at 80x24 the preview box says when the goals are below its fold, and the keys it names bring them into sight")
    func goalsBelowTheFoldAreCued() throws {
        var state = try Self.lessonState(width: 80, height: 24)
        state.lesson?.lesson.steps[0].text = Array(repeating: "A line of instructions long enough to take a row.", count: 30).joined(separator: "\n\n")
        var screen = Renderer.render(&state).lines.joined(separator: "\n")
        #expect(screen.contains("goals below: ctrl+o n, pgdn"), "\(screen)")
        #expect(!screen.contains(NotesPane.goalsHeading + " ("), "\(screen)")

        // ctrl+o n focuses the notes; page down scrolls them until the goals show.
        Fixtures.press([.key(.ctrl("o")), .key(.char("n"))], into: &state)
        #expect(state.focus == .preview)
        for _ in 0..<20 where !screen.contains(NotesPane.goalsHeading + " (") {
            Fixtures.press([.key(KeyEvent(.pageDown))], into: &state)
            screen = Renderer.render(&state).lines.joined(separator: "\n")
        }
        #expect(screen.contains(NotesPane.goalsHeading + " ("), "\(screen)")
        #expect(!screen.contains("goals below"), "\(screen)")
    }

    @Test("hints come one at a time, and alt+l switches between the Notes and the wire preview")
    func hintsComeOnDemand() throws {
        var state = try Self.lessonState()
        let before = NotesPane.lines(try #require(state.lesson), width: 60).map { $0.map(\.text).joined() }
        #expect(!before.contains { $0.contains("Hint 1") })
        Fixtures.press([.key(.alt("t"))], into: &state)
        let after = NotesPane.lines(try #require(state.lesson), width: 60).map { $0.map(\.text).joined() }
        #expect(after.contains("Hint 1: Remove the leading slash."))
        Fixtures.press([.key(.alt("t"))], into: &state)
        #expect(state.status?.text == "Every hint of this step is shown.")
        Fixtures.press([.key(.alt("l"))], into: &state)
        #expect(state.previewView == .wire)
        Fixtures.press([.key(.alt("l"))], into: &state)
        #expect(state.previewView == .notes)
    }

    @Test("without a lesson the Notes view is not offered and the lesson keys say so")
    func withoutALessonThereAreNoNotes() {
        var state = Fixtures.welcome()
        #expect(!state.previewViews.contains(.notes))
        Fixtures.press([.key(.alt("n"))], into: &state)
        #expect(state.status?.text.hasPrefix("No lesson is open") == true)
    }

    @Test("a step keeps its request when requests are added, renamed or removed around it, and the request a step starts from stays")
    func stepsFollowTheirRequests() throws {
        var state = try Self.lessonState()
        // A request added after the first moves the second step's request down one.
        state.addRequest(SavedRequest(name: "extra", url: "extra"))
        #expect(state.workspace.session.lesson?.steps.map(\.requestIndex) == [0, 2])
        #expect(state.lesson?.lesson.steps.map(\.requestIndex) == [0, 2])
        // It can go again; a step's own request cannot.
        state.workspace.list.select(1, count: 3)
        state.removeRequest()
        #expect(state.workspace.session.requests.map(\.name) == ["relative", "sent"])
        #expect(state.workspace.session.lesson?.steps.map(\.requestIndex) == [0, 1])
        state.workspace.list.select(0, count: 2)
        state.removeRequest()
        #expect(state.workspace.session.requests.count == 2)
        #expect(state.status?.text.hasPrefix("Step 1 of the lesson starts from this request") == true)
        // A step that names its request follows the new name, and the file still reads.
        var named = state.workspace.session.lesson!
        named.steps[0].requestName = "relative"
        state.workspace.session.lesson = named
        state.renameRequest("renamed")
        #expect(state.workspace.session.lesson?.steps[0].requestName == "renamed")
        let text = state.editedSession.yamlText()
        #expect(try Session.parse(text, path: "l.tincan.yaml").lesson?.steps[0].requestIndex == 0)
        state.renameRequest("")
        #expect(state.workspace.session.requests[0].name == "renamed")
    }

    @Test("on a wide screen the notes have a column, and alt+l pages through it and back to the top")
    func theNotesColumnPages() throws {
        var state = try Self.lessonState(width: 120, height: 16)
        #expect(state.showsNotesColumn)
        #expect(!state.previewViews.contains(.notes))
        Fixtures.press([.key(.alt("l"))], into: &state)
        let first = try #require(state.lesson?.notesScroll.offset)
        #expect(first > 0, "\(String(describing: state.status))")
        for _ in 0..<10 { Fixtures.press([.key(.alt("l"))], into: &state) }
        Fixtures.press([.key(.alt("l"))], into: &state)
        #expect(state.status?.text.hasPrefix("Notes: lines") == true)
    }

    @Test("the Notes pane at 80x24 and 120x40")
    func notesSnapshots() throws {
        for (width, height) in [(80, 24), (120, 40)] {
            var state = try Self.lessonState(width: width, height: height)
            Fixtures.press([.key(.alt("t"))], into: &state)
            let buffer = Renderer.render(&state)
            if let problem = Snapshot.verify(buffer, named: "lesson-notes-\(width)x\(height)") { Issue.record(Comment(rawValue: problem)) }
        }
    }
}

@Suite("The Notes' Markdown")
struct NotesMarkdownTests {
    func text(_ markdown: String, width: Int = 40) -> [String] {
        NotesPane.text(markdown, width: width).map { $0.map(\.text).joined() }
    }

    @Test("paragraphs join their lines, list items keep their indented continuation, and code and bold are spans")
    func markdownSubset() {
        #expect(text("One\ntwo.\n\n- an item\n  that goes on\n- `b`\nafter") == ["One two.", "", "• an item that goes on", "• b", "after"])
        let spans = NotesPane.inline("a `code` and **bold**", .base)
        #expect(spans.map(\.text) == ["a ", "code", " and ", "bold"])
        #expect(spans.map(\.element) == [.base, .headerValue, .base, .title])
    }
}
