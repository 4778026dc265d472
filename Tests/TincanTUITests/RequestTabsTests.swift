import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanSessions
@testable import TincanTUI

/// The request side of the TUI: the Auth tab, the body kinds, the query fields, the default
/// headers and the parameter tree's key paths, driven through `update` as the keys would, and
/// saved to the session format's own words.
@Suite("Request tabs")
struct RequestTabsTests {
    private static let enter = InputEvent.key(KeyEvent(.enter))

    private static func preview(_ state: AppState) -> String {
        SessionWorkspaceTests.previewText(state)
    }

    /// Types into the open prompt's field (or the field edited in place), replacing what it
    /// holds, and presses enter.
    private static func answer(_ text: String, _ state: inout AppState) {
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing(text) + [enter], into: &state)
    }

    /// Picks `option` in the open picker.
    private static func pick(_ option: String, _ state: inout AppState) {
        guard case .picker(let picker)? = state.modal, let index = picker.options.firstIndex(where: { $0 == option || $0.hasPrefix(option + ":") }) else {
            Issue.record("no picker offering \(option): \(String(describing: state.modal))")
            return
        }
        Fixtures.press([.key(KeyEvent(.home))] + Array(repeating: .key(KeyEvent(.down)), count: index) + [enter], into: &state)
    }

    private static func showTab(_ tab: RequestTab, _ state: inout AppState) {
        state.switchRequestTab(to: tab)
    }

    // MARK: - Auth

    @Test func basicAuthIsChosenTypedAndSentWithItsSecretAsDots() {
        var state = Fixtures.welcome()
        Self.showTab(.auth, &state)
        #expect(state.focus == .auth)
        #expect(state.authValue(.scheme) == "none")
        Fixtures.press([Self.enter], into: &state)
        Self.pick("basic", &state)
        // Picking Basic edits the user in its own row, then the password in its own (dots).
        #expect(state.inlineEdit?.target == .auth(.user))
        #expect(state.status?.text.hasPrefix("Editing the user name") == true)
        Self.answer("ada", &state)
        #expect(state.inlineEdit?.target == .auth(.password))
        #expect(state.inlineEdit?.field.isSecret == true)
        Self.answer("hunter2", &state)
        #expect(state.inlineEdit == nil)
        #expect(state.modal == nil)
        #expect(state.auth == SavedAuth(scheme: .basic, user: "ada", password: "hunter2"))
        #expect(Self.preview(state).contains("Authorization: Basic YWRhOmh1bnRlcjI=\n"))
        #expect(state.authValue(.password) == "••••••••")
        Fixtures.press([.key(.char("v"))], into: &state)
        #expect(state.authValue(.password) == "hunter2")
        #expect(state.editedSession.requests[0].auth == SavedAuth(scheme: .basic, user: "ada", password: "hunter2"))
        // The Explain view says where the header came from.
        Fixtures.press([.key(KeyEvent(.function(9)))], into: &state)
        let lines = state.explanation?.steps.flatMap(\.lines).map(\.text) ?? []
        #expect(lines.contains("`Authorization`  from the Basic credentials"), "\(lines)")
    }

    @Test func aClickOnTheAuthTabSelectsTheRowUnderIt() {
        var state = Fixtures.welcome(width: 120, height: 40)
        state.auth = SavedAuth(user: "ada", password: "pw")
        state.switchRequestTab(to: .auth)
        let box = ScreenLayout(state).requestBox!
        // Rows start inside the border: the third is the password.
        Fixtures.press([.mouse(MouseEvent(.press(button: 1), x: box.x + 3, y: box.y + 3))], into: &state)
        #expect(state.authRows[state.authList.selected] == .password)
    }

    @Test func digestKeepsTheCredentialsAndVariablesStayUnexpanded() {
        var state = Fixtures.welcome()
        state.workspace.session.variables["secret"] = .string("s3")
        state.refreshPreview()
        Self.showTab(.auth, &state)
        Fixtures.press([Self.enter], into: &state)
        Self.pick("basic", &state)
        Self.answer("ada", &state)
        Self.answer("{{secret}}", &state)
        #expect(Self.preview(state).contains("Authorization: Basic YWRhOnMz\n"))
        Fixtures.press([.key(KeyEvent(.home)), Self.enter], into: &state)
        Self.pick("digest", &state)
        #expect(state.auth == SavedAuth(scheme: .digest, user: "ada", password: "{{secret}}"))
        // Digest answers a challenge: nothing is sent up front.
        #expect(!Self.preview(state).contains("Authorization:"))
        #expect(state.editedSession.requests[0].auth?.password == "{{secret}}")
    }

    @Test func aBearerTokenIsTheAuthorizationHeaderAndNoneRemovesIt() {
        var state = Fixtures.welcome()
        Self.showTab(.auth, &state)
        Fixtures.press([Self.enter], into: &state)
        Self.pick("bearer", &state)
        Self.answer("{{token}}", &state)
        #expect(state.authScheme == .bearer)
        #expect(state.headers.last == HeaderRow(name: "Authorization", value: "Bearer {{token}}"))
        #expect(state.authValue(.token) == "••••••••")
        Fixtures.press([.key(KeyEvent(.home)), Self.enter], into: &state)
        Self.pick("none", &state)
        #expect(state.authScheme == .none)
        #expect(!state.headers.contains { $0.name == "Authorization" })
    }

    @Test("a bearer token typed in shows as dots in the Headers tab too, until v reveals it")
    func aTypedTokenIsHiddenInTheHeadersTab() {
        var state = Fixtures.welcome(width: 120, height: 40)
        Self.showTab(.auth, &state)
        Fixtures.press([Self.enter], into: &state)
        Self.pick("bearer", &state)
        Self.answer("s3cret-token", &state)
        Self.showTab(.headers, &state)
        state.setFocus(.headers)
        var screen = Snapshot.text(Renderer.render(&state))
        // The Headers tab hides it; the preview stays the exact wire text.
        #expect(screen.contains("│[x] Authorization: Bearer ••••••"), "\(screen)")
        #expect(!screen.contains("│[x] Authorization: Bearer s3cret-token"))
        Fixtures.press([.key(.char("v"))], into: &state)
        screen = Snapshot.text(Renderer.render(&state))
        #expect(screen.contains("│[x] Authorization: Bearer s3cret-token"), "\(screen)")
    }

    @Test("the Headers tab shows a value written as one variable, and hides values that only hold one, and inherited secrets")
    func headerValuesAreShownOrHidden() {
        let state = Fixtures.welcome()
        #expect(RequestPanes.shownValue(name: "Authorization", value: "Bearer {{token}}", state, written: true) == "Bearer {{token}}")
        #expect(RequestPanes.shownValue(name: "X-Api-Key", value: "{{key}}", state, written: true) == "{{key}}")
        #expect(RequestPanes.shownValue(name: "Cookie", value: "sid=OWNCOOKIE{{x}}", state, written: true) == "••••••")
        #expect(RequestPanes.shownValue(name: "Authorization", value: "Bearer real{{suffix}}", state, written: true) == "Bearer ••••••")
        #expect(RequestPanes.shownValue(name: "Authorization", value: "Bearer {{token}}", state, written: false) == "Bearer ••••••")
        #expect(RequestPanes.shownValue(name: "Accept", value: "{{type}}", state, written: false) == "{{type}}")
        var revealed = state
        revealed.revealsSecrets = true
        #expect(RequestPanes.shownValue(name: "Cookie", value: "sid=1", revealed, written: false) == "sid=1")
    }

    // MARK: - Body kinds

    @Test func aTextBodyWithAnyContentTypeIsTypedInTheEditorAndSent() {
        var state = Fixtures.welcome()
        state.method = "POST"
        Self.showTab(.body, &state)
        Fixtures.press([.key(.alt("k"))], into: &state)
        Self.pick("text", &state)
        // The parameters became the text; the Content-Type is asked for.
        Self.answer("application/xml", &state)
        Fixtures.press([.key(.ctrl("a"))], into: &state)
        state.body = TextArea()
        Fixtures.press(Fixtures.typing("<a>1</a>"), into: &state)
        #expect(state.bodySource == .text("<a>1</a>"))
        let preview = Self.preview(state)
        #expect(preview.contains("Content-Type: application/xml\n"), "\(preview)")
        #expect(preview.hasSuffix("\n\n<a>1</a>\n"), "\(preview)")
        let saved = state.editedSession.requests[0]
        #expect(saved.body == .text("<a>1</a>"))
        #expect(saved.params == nil)
        #expect(saved.headers.contains(HeaderSetting(name: "Content-Type", value: "application/xml")))
    }

    @Test func bytesAreEditedAsBase64AndBadBase64IsRefusedWithTheTextKept() {
        var state = Fixtures.welcome()
        state.method = "PUT"
        Self.showTab(.body, &state)
        Fixtures.press([.key(.alt("k"))], into: &state)
        Self.pick("bytes", &state)
        state.body = TextArea("AAEC/w==")
        state.bodyIsDirty = true
        Fixtures.press([.key(.alt("s"))], into: &state)
        #expect(state.bodySource == .base64([0, 1, 2, 255]))
        #expect(state.editedSession.requests[0].body == .base64([0, 1, 2, 255]))
        state.body = TextArea("not base64!")
        state.bodyIsDirty = true
        Fixtures.press([.key(.alt("s"))], into: &state)
        #expect(state.status?.kind == .error)
        #expect(state.body.text == "not base64!")
        #expect(state.bodySource == .base64([0, 1, 2, 255]))
    }

    @Test func aFileBodyAndAnUploadWithARateAreSavedAsTheFormatWritesThem() throws {
        let directory = try TemporaryDirectory()
        try directory.write("data.bin", Array("0123456789".utf8))
        var state = Fixtures.welcome()
        state.workspace.path = directory.path + "/s.tincan.yaml"
        state.method = "POST"
        Self.showTab(.body, &state)
        Fixtures.press([.key(.alt("k"))], into: &state)
        Self.pick("file", &state)
        Self.answer("data.bin", &state)
        #expect(state.bodySource == .file("data.bin"))
        #expect(Self.preview(state).hasSuffix("\n\n<10 bytes streamed from \(directory.path)/data.bin>\n"), "\(Self.preview(state))")
        #expect(state.editedSession.requests[0].body == .file("data.bin"))
        // Enter on the tab changes the file; alt+k makes it an upload, which asks for a rate.
        Fixtures.press([.key(.alt("k"))], into: &state)
        Self.pick("upload", &state)
        Self.answer("data.bin", &state)
        Self.answer("2x", &state)
        guard case .prompt(let prompt)? = state.modal else {
            Issue.record("a bad rate closed the prompt")
            return
        }
        #expect(prompt.error?.isEmpty == false)
        Self.answer("64k", &state)
        let saved = state.editedSession.requests[0]
        #expect(saved.upload == SavedUpload(file: "data.bin", rate: "64k"))
        #expect(saved.body == nil)
        #expect(state.resolved?.options.uploadBytesPerSecond == 64_000)
    }

    @Test func aPastedCurlWithAnXMLBodyLoadsAsARawBodyTheTabEdits() {
        var state = Fixtures.welcome()
        Fixtures.press([.paste("curl http://h/post --data-raw '<note><to>Ada</to></note>' -H 'Content-Type: application/xml'")], into: &state)
        #expect(state.status?.kind == .info, "\(state.status?.text ?? "")")
        #expect(state.bodySource == .text("<note><to>Ada</to></note>"))
        Self.showTab(.body, &state)
        #expect(state.body.text == "<note><to>Ada</to></note>")
        #expect(state.bodyFileExtension == "xml")
        let preview = Self.preview(state)
        #expect(preview.hasPrefix("POST /post HTTP/1.1\n"))
        #expect(preview.contains("Content-Type: application/xml\n"))
        #expect(preview.hasSuffix("\n\n<note><to>Ada</to></note>\n"))
    }

    @Test func textThatIsJSONBecomesTheParametersAgainAndOtherTextIsSaidToBeLeftOut() {
        var state = Fixtures.welcome()
        state.bodySource = .text(#"{"a": [1, 2]}"#)
        Self.showTab(.body, &state)
        Fixtures.press([.key(.alt("k"))], into: &state)
        Self.pick("parameters", &state)
        #expect(state.bodySource == nil)
        #expect(AppState.parameterValue(state.parameters.root) == .dictionary(["a": .array([.integer(1), .integer(2)])]))
        state.bodySource = .text("<x/>")
        Fixtures.press([.key(.alt("k"))], into: &state)
        Self.pick("parameters", &state)
        #expect(state.status?.kind == .warning)
        #expect(state.status?.text.contains("<x/>") == true)
    }

    // MARK: - Query fields

    @Test func queryFieldsAreListedAddedEditedAndRemoved() {
        var state = Fixtures.welcome()
        state.setFocus(.query)
        #expect(state.requestTab == .parameters)
        Fixtures.press([.key(.char("a"))], into: &state)
        Self.answer("dry-run==1", &state)
        Fixtures.press([.key(.char("a"))], into: &state)
        Self.answer("q==a b", &state)
        #expect(state.query == [QueryField(name: "dry-run", value: "1"), QueryField(name: "q", value: "a b")])
        #expect(Self.preview(state).hasPrefix("GET /get?dry-run=1&q=a%20b&greeting=hello"), "\(Self.preview(state))")
        Fixtures.press([.key(KeyEvent(.up)), .key(.char("e"))], into: &state)
        Self.answer("dry-run==0", &state)
        #expect(state.query[0].value == "0")
        Fixtures.press([.key(.char("a"))], into: &state)
        Self.answer("no separator", &state)
        guard case .prompt(let prompt)? = state.modal else {
            Issue.record("the prompt closed")
            return
        }
        #expect(prompt.error == "expected name=value, name:=json, name==value, Header:value or field@file")
        Fixtures.press([.key(KeyEvent(.escape)), .key(.char("d"))], into: &state)
        #expect(state.query.count == 1)
        #expect(state.editedSession.requests[0].query.map(\.name) == ["q"])
    }

    @Test func spaceTurnsAQueryFieldOffAndOnKeepingItInTheFile() {
        var state = Fixtures.welcome()
        state.setFocus(.query)
        Fixtures.press([.key(.char("a"))], into: &state)
        Self.answer("dry-run==1", &state)
        Fixtures.press([.key(.char("a"))], into: &state)
        Self.answer("q==tea", &state)
        Fixtures.press([.key(KeyEvent(.up)), .key(.char(" "))], into: &state)
        #expect(state.query == [QueryField(name: "dry-run", value: "1", isEnabled: false), QueryField(name: "q", value: "tea")])
        #expect(state.status?.text == "The query field dry-run is off: kept, not sent.")
        // Off, it is not sent, but it is saved, turned off.
        #expect(Self.preview(state).hasPrefix("GET /get?q=tea&greeting=hello"), "\(Self.preview(state))")
        #expect(state.editedSession.requests[0].query == [QuerySetting(name: "dry-run", value: "1", isEnabled: false), QuerySetting(name: "q", value: "tea")])
        // An edit keeps it off; space turns it on again.
        Fixtures.press([.key(.char("e"))], into: &state)
        Self.answer("dry-run==0", &state)
        #expect(state.query[0] == QueryField(name: "dry-run", value: "0", isEnabled: false))
        Fixtures.press([.key(.char(" "))], into: &state)
        #expect(state.query[0].isEnabled)
        #expect(Self.preview(state).hasPrefix("GET /get?dry-run=0&q=tea&greeting=hello"), "\(Self.preview(state))")
    }

    // MARK: - Default headers

    @Test func defaultHeadersAreListedWithTheirOriginAndTurningOneOffWritesNull() {
        var state = Fixtures.welcome()
        state.workspace.session.defaults.headers = [HeaderSetting(name: "X-Team", value: "core")]
        state.refreshPreview()
        let origins = Dictionary(uniqueKeysWithValues: state.defaultHeaders.map { ($0.name, $0.origin) })
        #expect(origins["User-Agent"] == .builtIn)
        #expect(origins["Accept-Encoding"] == .builtIn)
        #expect(origins["X-Team"] == .session)
        #expect(origins["Accept"] == nil)
        state.setFocus(.headers)
        let userAgent = state.headers.count + state.defaultHeaders.firstIndex { $0.name == "User-Agent" }!
        state.headerList.select(userAgent, count: state.headerListRows.count)
        Fixtures.press([.key(.char(" "))], into: &state)
        #expect(state.removedHeaders == ["User-Agent"])
        #expect(!Self.preview(state).contains("User-Agent:"))
        #expect(state.editedSession.requests[0].headers.last == HeaderSetting(name: "User-Agent", value: nil))
        // The cursor is on the removed row: space sends it again.
        #expect(state.selectedHeaderRow == .removed(0))
        Fixtures.press([.key(.char(" "))], into: &state)
        #expect(state.removedHeaders.isEmpty)
        #expect(Self.preview(state).contains("User-Agent: tincan/"))
        #expect(state.editedSession.requests[0].headers == [HeaderSetting(name: "Accept", value: "application/json")])
    }

    @Test func theSerializersContentTypeIsListedAsItsAndCanBeRemoved() {
        var state = Fixtures.welcome()
        state.method = "POST"
        state.serializer = .json
        state.refreshPreview()
        #expect(state.defaultHeaders.first { $0.name == "Content-Type" }?.origin == .serializer)
        state.setFocus(.headers)
        let index = state.headers.count + state.defaultHeaders.firstIndex { $0.name == "Content-Type" }!
        state.headerList.select(index, count: state.headerListRows.count)
        Fixtures.press([.key(.char("d"))], into: &state)
        #expect(!Self.preview(state).contains("Content-Type:"))
        #expect(state.editedSession.requests[0].headers.contains(HeaderSetting(name: "Content-Type", value: nil)))
    }

    // MARK: - The parameter tree

    @Test func aBracketedKeyNestsAndTheTypeIsChosenAtOnce() {
        var state = Fixtures.welcome()
        state.setFocus(.parameters)
        Fixtures.press([.key(KeyEvent(.home)), .key(.char("a"))] + Fixtures.typing("user[address][city]") + [Self.enter], into: &state)
        Self.pick("string", &state)
        Self.answer("London", &state)
        Fixtures.press([.key(KeyEvent(.home)), .key(.char("a"))] + Fixtures.typing("user[age]") + [Self.enter], into: &state)
        Self.pick("number", &state)
        Self.answer("37", &state)
        Fixtures.press([.key(KeyEvent(.home)), .key(.char("a"))] + Fixtures.typing("user[tags][]") + [Self.enter], into: &state)
        Self.pick("object", &state)
        #expect(state.modal == nil)
        guard case .dictionary(let members) = AppState.parameterValue(state.parameters.root) else {
            Issue.record("the root is not an object")
            return
        }
        let expected: ParameterValue = .dictionary(["address": .dictionary(["city": "London"]), "age": .integer(37), "tags": .array([.dictionary([:])])])
        #expect(members["user"] == expected)
        #expect(Self.preview(state).contains("user%5Baddress%5D%5Bcity%5D=London"))
        // A key through a string is refused in the prompt, with the reason.
        Fixtures.press([.key(KeyEvent(.home)), .key(.char("a"))] + Fixtures.typing("greeting[x]") + [Self.enter], into: &state)
        guard case .prompt(let prompt)? = state.modal else {
            Issue.record("the prompt closed")
            return
        }
        #expect(prompt.error == "'greeting' is already a string, not an object or array")
    }

    // MARK: - Saving

    /// A session as Tincan writes it, with every part the new panes edit.
    private static let sessionFile = """
    name: Tabs
    base: http://127.0.0.1:8080/
    requests:
      - name: Post XML
        method: POST
        url: anything
        headers:
          Content-Type: application/xml
          Accept-Encoding: null
        query:
          page: "2"
        body: <a>1</a>
        auth:
          user: "{{user}}"
          password: "{{password}}"
      - name: Upload
        method: PUT
        url: put
        upload:
          file: data.bin
          rate: 64k

    """

    @Test func aSessionEditedThroughTheNewPanesSavesOnlyWhatChanged() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("tabs.tincan.yaml", Array(Self.sessionFile.utf8))
        var state = AppState(width: 120, height: 40)
        // As `--var` gives them: never saved.
        var workspace = Workspace(session: try Session.load(path: path), path: path)
        workspace.overrides = ["user": "ada", "password": "pw", "secret": "s3"]
        state.open(workspace)
        #expect(state.bodySource == .text("<a>1</a>"))
        #expect(state.query == [QueryField(name: "page", value: "2")])
        #expect(state.removedHeaders == ["Accept-Encoding"])
        #expect(state.authScheme == .basic)
        // Loaded and saved untouched: the same bytes.
        state.saveNow()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.sessionFile)
        // Each pane's edit changes its own lines only.
        state.switchRequestTab(to: .auth)
        state.authList.select(2, count: state.authRows.count)
        Fixtures.press([Self.enter], into: &state)
        Self.answer("{{secret}}", &state)
        state.setFocus(.query)
        Fixtures.press([.key(.char("e"))], into: &state)
        Self.answer("page==3", &state)
        state.saveNow()
        let expected = Self.sessionFile
            .replacingOccurrences(of: "page: \"2\"", with: "page: \"3\"")
            .replacingOccurrences(of: "password: \"{{password}}\"", with: "password: \"{{secret}}\"")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
        // The text body, typed in the Body tab, and a default turned off in the Headers tab.
        state.switchRequestTab(to: .body)
        Fixtures.press([.key(KeyEvent(.end)), .key(KeyEvent(.backspace))] + Fixtures.typing("<b/></a>"), into: &state)
        state.setFocus(.headers)
        let userAgent = state.headers.count + state.removedHeaders.count + (state.defaultHeaders.firstIndex { $0.name == "User-Agent" } ?? 0)
        state.headerList.select(userAgent, count: state.headerListRows.count)
        Fixtures.press([.key(.char(" "))], into: &state)
        state.saveNow()
        let edited = expected
            .replacingOccurrences(of: "body: <a>1</a>", with: "body: <a>1</a<b/></a>")
            .replacingOccurrences(of: "      Accept-Encoding: null\n", with: "      Accept-Encoding: null\n      User-Agent: null\n")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == edited, "\(written)")
        // The second request's upload shows on the Body tab and saves unchanged.
        state.loadRequest(1)
        #expect(state.bodySource == .upload(SavedUpload(file: "data.bin", rate: "64k")))
        state.saveNow()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == edited)
    }

    // MARK: - Snapshots

    enum Scene: String, CaseIterable, CustomTestStringConvertible {
        case authBasic, authRevealed, bodyXML, bodyUpload, queryFields, defaultHeaders, parameterType

        var testDescription: String { rawValue }

        func apply(to state: inout AppState) {
            switch self {
            case .authBasic, .authRevealed:
                state.auth = SavedAuth(scheme: .basic, user: "{{user}}", password: "hunter2")
                state.workspace.session.variables["user"] = .string("ada")
                state.switchRequestTab(to: .auth)
                state.authList.select(2, count: state.authRows.count)
                if self == .authRevealed { Fixtures.press([.key(.char("v"))], into: &state) }
            case .bodyXML:
                state.method = "POST"
                state.headers.append(HeaderRow(name: "Content-Type", value: "application/xml"))
                state.switchRequestTab(to: .body)
                state.chooseBodyKind(.text)
                state.closeModal()
                state.bodySource = .text("<note>\n  <to>Ada</to>\n</note>")
                state.loadBodyEditor()
            case .bodyUpload:
                state.method = "PUT"
                state.switchRequestTab(to: .body)
                state.chooseBodyKind(.upload)
                RequestTabsTests.answerUpload(&state)
            case .queryFields:
                state.query = [QueryField(name: "dry-run", value: "1"), QueryField(name: "q", value: "{{term}}")]
                state.workspace.session.variables["term"] = .string("tui")
                state.setFocus(.query)
            case .defaultHeaders:
                state.removedHeaders = ["Accept-Language"]
                state.setFocus(.headers)
                state.refreshPreview()
                state.headerList.select(2, count: state.headerListRows.count)
            case .parameterType:
                state.setFocus(.parameters)
                Fixtures.press([.key(KeyEvent(.home)), .key(.char("a"))] + Fixtures.typing("user[address][city]") + [.key(KeyEvent(.enter))], into: &state)
            }
            state.refreshPreview()
        }
    }

    /// Answers the upload prompts as typed: a file (at a fixed path, so the preview that names
    /// it is the same on every machine) and a rate.
    static func answerUpload(_ state: inout AppState) {
        let path = "/tmp/tincan-snapshot-upload.bin"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x61, count: 64)))
        Fixtures.press(Fixtures.typing(path) + [.key(KeyEvent(.enter))] + Fixtures.typing("64k") + [.key(KeyEvent(.enter))], into: &state)
    }

    @Test(arguments: Scene.allCases, [(80, 24), (120, 40)])
    func paneMatchesItsGoldenFile(_ scene: Scene, size: (Int, Int)) {
        Fixtures.verifySnapshot(scene.rawValue, size: size) { scene.apply(to: &$0) }
    }
}

@Suite("Bodies as people edit them")
struct BodyEditingTests {
    @Test("a text body's Content-Type goes with the text: an upload after it, and a GET after that, send none of it")
    func theContentTypeFollowsTheBodyKind() throws {
        var state = Fixtures.welcome(width: 120, height: 40)
        state.method = "POST"
        state.switchRequestTab(to: .body)
        state.chooseBodyKind(.text)
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing("application/xml") + [.key(KeyEvent(.enter))], into: &state)
        state.refreshPreview()
        #expect(SessionWorkspaceTests.previewText(state).contains("Content-Type: application/xml"))
        let folder = try TemporaryDirectory()
        let file = try folder.write("big.bin", [0, 1, 2, 3])
        state.chooseBodyKind(.upload)
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k")), .paste(file), .key(KeyEvent(.enter)), .key(KeyEvent(.enter))], into: &state)
        state.refreshPreview()
        #expect(!SessionWorkspaceTests.previewText(state).contains("application/xml"), "\(SessionWorkspaceTests.previewText(state))")
        state.chooseBodyKind(.parameters)
        state.method = "GET"
        state.refreshPreview()
        #expect(!SessionWorkspaceTests.previewText(state).contains("Content-Type"))
    }

    @Test("a Content-Type typed in the Headers tab stays when the body kind changes")
    func aHandTypedContentTypeStays() {
        var state = Fixtures.welcome()
        state.method = "PUT"
        state.headers.append(HeaderRow(name: "Content-Type", value: "application/octet-stream"))
        state.bodySource = .base64([1, 2])
        state.chooseBodyKind(.text)
        state.closeModal()
        state.chooseBodyKind(.base64)
        #expect(state.headers.contains { $0.name == "Content-Type" && $0.value == "application/octet-stream" })
    }

    @Test("a bracketed key names its place from the root, whatever row of the tree is selected")
    func bracketedKeysAreAddedFromTheRoot() throws {
        var state = Fixtures.welcome()
        state.switchRequestTab(to: .parameters)
        state.setFocus(.parameters)
        // Select tags[0], deep in the tree.
        state.parameters.select(path: [2, 0])
        _ = state.update(.input(.key(.char("a"))))
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing("user[roles][]") + [.key(KeyEvent(.enter))], into: &state)
        Fixtures.press([.key(KeyEvent(.enter))], into: &state)
        Fixtures.press(Fixtures.typing("admin") + [.key(KeyEvent(.enter))], into: &state)
        let parameters = AppState.parameterValue(state.parameters.root)
        #expect(parameters == .dictionary(["greeting": .string("hello"), "page": .integer(1), "tags": .array([.string("tui"), .string("http")]),
                                           "user": .dictionary(["roles": .array([.string("admin")])])]), "\(parameters)")
    }
}
