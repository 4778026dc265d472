import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanSessions
@testable import TincanTUI

/// The first state of a run, made from what `tincan [FILE]` read: the one entry point through
/// which the command wires the app.
@Suite("Startup")
struct StartupTests {
    private static let server = "http://127.0.0.1:8080"

    private static func session() -> Session {
        var session = Session(name: "Sample", base: "{{server}}/v1/")
        session.variables = ["server": .string("http://example.invalid")]
        session.requests = [SavedRequest(url: "login"), SavedRequest(url: "users"), SavedRequest(url: "health")]
        return session
    }

    @Test("with no file, the welcome request goes to the demo server, with the settings and histories in place")
    func welcomeWithSettingsAndHistories() {
        var settings = TUISettings(theme: BuiltinThemes.light)
        settings.historySecrets = true
        let entry = HistoryEntry(time: Date(timeIntervalSince1970: 0), request: SavedRequest(url: "get"), sentURL: Self.server + "/get", status: 200)
        let state = AppState(Startup(demoServerURL: Self.server, settings: settings, history: [entry], recordsHistory: true,
                                     commandHistory: ["get /anything"], boundary: "b-1"), width: 100, height: 30)
        #expect(state.workspace.session.name == "welcome")
        // The demo server's address as a variable, so a saved welcome works the next run (issue 34 §3).
        #expect(state.baseField.text == "{{$demo}}/")
        #expect(state.workspace.demo == DemoAddresses(plain: Self.server))
        #expect(state.urlField.text == "get")
        #expect(state.focus == .url)
        #expect(state.boundary == "b-1")
        #expect(state.width == 100)
        #expect(state.height == 30)
        #expect(state.theme.name == "light")
        #expect(state.history == [entry])
        #expect(state.recordsHistory)
        #expect(state.keepsSecretsInHistory)
        #expect(state.replHistory == ["get /anything"])
        #expect(state.mode == .panes)
        #expect(state.status?.text.hasPrefix("Welcome: a request to the demo server is ready.") == true)
        guard case .request(let request, _) = state.preview else {
            Issue.record("the welcome request does not build: \(state.preview)")
            return
        }
        #expect(request.url.string.hasPrefix(Self.server + "/get?"))
    }

    @Test("a session file opens with the collection focused, saying how many requests it has")
    func sessionFileOpensFocusedOnTheCollection() {
        let workspace = Workspace(session: Self.session(), path: "/tmp/sample.tincan.yaml")
        let state = AppState(Startup(demoServerURL: Self.server, settings: TUISettings(theme: BuiltinThemes.dark), workspace: workspace))
        #expect(state.workspace.path == "/tmp/sample.tincan.yaml")
        #expect(state.focus == .collection)
        #expect(state.status?.text == "/tmp/sample.tincan.yaml: 3 requests. enter loads one, ctrl+r sends, F6 saves.")
        #expect(state.urlField.text == "login")
        #expect(!state.recordsHistory, "no history unless the command says it is on")
    }

    @Test("a file that does not exist yet is a new session, created on the first save")
    func newSessionFile() {
        let workspace = Workspace(session: Session(), path: "/tmp/new.tincan.yaml")
        let state = AppState(Startup(demoServerURL: Self.server, settings: TUISettings(theme: BuiltinThemes.dark), workspace: workspace, fileExists: false))
        #expect(state.status?.text == "New session /tmp/new.tincan.yaml: created on the first save (F6).")
    }

    @Test("--demo points the variable server at the demo server, unless --var set it")
    func demoSetsServerUnlessOverridden() {
        let settings = TUISettings(theme: BuiltinThemes.dark)
        let demo = AppState(Startup(demoServerURL: Self.server, settings: settings, workspace: Workspace(session: Self.session(), path: "/tmp/s.tincan.yaml"), demo: true))
        #expect(demo.workspace.overrides["server"] == Self.server)
        #expect(demo.makeDraftURL() == Self.server + "/v1/login")

        var overridden = Workspace(session: Self.session(), path: "/tmp/s.tincan.yaml")
        overridden.overrides = ["server": "http://127.0.0.1:9999"]
        let kept = AppState(Startup(demoServerURL: Self.server, settings: settings, workspace: overridden, demo: true))
        #expect(kept.workspace.overrides["server"] == "http://127.0.0.1:9999")

        let plain = AppState(Startup(demoServerURL: Self.server, settings: settings, workspace: Workspace(session: Self.session(), path: "/tmp/s.tincan.yaml")))
        #expect(plain.workspace.overrides["server"] == nil)
        #expect(plain.makeDraftURL() == "http://example.invalid/v1/login")
    }

    @Test("settings that could not be used are named in a dialog over the first screen")
    func settingsProblemsAreShown() {
        var settings = TUISettings(theme: BuiltinThemes.dark)
        settings.problems = ["keymap.yaml:2:1: 'launch' is not an action"]
        let state = AppState(Startup(demoServerURL: Self.server, settings: settings))
        guard case .modal(.message(let dialog)) = state.mode else {
            Issue.record("expected the problems in a dialog, the mode is \(state.mode)")
            return
        }
        #expect(dialog.title == "Settings not used")
        #expect(dialog.lines.map { $0.map(\.text).joined() } == settings.problems)
    }
}

extension AppState {
    /// The URL the selected request resolves to, as the preview builds it.
    fileprivate func makeDraftURL() -> String? {
        (try? makeDraft().build(boundary: boundary))?.url.string
    }
}
