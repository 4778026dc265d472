import Foundation
import OrderedCollections
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanSessions
@testable import TincanTUI

/// The TUI on a session file: the collection, saving, environments, captures, history and
/// copy as curl, driven through `update` as the keys would.
@Suite("Sessions in the TUI")
struct SessionWorkspaceTests {
    /// A session with two environments and three requests, one with captures and assertions.
    static func sampleSession() -> Session {
        var session = Session(name: "Sample", base: "{{server}}/v1/")
        session.variables = ["server": .string("http://127.0.0.1:8080"), "user": .string("ada")]
        session.environments = ["staging": ["server": .string("http://127.0.0.1:9090")]]
        var login = SavedRequest(name: "Log in", method: "POST", url: "login")
        login.serializer = .json
        login.params = .dictionary(["user": .string("{{user}}"), "password": .string("hunter2")])
        login.captures = ["token": .body(try! BodyPath(parsing: "$.token"))]
        login.assertions = [.status("200")]
        var profile = SavedRequest(name: "Profile", url: "users/{{user}}")
        profile.headers = [HeaderSetting(name: "Authorization", value: "Bearer {{token}}"), HeaderSetting(name: "X-Trace", value: nil)]
        let health = SavedRequest(url: "health")
        session.requests = [login, profile, health]
        return session
    }

    /// The sample session written by Tincan into a temporary directory, and a state opened on it.
    static func opened(width: Int = 120, height: Int = 40) throws -> (AppState, String, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/sample.tincan.yaml"
        try SessionFile.save(sampleSession(), to: path)
        var state = AppState(width: width, height: height)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        return (state, path, directory)
    }

    static func previewText(_ state: AppState) -> String {
        switch state.preview {
        case .request(_, let text): text
        case .error(let reason): "error: " + reason
        case .reading(let paths, _): "reading: " + paths.joined(separator: ", ")
        }
    }

    @Test func openingASessionLoadsItsFirstRequestResolvedWithItsVariables() throws {
        let (state, _, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        #expect(state.method == "POST")
        #expect(state.serializer == .json)
        #expect(state.baseField.text == "{{server}}/v1/")
        #expect(state.urlField.text == "login")
        let preview = Self.previewText(state)
        #expect(preview.hasPrefix("POST /v1/login HTTP/1.1\nHost: 127.0.0.1:8080\n"))
        #expect(preview.contains(#""user":"ada""#))
        #expect(state.focusOrder.first == .collection)
        #expect(!state.isModified)
    }

    @Test func theCollectionLoadsAnotherRequestAndKeepsTheEditsOfTheFirst() throws {
        var (state, _, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        state.focus = .url
        Fixtures.press([.key(.ctrl("e"))] + Fixtures.typing("?v=2"), into: &state)
        state.focus = .collection
        Fixtures.press([.key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(KeyEvent(.enter))], into: &state)
        #expect(state.workspace.selected == 2)
        #expect(state.urlField.text == "health")
        #expect(state.method == "GET")
        #expect(state.workspace.session.requests[0].url == "login?v=2")
        // The rest of the first request is as it was: its captures, assertions and parameters.
        #expect(state.workspace.session.requests[0].captures == Self.sampleSession().requests[0].captures)
        #expect(state.workspace.session.requests[0].params == Self.sampleSession().requests[0].params)
        #expect(state.isModified)
    }

    @Test func aMissingVariableIsNamedInThePreviewWithItsRequest() throws {
        var (state, _, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        state.loadRequest(1)
        let preview = Self.previewText(state)
        #expect(preview.contains("request '#2 Profile'"))
        #expect(preview.contains("token"))
    }

    @Test func anUntouchedSessionSavesToTheSameBytes() throws {
        var (state, path, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        let before = try String(contentsOfFile: path, encoding: .utf8)
        state.loadRequest(1)
        state.loadRequest(2)
        Fixtures.press([.key(KeyEvent(.function(6)))], into: &state)
        #expect(state.status?.kind == .success)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
    }

    @Test func anEditIsSavedAtomicallyAndOnlyWhereItChanged() throws {
        var (state, path, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        let before = try String(contentsOfFile: path, encoding: .utf8)
        state.focus = .url
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing("session/new"), into: &state)
        #expect(state.isModified)
        Fixtures.press([.key(.alt("w"))], into: &state)
        let after = try String(contentsOfFile: path, encoding: .utf8)
        #expect(after == before.replacingOccurrences(of: "url: login", with: "url: session/new"))
        #expect(!state.isModified)
        #expect(try Session.load(path: path).requests[1] == Self.sampleSession().requests[1])
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent) == ["sample.tincan.yaml"])
    }

    @Test func aHeaderTurnedOffIsSavedOffAndNotSent() throws {
        var (state, path, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        state.focus = .collection
        state.workspace.captured["token"] = .string("abc")
        Fixtures.press([.key(KeyEvent(.down)), .key(KeyEvent(.enter))], into: &state)
        #expect(Self.previewText(state).contains("Authorization: Bearer abc"))
        state.focus = .headers
        state.headerList = ListState()
        Fixtures.press([.key(.char(" "))], into: &state)
        #expect(state.headers.first?.isEnabled == false)
        #expect(!Self.previewText(state).contains("Authorization"))
        Fixtures.press([.key(.alt("w"))], into: &state)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("      Authorization:\n        value: Bearer {{token}}\n        enabled: false\n      X-Trace: null\n"), "\(text)")
        // Opened again, the row is there, turned off.
        var reopened = AppState(width: 120, height: 40)
        reopened.open(Workspace(session: try Session.load(path: path), path: path))
        reopened.focus = .collection
        Fixtures.press([.key(KeyEvent(.down)), .key(KeyEvent(.enter))], into: &reopened)
        #expect(reopened.headers.map(\.isEnabled) == [false])
        #expect(!Self.previewText(reopened).contains("Authorization"))
        #expect(!reopened.isModified)
    }

    @Test func savingOverCommentsWarnsAndOffersSaveAs() throws {
        var (state, path, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        let commented = "# a teacher's note\n" + (try String(contentsOfFile: path, encoding: .utf8))
        try commented.write(toFile: path, atomically: true, encoding: .utf8)
        state.focus = .url
        Fixtures.press(Fixtures.typing("/x"), into: &state)
        Fixtures.press([.key(KeyEvent(.function(6)))], into: &state)
        guard case .picker(let picker)? = state.modal else {
            Issue.record("expected the comment warning, got \(String(describing: state.modal))")
            return
        }
        #expect(picker.purpose == .commentConflict(path: path))
        #expect(picker.title.contains("line 1"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == commented)
        // The first choice is save-as; the prompt suggests a new name beside the file.
        Fixtures.press([.key(KeyEvent(.enter))], into: &state)
        guard case .prompt(let prompt)? = state.modal else {
            Issue.record("expected the save-as prompt")
            return
        }
        #expect(prompt.purpose == .saveAs)
        #expect(prompt.dialog.field?.text == directory.path + "/sample-copy.tincan.yaml")
        Fixtures.press([.key(KeyEvent(.enter))], into: &state)
        #expect(state.modal == nil)
        #expect(state.workspace.path == directory.path + "/sample-copy.tincan.yaml")
        #expect(try Session.load(path: directory.path + "/sample-copy.tincan.yaml").requests[0].url == "login/x")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == commented)
    }

    @Test func droppingCommentsTakesAnExplicitChoice() throws {
        var (state, path, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        try ("# note\n" + (try String(contentsOfFile: path, encoding: .utf8))).write(toFile: path, atomically: true, encoding: .utf8)
        Fixtures.press([.key(KeyEvent(.function(6))), .key(KeyEvent(.down)), .key(KeyEvent(.enter))], into: &state)
        #expect(state.status?.kind == .success)
        #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("# note"))
    }

    @Test func aFileThatNoLongerParsesIsNeverOverwritten() throws {
        var (state, path, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        let broken = "name: [unclosed\n"
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        state.focus = .url
        Fixtures.press(Fixtures.typing("/x"), into: &state)
        Fixtures.press([.key(KeyEvent(.function(6)))], into: &state)
        #expect(state.status?.kind == .error)
        #expect(state.status?.text.contains("does not parse") == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == broken)
        #expect(state.isModified)
    }

    @Test func aNewSessionAsksForAFileNameAndDoesNotOverwriteAnotherFile() throws {
        let directory = try TemporaryDirectory()
        let existing = try directory.write("taken.tincan.yaml", Array("name: taken\n".utf8))
        var state = Fixtures.welcome()
        Fixtures.press([.key(KeyEvent(.function(6)))], into: &state)
        guard case .prompt(var prompt)? = state.modal else {
            Issue.record("expected the save-as prompt")
            return
        }
        #expect(prompt.dialog.field?.text == "welcome.tincan.yaml")
        prompt.dialog.field = TextField(directory.path + "/taken")
        state.mode = .modal(.prompt(prompt))
        Fixtures.press([.key(KeyEvent(.enter))], into: &state)
        guard case .picker(let picker)? = state.modal else {
            Issue.record("expected the overwrite question")
            return
        }
        #expect(picker.purpose == .confirmOverwrite(path: existing))
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "name: taken\n")
        #expect(state.workspace.path == nil)
    }

    @Test func switchingTheEnvironmentChangesThePreview() throws {
        var (state, _, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        Fixtures.press([.key(.alt("e"))], into: &state)
        guard case .picker(let picker)? = state.modal else {
            Issue.record("expected the environment picker")
            return
        }
        #expect(picker.options == [AppState.noEnvironment, "staging"])
        Fixtures.press([.key(KeyEvent(.down)), .key(KeyEvent(.enter))], into: &state)
        #expect(state.workspace.environment == "staging")
        #expect(Self.previewText(state).contains("Host: 127.0.0.1:9090\n"))
        var buffer = Renderer.render(&state)
        #expect(buffer.lines[0].contains("env staging"))
        Fixtures.press([.key(.alt("e")), .key(KeyEvent(.up)), .key(KeyEvent(.enter))], into: &state)
        #expect(state.workspace.environment == nil)
        buffer = Renderer.render(&state)
        #expect(!buffer.lines[0].contains("env staging"))
    }

    @Test func aSendChecksAssertionsAndItsCapturesFeedTheNextRequest() throws {
        var (state, _, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        Fixtures.send(&state, body: #"{"token": "s3cr3t"}"#)
        #expect(state.exchange?.checks.map(\.name) == ["status 200"])
        #expect(state.exchange?.checks.allSatisfy(\.passed) == true)
        #expect(state.status?.text.contains("1 check passed · captured token") == true)
        state.loadRequest(1)
        #expect(Self.previewText(state).contains("Authorization: Bearer s3cr3t\n"))
        // A removal of a session default has no row, and survives an edit of the headers in its place.
        #expect(state.headers.map(\.name) == ["Authorization"])
        state.headers.append(HeaderRow(name: "Accept", value: "text/plain"))
        state.commitPanes()
        #expect(state.workspace.session.requests[1].headers.map(\.name) == ["Authorization", "X-Trace", "Accept"])
    }

    @Test func aFailedAssertionIsNamedInTheStatusLine() throws {
        var (state, _, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        Fixtures.send(&state, status: 201, body: #"{"token": "x"}"#)
        #expect(state.status?.kind == .error)
        #expect(state.status?.text.contains("status 200: is 201, expected 200") == true)
    }

    @Test func theCollectionAddsRenamesAndRemovesRequests() throws {
        var (state, _, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        state.focus = .collection
        Fixtures.press([.key(.char("a"))], into: &state)
        #expect(state.workspace.session.requests.count == 4)
        #expect(state.workspace.selected == 1)
        #expect(state.focus == .url)
        state.focus = .collection
        Fixtures.press([.key(.char("r"))] + Fixtures.typing("Scratch") + [.key(KeyEvent(.enter))], into: &state)
        #expect(state.workspace.session.requests[1].name == "Scratch")
        Fixtures.press([.key(.char("d"))], into: &state)
        #expect(state.workspace.session.requests.map(\.displayName) == ["Log in", "Profile", "GET health"])
        #expect(state.urlField.text == "users/{{user}}")
    }

    @Test func quittingWithUnsavedChangesAsksAndCtrlCAgainQuits() throws {
        var (state, _, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        #expect(Fixtures.press([.key(KeyEvent(.function(10)))], into: &state).contains { if case .quit = $0 { true } else { false } })
        state.shouldQuit = false
        state.focus = .url
        Fixtures.press(Fixtures.typing("x"), into: &state)
        let first = Fixtures.press([.key(.ctrl("c"))], into: &state)
        #expect(first.isEmpty)
        #expect(!state.shouldQuit)
        guard case .picker(let picker)? = state.modal else {
            Issue.record("expected the unsaved-changes question")
            return
        }
        #expect(picker.purpose == .unsaved(.quit))
        let second = Fixtures.press([.key(.ctrl("c"))], into: &state)
        #expect(state.shouldQuit)
        #expect(second.contains { if case .quit = $0 { true } else { false } })
    }

    @Test func opensAnotherSessionAndReportsAFileThatDoesNotParse() throws {
        var (state, _, directory) = try Self.opened()
        let bad = try directory.write("bad.tincan.yaml", Array("requests:\n  - url: x\n    colour: red\n".utf8))
        Fixtures.press([.key(.alt("o")), .key(.ctrl("u"))] + Fixtures.typing(bad) + [.key(KeyEvent(.enter))], into: &state)
        guard case .prompt(let prompt)? = state.modal else {
            Issue.record("expected the open prompt to stay with the error")
            return
        }
        #expect(prompt.error?.contains("bad.tincan.yaml:3") == true)
        #expect(prompt.error?.contains("colour") == true)
        var other = Session(name: "Other")
        other.requests = [SavedRequest(method: "DELETE", url: "http://127.0.0.1:8080/items/1")]
        let good = directory.path + "/other.tincan.yaml"
        try SessionFile.save(other, to: good)
        state.mode = .panes
        Fixtures.press([.key(.alt("o")), .key(.ctrl("u"))] + Fixtures.typing(good) + [.key(KeyEvent(.enter))], into: &state)
        #expect(state.modal == nil)
        #expect(state.sessionName == "Other")
        #expect(state.method == "DELETE")
    }

    @Test func aPastedCurlCommandReplacesTheRequestButNotTheSessionsBase() throws {
        var (state, _, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        state.focus = .url
        Fixtures.press([.paste("curl -X PUT http://127.0.0.1:7/things/1 -H 'X-A: 1'")], into: &state)
        #expect(state.method == "PUT")
        #expect(state.baseField.text == "{{server}}/v1/")
        #expect(Self.previewText(state).hasPrefix("PUT /things/1 HTTP/1.1\nHost: 127.0.0.1:7\n"))
        state.loadRequest(2)
        #expect(Self.previewText(state).hasPrefix("GET /v1/health HTTP/1.1\nHost: 127.0.0.1:8080\n"))
        #expect(state.workspace.session.requests[0].method == "PUT")
        #expect(state.workspace.session.base == "{{server}}/v1/")
    }

    @Test func copyAsCurlGivesTheResolvedRequestBack() throws {
        var (state, _, directory) = try Self.opened()
        defer { withExtendedLifetime(directory) {} }
        let effects = Fixtures.press([.key(.alt("c"))], into: &state)
        guard case .copyToClipboard(let command)? = effects.first else {
            Issue.record("expected a clipboard effect, got \(effects)")
            return
        }
        let parsed = try CurlCommand.parse(command).request
        #expect(parsed.method == "POST")
        #expect(parsed.url == "http://127.0.0.1:8080/v1/login")
        #expect(parsed.body == .text(#"{"user":"ada","password":"hunter2"}"#))
        guard case .message(let dialog)? = state.modal else {
            Issue.record("expected the command in a dialog")
            return
        }
        #expect(dialog.lines.first.map { $0.map(\.text).joined() }?.hasPrefix("curl") == true)
    }

    @Test func aSendIsAddedToTheHistoryAndReopensAsANewRequest() throws {
        var state = Fixtures.welcome()
        let effects = sendCollectingEffects(&state)
        guard case .recordHistory(let entry)? = effects.last else {
            Issue.record("expected a history effect, got \(effects)")
            return
        }
        #expect(entry.request.url == "get")
        // The base as written: the demo server's address is {{$demo}}, which works the next run too.
        #expect(entry.base == "{{$demo}}/")
        #expect(entry.status == 200)
        #expect(entry.sentURL.hasPrefix("http://127.0.0.1:8080/get?greeting=hello"))
        #expect(state.history == [entry])
        state.focus = .url
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing("elsewhere"), into: &state)
        Fixtures.press([.key(.alt("h")), .key(KeyEvent(.enter))], into: &state)
        #expect(state.workspace.session.requests.count == 2)
        #expect(state.workspace.selected == 1)
        #expect(state.urlField.text == "get")
        #expect(state.workspace.session.requests[0].url == "elsewhere")
        #expect(state.workspace.showsCollection)
    }

    @Test("the history never keeps a value read from the environment, directly or through a variable, and reopening sends it again")
    func historyHidesEnvironmentValues() throws {
        let home = try #require(ProcessEnvironment.values["HOME"])
        try #require(home.count >= Session.shortestHiddenValue)
        var state = Fixtures.welcome()
        state.workspace.session.variables["place"] = .string("{{$env.HOME}}")
        state.focus = .url
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing("get?where={{$env.HOME}}&also={{place}}"), into: &state)
        _ = sendCollectingEffects(&state)
        let entry = try #require(state.history.last)
        #expect(!entry.sentURL.contains(home), "\(entry.sentURL)")
        #expect(entry.sentURL.contains("where=\(Redaction.mask)&also=\(Redaction.mask)"), "\(entry.sentURL)")
        #expect(!entry.jsonLine().contains(home))
        #expect(entry.request.url == "get?where={{$env.HOME}}&also={{place}}", "the request as written keeps its references")
    }

    @Test("a history entry reopens against the base it was sent with, even when the Base field was edited since")
    func reopeningKeepsTheRecordedBase() throws {
        var state = Fixtures.welcome()
        _ = sendCollectingEffects(&state)
        let entry = try #require(state.history.last)
        #expect(entry.base == "{{$demo}}/")
        #expect(entry.request.url == "get")
        // The Base field now names another server, not yet committed to the session.
        state.setFocus(.baseURL)
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing("http://other.example/api/"), into: &state)
        Fixtures.press([.key(.alt("h")), .key(KeyEvent(.enter))], into: &state)
        #expect(state.workspace.session.requests.count == 2)
        #expect(state.urlField.text == "{{$demo}}/get", "resolved against the recorded base, not the edited one")
        guard case .request(let request, _) = state.preview else {
            Issue.record("no preview: \(state.preview)")
            return
        }
        #expect(request.url.host == "127.0.0.1")
        // The edit to the Base field is kept, for the session's other requests.
        #expect(state.workspace.session.base == "http://other.example/api/")
    }

    @Test func historyIsOffWhenTheFileCannotBeWritten() {
        var state = Fixtures.welcome()
        _ = state.update(.historyFailed("/nowhere: permission denied"))
        #expect(!state.recordsHistory)
        let effects = sendCollectingEffects(&state)
        #expect(!effects.contains { if case .recordHistory = $0 { true } else { false } })
        #expect(state.history.count == 1)
    }

    private func sendCollectingEffects(_ state: inout AppState) -> [Effect] {
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, plan)? = effects.first else { return effects }
        return state.update(.task(exchange: id, .completed(Fixtures.result(for: request, status: 200, contentType: "application/json", body: "{}", serializer: plan.options.responseSerializer)), at: 0.01))
    }
}

@Suite("History file")
struct HistoryFileTests {
    static func entry(_ url: String = "login?api_key=k1") -> HistoryEntry {
        var request = SavedRequest(name: "Log in", method: "POST", url: url)
        request.serializer = .json
        request.headers = [HeaderSetting(name: "Authorization", value: "Bearer abc"), HeaderSetting(name: "Accept", value: "application/json")]
        request.params = .dictionary(["user": .string("ada"), "password": .string("hunter2"), "nested": .dictionary(["token": .string("t")])])
        return HistoryEntry(time: Date(timeIntervalSince1970: 1_790_000_000.25), session: "Sample", base: "http://u:pw@127.0.0.1:8080/", request: request,
                            sentURL: "http://u:pw@127.0.0.1:8080/login?api_key=k1", status: 200, duration: 0.0123)
    }

    @Test func entriesAreWrittenRedactedAndReadBack() throws {
        let directory = try TemporaryDirectory()
        let store = HistoryStore(path: directory.path + "/data/tincan/history.jsonl")
        try store.append(Self.entry())
        try store.append(Self.entry("second"))
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(!text.contains("hunter2"))
        #expect(!text.contains("Bearer abc"))
        #expect(!text.contains("k1"))
        #expect(!text.contains(":pw@"))
        #expect(text.contains("Bearer ••••••"))
        let loaded = store.load()
        #expect(loaded.problems.isEmpty)
        #expect(loaded.entries == [Self.entry().redacted(), Self.entry("second").redacted()])
        #expect(loaded.entries[0].request.params == .dictionary(["user": .string("ada"), "password": .string("••••••"), "nested": .dictionary(["token": .string("••••••")])]))
        let mode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func secretsAreKeptWhenTheUserOptsIn() throws {
        let directory = try TemporaryDirectory()
        let store = HistoryStore(path: directory.path + "/history.jsonl", keepsSecrets: true)
        try store.append(Self.entry())
        #expect(store.load().entries == [Self.entry()])
    }

    @Test func aHeaderTurnedOffIsNotWrittenToHistory() throws {
        var entry = Self.entry()
        entry.request.headers.append(HeaderSetting(name: "X-Off", value: "1", isEnabled: false))
        #expect(!entry.redacted().jsonLine().contains("X-Off"))
        #expect(entry.redacted().jsonLine().contains("Accept"))
    }

    @Test func aBadLineIsReportedAndTheFileIsNeverRewritten() throws {
        let directory = try TemporaryDirectory()
        let store = HistoryStore(path: directory.path + "/history.jsonl", capacity: 1)
        try store.append(Self.entry())
        let path = store.path
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"method\": \"GET\"}\n".utf8))
        try handle.close()
        try store.append(Self.entry("third"))
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let loaded = store.load()
        #expect(loaded.entries.count == 2)
        #expect(loaded.problems == ["\(path):2: 'time' (seconds since 1970) is missing; the line was skipped"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
    }

    @Test func aFullFileKeepsTheNewestEntries() throws {
        let directory = try TemporaryDirectory()
        let store = HistoryStore(path: directory.path + "/history.jsonl", capacity: 2)
        for url in ["one", "two", "three"] { try store.append(Self.entry(url)) }
        #expect(store.load().entries.map(\.request.url) == ["two", "three"])
        #expect(try String(contentsOfFile: store.path, encoding: .utf8).split(separator: "\n").count == 2)
    }

    @Test func theDefaultPathFollowsXDG() {
        #expect(HistoryStore.defaultPath(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/a"]) == "/x/data/tincan/history.jsonl")
        #expect(HistoryStore.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"]) == "/home/a/.local/share/tincan/history.jsonl")
    }
}
