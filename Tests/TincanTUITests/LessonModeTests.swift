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
        guard case let .saveLessonProgress(progress, path)? = effects.last else {
            Issue.record("no progress saved: \(effects)")
            return
        }
        #expect(path == "/tmp/progress.json")
        #expect(progress.lessons["lesson"] == LessonProgress.Entry(passedSteps: [0], stepCount: 2))
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
