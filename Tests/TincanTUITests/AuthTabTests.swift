import TerminalUI
import TestSupport
import Testing
import TincanCore
import TincanSessions
@testable import TincanTUI

/// The Auth tab never drops credentials without saying so, and secrets are dots in every view
/// until `v` (issue 34 §5).
@Suite("The Auth tab and secrets on screen")
struct AuthTabTests {
    private static let enter = InputEvent.key(KeyEvent(.enter))

    /// Picks `option` in the open picker by moving to it.
    private static func pick(_ option: String, _ state: inout AppState) {
        guard case .picker(let picker)? = state.modal, let index = picker.options.firstIndex(of: option) else {
            Issue.record("no picker offering \(option): \(String(describing: state.modal))")
            return
        }
        Fixtures.press([.key(KeyEvent(.home))] + Array(repeating: .key(KeyEvent(.down)), count: index) + [enter], into: &state)
    }

    /// Types into the field being edited, replacing it, and presses enter.
    private static func type(_ text: String, _ state: inout AppState) {
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing(text) + [enter], into: &state)
    }

    /// The welcome request with Basic credentials typed in the Auth tab.
    private static func withBasic(user: String = "ada", password: String = "hunter2") -> AppState {
        var state = Fixtures.welcome(width: 120, height: 40)
        state.switchRequestTab(to: .auth)
        Fixtures.press([enter], into: &state)
        pick("basic", &state)
        type(user, &state)
        type(password, &state)
        return state
    }

    @Test("switching types keeps each type's fields: none and back, bearer and back, digest keeps the credentials")
    func switchingTypesKeepsWhatEachTypeHeld() {
        var state = Self.withBasic()
        #expect(state.auth == SavedAuth(scheme: .basic, user: "ada", password: "hunter2"))
        Fixtures.press([.key(KeyEvent(.home)), Self.enter], into: &state)
        Self.pick("none", &state)
        #expect(state.auth == nil)
        #expect(state.status?.text.contains("kept") == true)
        Fixtures.press([.key(KeyEvent(.home)), Self.enter], into: &state)
        Self.pick("basic", &state)
        #expect(state.auth == SavedAuth(scheme: .basic, user: "ada", password: "hunter2"), "picking Basic again brings them back")
        #expect(state.inlineEdit == nil, "nothing is asked again")
        Fixtures.press([.key(KeyEvent(.home)), Self.enter], into: &state)
        Self.pick("bearer", &state)
        #expect(state.inlineEdit?.target == .auth(.token))
        #expect(state.authRows.contains(.token))
        Self.type("t0k3n", &state)
        #expect(state.bearerToken == "t0k3n")
        Fixtures.press([.key(KeyEvent(.home)), Self.enter], into: &state)
        Self.pick("digest", &state)
        #expect(state.auth == SavedAuth(scheme: .digest, user: "ada", password: "hunter2"))
        #expect(state.bearerToken == nil)
        Fixtures.press([.key(KeyEvent(.home)), Self.enter], into: &state)
        Self.pick("bearer", &state)
        #expect(state.bearerToken == "t0k3n")
    }

    @Test("oauth2 asks for the token URL and the client id, picks the grant and its own endpoint, and hides the client secret until v")
    func oauth2FieldsAreEditedInTheTab() {
        var state = Fixtures.welcome(width: 120, height: 40)
        state.switchRequestTab(to: .auth)
        Fixtures.press([Self.enter], into: &state)
        Self.pick("oauth2", &state)
        #expect(state.inlineEdit?.target == .auth(.tokenURL))
        Self.type("http://127.0.0.1:8080/oauth/token", &state)
        #expect(state.inlineEdit?.target == .auth(.clientID), "enter goes on to the client id")
        Self.type("tincan-demo", &state)
        #expect(state.auth?.oauth2 == SavedOAuth2(grant: .clientCredentials, tokenURL: "http://127.0.0.1:8080/oauth/token", clientID: "tincan-demo"))
        state.authList.select(state.authRows.firstIndex(of: .clientSecret)!, count: state.authRows.count)
        Fixtures.press([Self.enter], into: &state)
        Self.type("demo-secret", &state)
        #expect(state.auth?.oauth2?.clientSecret == "demo-secret")
        #expect(state.authValue(.clientSecret) == "••••••••")
        state.authList.select(state.authRows.firstIndex(of: .grant)!, count: state.authRows.count)
        Fixtures.press([Self.enter], into: &state)
        Self.pick("device-code", &state)
        #expect(state.inlineEdit?.target == .auth(.deviceURL), "a grant without its endpoint asks for it")
        Self.type("http://127.0.0.1:8080/oauth/device/code", &state)
        #expect(state.authRows == [.scheme, .grant, .tokenURL, .deviceURL, .clientID, .clientSecret, .clientAuth, .scope, .audience, .clientCertificate, .clientKey])
        state.authList.select(state.authRows.firstIndex(of: .clientAuth)!, count: state.authRows.count)
        Fixtures.press([Self.enter], into: &state)
        Self.pick("body", &state)
        #expect(state.auth?.oauth2?.clientAuth == .body)
        let screen = Snapshot.text(Renderer.render(&state))
        // Labels are as wide as the longest shown, so the longest keeps a space before its value.
        #expect(screen.contains(" grant" + String(repeating: " ", count: 9) + "device-code"), "\(screen)")
        #expect(screen.contains(" client secret ••••••••"), "\(screen)")
        #expect(!screen.contains("demo-secret"))
        #expect(state.editedSession.requests[0].auth?.scheme == .oauth2, "the panes' grant is the request's auth:")
        // Switching away and back keeps the grant.
        Fixtures.press([.key(KeyEvent(.home)), Self.enter], into: &state)
        Self.pick("basic", &state)
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        Fixtures.press([.key(KeyEvent(.home)), Self.enter], into: &state)
        Self.pick("oauth2", &state)
        #expect(state.auth?.oauth2?.deviceURL == "http://127.0.0.1:8080/oauth/device/code")
    }

    @Test("enter on the type row offers the type in use, and enter there changes nothing")
    func theTypePickerStartsAtTheTypeInUse() {
        var state = Self.withBasic()
        Fixtures.press([.key(KeyEvent(.home)), Self.enter], into: &state)
        guard case .picker(let picker)? = state.modal else {
            Issue.record("no type picker")
            return
        }
        #expect(picker.title == "Authentication type")
        #expect(picker.options[picker.list.selected] == "basic")
        Fixtures.press([Self.enter], into: &state)
        #expect(state.auth == SavedAuth(scheme: .basic, user: "ada", password: "hunter2"))
    }

    @Test("each field is its own row, edited in place; esc leaves it as it was")
    func fieldsAreEditedInPlace() {
        var state = Self.withBasic()
        let password = state.authRows.firstIndex(of: .password)!
        state.authList.select(password, count: state.authRows.count)
        Fixtures.press([Self.enter], into: &state)
        #expect(state.modal == nil)
        #expect(state.inlineEdit?.target == .auth(.password))
        Fixtures.press(Fixtures.typing("more"), into: &state)
        let screen = Snapshot.text(Renderer.render(&state))
        #expect(screen.contains(" password    •••••••••••"), "the password is typed as dots in its row: \(screen)")
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        #expect(state.auth?.password == "hunter2")
        #expect(state.inlineEdit == nil)
    }

    @Test("secrets are dots in the preview, Explain, the response's echo and the curl dialog until v; v shows them everywhere")
    func secretsAreHiddenInEveryViewUntilV() {
        var state = Self.withBasic()
        let header = "Basic YWRhOmh1bnRlcjI="
        state.setFocus(.preview)
        var screen = Snapshot.text(Renderer.render(&state))
        #expect(screen.contains("Authorization: Basic ••••••"), "\(screen)")
        #expect(!screen.contains(header))
        #expect(SessionWorkspaceTests.previewText(state).contains(header), "the preview's text stays the request as sent")
        Fixtures.press([.key(KeyEvent(.function(9)))], into: &state)
        screen = Snapshot.text(Renderer.render(&state))
        #expect(!screen.contains(header), "Explain: \(screen)")
        // The demo server echoes the header in its body: hidden there too.
        Fixtures.send(&state, body: #"{"headers": {"Authorization": "\#(header)"}}"#)
        state.setFocus(.response)
        screen = Snapshot.text(Renderer.render(&state))
        #expect(screen.contains(#""Authorization": "Basic ••••••""#), "\(screen)")
        #expect(!screen.contains(header))
        // Copy as curl: the clipboard gets the command as it runs, the dialog shows dots.
        let effects = state.update(.input(.key(.alt("c"))))
        guard case .copyToClipboard(let command)? = effects.first else {
            Issue.record("no clipboard effect: \(effects)")
            return
        }
        #expect(command.contains("hunter2") || command.contains(header))
        screen = Snapshot.text(Renderer.render(&state))
        #expect(!screen.contains("hunter2") && !screen.contains(header), "\(screen)")
        state.closeModal()
        // v, from the response box: every view shows them.
        Fixtures.press([.key(.char("v"))], into: &state)
        screen = Snapshot.text(Renderer.render(&state))
        #expect(screen.contains(header), "\(screen)")
        #expect(state.authValue(.password) == "hunter2")
    }

    @Test("a response's Set-Cookie is dots in the Headers view until v")
    func setCookieIsHiddenInTheHeadersView() {
        var state = Fixtures.welcome(width: 120, height: 40)
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, _)? = effects.first else { return }
        let response = HTTPResponse(url: request.url, statusCode: 200, headers: HTTPHeaders([("Set-Cookie", "session=abc123secret; Path=/"), ("Content-Length", "0")]))
        _ = state.update(.task(exchange: id, .completed(TaskResult(request: request, response: response, data: [], serialization: nil,
                                                                          metrics: TaskMetrics(connect: nil, firstByte: nil, total: .milliseconds(1), requestCount: 1))), at: 0.01))
        state.showResponseView(.headers)
        var screen = Snapshot.text(Renderer.render(&state))
        #expect(screen.contains("Set-Cookie: ••••••") && !screen.contains("abc123secret"), "\(screen)")
        state.setFocus(.response)
        Fixtures.press([.key(.char("v"))], into: &state)
        screen = Snapshot.text(Renderer.render(&state))
        #expect(screen.contains("abc123secret"))
    }
}
