import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanSessions
@testable import TincanTUI

@Suite("Command line parsing")
struct ReplParsingTests {
    @Test func theIssuesExamplesParse() throws {
        #expect(try ReplCommand.parse("get /users page==2") == .request(method: "GET", url: "/users", items: [.query(name: "page", value: "2")]))
        #expect(try ReplCommand.parse(#"post /items name=x tags:=["a"]"#) == .request(method: "POST", url: "/items", items: [
            .parameter(key: "name", value: .string("x")), .parameter(key: "tags", value: .array([.string("a")])),
        ]))
        #expect(try ReplCommand.parse("header Accept: application/json") == .header(name: "Accept", value: "application/json"))
        #expect(try ReplCommand.parse("base http://127.0.0.1:8080/v1") == .base("http://127.0.0.1:8080/v1"))
        #expect(try ReplCommand.parse("set timeout 5") == .set(property: .observed(.timeoutInterval), value: "5"))
        // The session file's key and AFNetworking's name name the same property.
        #expect(try ReplCommand.parse("set cache-policy reloadIgnoringLocalCacheData") == .set(property: .observed(.cachePolicy), value: "reloadIgnoringLocalCacheData"))
        #expect(try ReplCommand.parse("set networkServiceType video") == .set(property: .observed(.networkServiceType), value: "video"))
        #expect(try ReplCommand.parse("set upload off") == .set(property: .upload, value: "off"))
        #expect(ReplCommand.properties.map(\.name) == ["timeout", "cache", "cookies", "pipelining", "cellular", "service", "upload"])
        for property in ObservedProperty.allCases {
            #expect(ObservedProperty(word: property.commandWord) == property)
            #expect(ObservedProperty(word: property.sessionKey) == property)
            #expect(ObservedProperty(word: property.afNetworkingName.uppercased()) == property)
        }
        #expect(ObservedProperty(word: "upload") == nil)
        #expect(try ReplCommand.parse("serializer json") == .serializer(.json))
        #expect(try ReplCommand.parse("accept status 200-299") == .acceptStatus(StatusCodeSet([200...299])))
        #expect(try ReplCommand.parse("send") == .send)
        #expect(try ReplCommand.parse("theme nord") == .theme("nord"))
        #expect(try ReplCommand.parse("help") == .help)
    }

    @Test func quotesGroupAtAWordsStartOrAfterASeparatorOnly() throws {
        #expect(try ReplWords.split(#"post x name='Ada Lovelace' tags:='["a b"]' q=it\'s"#) == ["post", "x", "name=Ada Lovelace", #"tags:=["a b"]"#, #"q=it\'s"#])
        #expect(try ReplWords.split(#"header X-Note: "two words""#) == ["header", "X-Note:", "two words"])
        #expect(try ReplWords.split(#"put a\ b"#) == ["put", "a b"])
        #expect(try ReplCommand.parse(#"post x a\=b=c"#) == .request(method: "POST", url: "x", items: [.parameter(key: "a=b", value: .string("c"))]))
    }

    @Test func aWordWithAnItemSeparatorIsAnItemUnlessItLooksLikeAURL() throws {
        #expect(try ReplCommand.parse("get page==2") == .request(method: "GET", url: nil, items: [.query(name: "page", value: "2")]))
        #expect(try ReplCommand.parse("get http://127.0.0.1:8080/x?a=1") == .request(method: "GET", url: "http://127.0.0.1:8080/x?a=1", items: []))
        #expect(try ReplCommand.parse("delete items/a=b") == .request(method: "DELETE", url: "items/a=b", items: []))
        #expect(try ReplCommand.parse("post {{server}}/x a=1") == .request(method: "POST", url: "{{server}}/x", items: [.parameter(key: "a", value: .string("1"))]))
        #expect(try ReplCommand.parse("header -X-Trace") == .header(name: "X-Trace", value: nil))
        #expect(try ReplCommand.parse("env") == .environment(nil))
        #expect(try ReplCommand.parse("clear all") == .clear(.all))
    }

    @Test(arguments: [
        ("", "type a command"),
        ("fetch /x", "'fetch' is not a command; expected one of: get, head"),
        ("post /x tags:=[a", "tags:=[a"),
        ("header Accept", "has no colon"),
        ("header Bad Name: x", "'Bad Name' is not a valid header name"),
        ("set speed 3", "'speed' is not a property; expected one of: timeout, cache"),
        ("set timeout", "set takes a property and a value"),
        ("serializer yaml", "'yaml' is not a serializer; expected one of: form, json, plist, multipart"),
        ("accept status 99", "'99' is not a status code or range"),
        ("accept type json", "accept takes status and codes"),
        ("send now", "send takes nothing"),
        ("url a b", "url takes one URL, not 2 words"),
        ("post x name='open", "the quote at column 13 is not closed"),
        ("clear cookies", "clear takes params, headers or all"),
    ])
    func badLinesSayWhatWasExpected(_ line: String, _ expected: String) {
        #expect(throws: ReplError.self) { try ReplCommand.parse(line) }
        do {
            _ = try ReplCommand.parse(line)
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test func secretValuesAreHiddenForTheHistoryFile() {
        #expect(ReplCommand.redacted("post /login user=ada password=hunter2 api_key==k1") == "post /login user=ada password=•••••• api_key==••••••")
        #expect(ReplCommand.redacted("get /me Authorization:'Bearer abc' Accept:json") == "get /me Authorization:'Bearer ••••••' Accept:json")
        #expect(ReplCommand.redacted("header Authorization: Basic YWRh") == "header Authorization: Basic ••••••")
        #expect(ReplCommand.redacted("header Accept: text/plain") == "header Accept: text/plain")
        #expect(ReplCommand.redacted("post /x user[password]:='\"p w\"'") == "post /x user[password]:=••••••")
    }
}

@Suite("Command line in the TUI")
struct ReplKeyScriptTests {
    static func run(_ line: String, in state: inout AppState) -> [Effect] {
        Fixtures.press([.key(.alt("x"))] + Fixtures.typing(line) + [.key(KeyEvent(.enter))], into: &state)
    }

    static func previewText(_ state: AppState) -> String {
        if case .request(_, let text) = state.preview { return text }
        return "error"
    }

    @Test func colonOpensItOutsideTextFieldsAndLinesBuildTheRequest() {
        var state = Fixtures.welcome()
        state.setFocus(.preview)
        Fixtures.press([.key(.char(":"))], into: &state)
        #expect(state.commandLine != nil)
        Fixtures.press(Fixtures.typing(#"post /items name=x tags:=["a"]"#) + [.key(KeyEvent(.enter))], into: &state)
        #expect(state.commandLine == nil)
        _ = Self.run("serializer json", in: &state)
        _ = Self.run("header X-Trace: 7", in: &state)
        _ = Self.run("set timeout 5", in: &state)
        _ = Self.run("accept status 200-299,304", in: &state)
        #expect(state.method == "POST")
        #expect(state.urlField.text == "/items")
        #expect(state.observed.timeoutInterval == 5)
        #expect(state.acceptableStatusCodes == StatusCodeSet([200...299, 304...304]))
        let preview = Self.previewText(state)
        #expect(preview.hasPrefix("POST /items HTTP/1.1\n"))
        #expect(preview.contains("X-Trace: 7\n"))
        // The verb line is the whole request, as HTTPie reads it: the welcome's parameters are gone.
        #expect(preview.hasSuffix(#"{"name":"x","tags":["a"]}"# + "\n"), "\(preview)")
        // A line within a line: tags[]=b twice appends, as the item syntax does.
        _ = Self.run("post /items tags[]=b tags[]=c", in: &state)
        #expect(AppState.parameterValue(state.parameters.root) == .dictionary(["tags": ["b", "c"]]))
        #expect(state.headers.isEmpty, "the line named no header, so the request has none of its own")
        #expect(state.status?.text == "POST /items: the whole request, 2 parameters, 0 query fields, 0 headers; send (or ctrl+r) sends it.")
    }

    @Test("pin sets the session's certificate pins (by certificate or public key), which the next send uses and saving writes; pin off removes them")
    func pinSetsTheSessionsPins() throws {
        #expect(try ReplCommand.parse("pin {{server-cert}}") == .pin(files: ["{{server-cert}}"], mode: .certificate))
        #expect(try ReplCommand.parse("pin public-key a.pem b.pem") == .pin(files: ["a.pem", "b.pem"], mode: .publicKey))
        #expect(try ReplCommand.parse("pin off") == .pin(files: [], mode: .certificate))
        #expect(throws: ReplError.self) { try ReplCommand.parse("pin") }
        #expect(throws: ReplError.self) { try ReplCommand.parse("pin public-key") }
        var state = Fixtures.welcome()
        state.setFocus(.preview)
        _ = Self.run("pin public-key /tmp/server-cert.pem", in: &state)
        #expect(state.workspace.session.defaults.security.pins == ["/tmp/server-cert.pem"])
        #expect(state.workspace.session.defaults.security.pinMode == .publicKey)
        #expect(state.status?.text.hasPrefix("Pinned 1 certificate by public key") == true, "\(String(describing: state.status?.text))")
        #expect(state.isModified, "pins are a change to save")
        #expect(state.editedSession.yamlText().contains("pins: [/tmp/server-cert.pem]") || state.editedSession.yamlText().contains("- /tmp/server-cert.pem"), "\(state.editedSession.yamlText())")
        // The next send is planned with the pins.
        let effects = Self.run("send", in: &state)
        let plans = effects.compactMap { effect -> SendPlan? in if case let .send(_, _, plan) = effect { plan } else { nil } }
        #expect(plans.first?.security.pins.isEmpty == false, "\(effects)")
        _ = Self.run("pin off", in: &state)
        #expect(state.workspace.session.defaults.security.pins.isEmpty)
    }

    @Test("JSON after := is read as JSON, quotes, colons and spaces inside it included")
    func jsonAfterColonEqualsIsJSON() throws {
        #expect(try ReplWords.split(#"post /anything friends:=[{"name":"Bo"}]"#) == ["post", "/anything", #"friends:=[{"name":"Bo"}]"#])
        #expect(try ReplWords.split(#"post /anything friends:=[{"name": "Bo", "tags": ["a b"]}] x=1"#)
            == ["post", "/anything", #"friends:=[{"name": "Bo", "tags": ["a b"]}]"#, "x=1"])
        #expect(try ReplWords.split(#"post /a s:="quoted \" text""#) == ["post", "/a", #"s:="quoted \" text""#])
        #expect(try ReplWords.split(#"post /a Authorization:"Bearer x y""#) == ["post", "/a", "Authorization:Bearer x y"])
        #expect(throws: ReplError.self) { try ReplWords.split(#"post /a f:=[{"a":1}"#) }
        var state = Fixtures.welcome()
        _ = Self.run(#"post /anything friends:=[{"name":"Bo"}]"#, in: &state)
        #expect(AppState.parameterValue(state.parameters.root) == .dictionary(["friends": .array([.dictionary(["name": "Bo"])])]))
    }

    @Test("header NAME: and header -NAME each say what they did")
    func headerCommandsSayWhatTheyDid() {
        var state = Fixtures.welcome()
        _ = Self.run("header Content-Type:", in: &state)
        #expect(state.status?.text == "Content-Type is sent with an empty value.")
        _ = Self.run("header -Content-Type", in: &state)
        #expect(state.status?.text.hasPrefix("Removed the Content-Type row") == true)
    }

    @Test("a line that fails part way changes nothing and stays in the field with its reason", arguments: [
        "put /put X-None:",
        "post /other a=1 X-None:",
        "patch /p n:=1 list[100000]=x",
    ])
    func aFailingLineAppliesNothing(line: String) {
        var state = Fixtures.welcome()
        let method = state.method
        let url = state.urlField.text
        let parameters = AppState.parameterValue(state.parameters.root)
        let preview = Self.previewText(state)
        let effects = Self.run(line, in: &state)
        #expect(effects.allSatisfy { if case .recordCommand = $0 { true } else { false } }, "only the history records it")
        #expect(state.method == method)
        #expect(state.urlField.text == url)
        #expect(AppState.parameterValue(state.parameters.root) == parameters)
        #expect(Self.previewText(state) == preview)
        let commandLine = state.commandLine
        #expect(commandLine?.field.text == line)
        #expect(commandLine?.error?.isEmpty == false)
    }

    @Test("Query items are escaped by the core's rule, exactly as tincan send escapes them")
    func queryItemsAreEscapedAsSendEscapesThem() throws {
        var state = Fixtures.welcome()
        _ = Self.run("clear params", in: &state)
        _ = Self.run("get anything q==a:b(c) 'k!'==x*y", in: &state)
        var draft = RequestDraft(method: "GET", url: "http://example.com/anything")
        draft.items = try ["q==a:b(c)", "k!==x*y"].map(RequestItem.parse)
        let expected = try draft.build().url.query
        #expect(state.urlField.text == "anything?" + (expected ?? ""))
        #expect(state.urlField.text == "anything?q=a%3Ab%28c%29&k%21=x%2Ay")
    }

    @Test("Query items go into the URL as the draft adds them: after the query, replacing an empty one, before a fragment")
    func queryItemsAreAddedAsTheDraftAddsThem() throws {
        // A space, +, &, [, ] and characters outside ASCII, on URLs with and without a query and a fragment.
        let value = "a b+c&d[1]é✓"
        for url in ["http://127.0.0.1:8080/get", "http://127.0.0.1:8080/get?", "http://127.0.0.1:8080/get?x=1", "http://127.0.0.1:8080/get#top", "http://127.0.0.1:8080/get?x=1#top"] {
            var state = AppState(width: 120, height: 40)
            _ = Self.run("get \(url) 'q==\(value)' tag==✓", in: &state)
            var draft = RequestDraft(method: "GET", url: url)
            draft.items = [.query(name: "q", value: value), .query(name: "tag", value: "✓")]
            let sent = try draft.build(boundary: state.boundary).url.string
            #expect(try state.makeDraft().build(boundary: state.boundary).url.string == sent, "\(url)")
            #expect(state.urlField.text == sent, "the field says what is sent: \(url)")
        }
    }

    @Test func queryItemsGoIntoTheURLAndSendSends() {
        var state = Fixtures.welcome()
        _ = Self.run("clear params", in: &state)
        _ = Self.run("get anything page==2 q=='a b&c'", in: &state)
        #expect(state.urlField.text == "anything?page=2&q=a%20b%26c")
        let effects = Self.run("send", in: &state)
        guard case .send(_, let request, _)? = effects.first(where: { if case .send = $0 { true } else { false } }) else {
            Issue.record("send did not send: \(effects)")
            return
        }
        #expect(request.url.string == "http://127.0.0.1:8080/anything?page=2&q=a%20b%26c")
    }

    @Test("name=@file is read as tincan send reads it: UTF-8 text refused otherwise, JSON checked, relative to the directory requests read from")
    func parameterFilesAreReadAsSendReadsThem() throws {
        let directory = try TemporaryDirectory()
        let text = try directory.write("note.txt", [0xEF, 0xBB, 0xBF] + Array("héllo".utf8))
        let binary = try directory.write("blob.bin", [0x66, 0xFF, 0x00])
        let json = try directory.write("n.json", Array("{\"a\": [1, 2]}".utf8))
        var state = Fixtures.welcome()
        _ = Self.run("post /post note=@\(text) n:=@\(json)", in: &state)
        #expect(state.commandLine == nil, "\(state.commandLine?.error ?? "")")
        #expect(AppState.parameterValue(state.parameters.root) == ["note": "héllo", "n": ["a": [1, 2]]])
        // Bytes that are not UTF-8 are refused with the reason, not replaced.
        _ = Self.run("post /post blob=@\(binary)", in: &state)
        #expect(state.commandLine?.error?.contains("\(binary) is not UTF-8 text") == true, "\(state.commandLine?.error ?? "")")
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        _ = Self.run("post /post n:=@\(text)", in: &state)
        #expect(state.commandLine?.error?.contains("is not valid JSON") == true, "\(state.commandLine?.error ?? "")")
    }

    @Test func aBadLineStaysWithItsErrorAndEscapeCloses() {
        var state = Fixtures.welcome()
        _ = Self.run("serializer yaml", in: &state)
        #expect(state.commandLine?.field.text == "serializer yaml")
        #expect(state.commandLine?.error?.contains("expected one of: form, json") == true)
        let buffer = Renderer.render(&state)
        #expect(buffer.lines[state.height - 1].contains("✗ 'yaml' is not a serializer"))
        #expect(buffer.lines[state.height - 2].hasPrefix(":serializer yaml"))
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        #expect(state.commandLine == nil)
        #expect(state.serializer == .form)
        _ = Self.run("theme solarized", in: &state)
        #expect(state.commandLine?.error?.contains("there is no theme 'solarized'; expected one of: dark, light") == true)
    }

    @Test func historyIsBrowsedWithUpAndDownAndRecordedRedacted() {
        var state = Fixtures.welcome()
        var effects = Self.run("header Authorization: Bearer abc", in: &state)
        #expect(effects.contains { if case .recordCommand("header Authorization: Bearer ••••••") = $0 { true } else { false } })
        effects = Self.run("set timeout 3", in: &state)
        #expect(state.replHistory == ["header Authorization: Bearer abc", "set timeout 3"])
        Fixtures.press([.key(.alt("x"))] + Fixtures.typing("ba"), into: &state)
        Fixtures.press([.key(KeyEvent(.up))], into: &state)
        #expect(state.commandLine?.field.text == "set timeout 3")
        Fixtures.press([.key(KeyEvent(.up)), .key(KeyEvent(.up))], into: &state)
        #expect(state.commandLine?.field.text == "header Authorization: Bearer abc")
        Fixtures.press([.key(KeyEvent(.down)), .key(KeyEvent(.down))], into: &state)
        #expect(state.commandLine?.field.text == "ba", "the line being typed comes back")
        state.keepsSecretsInHistory = true
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        effects = Self.run("header Authorization: Bearer xyz", in: &state)
        #expect(effects.contains { if case .recordCommand("header Authorization: Bearer xyz") = $0 { true } else { false } })
    }

    @Test func tabCompletesCommandsHeaderNamesMethodsAndPathsUsed() {
        var state = Fixtures.welcome()
        Fixtures.press([.key(.alt("x"))] + Fixtures.typing("ser") + [.key(KeyEvent(.tab))], into: &state)
        #expect(state.commandLine?.field.text == "serializer ")
        Fixtures.press(Fixtures.typing("j") + [.key(KeyEvent(.tab))], into: &state)
        #expect(state.commandLine?.field.text == "serializer json ")
        Fixtures.press([.key(KeyEvent(.escape)), .key(.alt("x"))] + Fixtures.typing("p") + [.key(KeyEvent(.tab))], into: &state)
        #expect(state.commandLine?.field.text == "p")
        #expect(state.commandLine?.completions == ["post", "put", "patch", "pin"])
        Fixtures.press([.key(KeyEvent(.escape)), .key(.alt("x"))] + Fixtures.typing("header acc") + [.key(KeyEvent(.tab))], into: &state)
        #expect(state.commandLine?.field.text == "header Accept")
        #expect(state.commandLine?.completions == ["Accept:", "Accept-Encoding:", "Accept-Language:"])
        // Paths already used: the URL field's and the session's.
        Fixtures.press([.key(KeyEvent(.escape)), .key(.alt("x"))] + Fixtures.typing("get g") + [.key(KeyEvent(.tab))], into: &state)
        #expect(state.commandLine?.field.text == "get get ")
        Fixtures.press([.key(KeyEvent(.escape)), .key(.alt("x"))] + Fixtures.typing("set cache ret") + [.key(KeyEvent(.tab))], into: &state)
        #expect(state.commandLine?.field.text.hasPrefix("set cache returnCache") == true)
    }

    @Test func helpListsTheCommandsAndSessionCommandsWork() throws {
        var state = Fixtures.welcome()
        _ = Self.run("help", in: &state)
        guard case .message(let dialog)? = state.modal else {
            Issue.record("expected the command list")
            return
        }
        #expect(dialog.lines.contains { $0.map(\.text).joined().contains("accept status CODES") })
        state.mode = .panes
        let directory = try TemporaryDirectory()
        _ = Self.run("save \(directory.path)/mine", in: &state)
        #expect(state.workspace.path == directory.path + "/mine.tincan.yaml")
        #expect(try Session.load(path: directory.path + "/mine.tincan.yaml").requests[0].url == "get")
        _ = Self.run("env staging", in: &state)
        #expect(state.commandLine?.error == "there is no environment 'staging'; the session defines none")
    }
}

@Suite("The command line's history hides secrets")
struct ReplHistoryRedactionTests {
    static func recorded(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .recordCommand(let line) = $0 { line } else { nil } }
    }

    static func run(_ line: String, in state: inout AppState) -> [Effect] {
        Fixtures.press([.key(.alt("x"))] + Fixtures.typing(line) + [.key(KeyEvent(.enter))], into: &state)
    }

    @Test("URL passwords typed at the command line are hidden in its history")
    func urlPasswordsAreHidden() {
        #expect(ReplCommand.redacted("get http://ann:pw@host/x") == "get http://ann:••••••@host/x")
        #expect(ReplCommand.redacted("base http://bob:pw@host/v1/") == "base http://bob:••••••@host/v1/")
        #expect(ReplCommand.redacted("url https://h/x?access_token=abc&page=2") == "url https://h/x?access_token=••••••&page=2")
        #expect(ReplCommand.redacted("get http://host/x") == "get http://host/x")
        var state = Fixtures.welcome()
        let effects = Self.run("get http://ann:pw@127.0.0.1:8080/anything", in: &state)
        #expect(Self.recorded(effects) == ["get http://ann:••••••@127.0.0.1:8080/anything"])
    }

    @Test("secret header values that run over several words are hidden")
    func headerValuesOverSeveralWords() {
        #expect(ReplCommand.redacted("get /me Authorization:Bearer abc") == "get /me Authorization:•••••• ••••••")
        #expect(ReplCommand.redacted("get /me Authorization: Bearer abc") == "get /me Authorization: •••••• ••••••")
        #expect(ReplCommand.redacted("get /me X-Api-Token:t0k Accept:json") == "get /me X-Api-Token:•••••• Accept:json")
        #expect(ReplCommand.redacted("header Authorization Bearer abc") == "header Authorization ••••••")
    }

    @Test("a line that does not split is still recorded without its secrets")
    func unsplittableLines() {
        let line = "get http://ann:pw@host/x password=hunter2 'open"
        #expect(ReplCommand.redacted(line) == "get http://ann:••••••@host/x password=•••••• 'open")
        var state = Fixtures.welcome()
        let effects = Self.run(line, in: &state)
        #expect(state.commandLine?.error != nil, "the line was not run")
        #expect(Self.recorded(effects).allSatisfy { !$0.contains("pw@") && !$0.contains("hunter2") })
    }
}
