import TestSupport
import Testing
import TerminalUI
import TincanCore
@testable import TincanTUI

@Suite("Pasting a curl command into the URL field")
struct PasteCurlTests {
    private func previewText(_ state: AppState) -> String {
        guard case let .request(_, text) = state.preview else { return "error: \(state.preview)" }
        return text
    }

    @Test func aJSONPostBecomesTheRequestWithItsParameterTree() {
        var state = Fixtures.welcome()
        #expect(state.focus == .url)
        Fixtures.press([.paste("curl -X POST 'http://127.0.0.1:9/items?x=1' -H 'Content-Type: application/json' -H 'X-Trace: 7' --data-raw '{\"name\":\"Ada\",\"tags\":[\"a\"]}'")], into: &state)
        #expect(state.method == "POST")
        #expect(state.serializer == .json)
        #expect(state.baseField.text.isEmpty)
        #expect(state.urlField.text == "http://127.0.0.1:9/items?x=1")
        #expect(state.headers.map(\.name) == ["X-Trace"], "the serializer's own Content-Type is not kept twice")
        #expect(AppState.parameterValue(state.parameters.root) == .dictionary(["name": "Ada", "tags": ["a"]]))
        let preview = previewText(state)
        #expect(preview.hasPrefix("POST /items?x=1 HTTP/1.1\nHost: 127.0.0.1:9\n"))
        #expect(preview.hasSuffix("X-Trace: 7\nContent-Length: 27\n\n{\"name\":\"Ada\",\"tags\":[\"a\"]}\n"))
    }

    @Test func aFormBodyBecomesNestedParameters() {
        var state = Fixtures.welcome()
        Fixtures.press([.paste("curl http://h/post -d 'user%5Bname%5D=Ada+L' -d 'n=2'")], into: &state)
        #expect(state.method == "POST")
        #expect(state.serializer == .form)
        #expect(AppState.parameterValue(state.parameters.root) == .dictionary(["user": .dictionary(["name": "Ada L"]), "n": "2"]))
        #expect(state.headers.isEmpty)
    }

    @Test func aBodyThatIsNotParametersIsTheBodyTabsText() {
        var state = Fixtures.welcome()
        Fixtures.press([.paste("curl http://h/raw -H 'Content-Type: text/plain' -d 'just text'")], into: &state)
        let preview = previewText(state)
        #expect(preview.hasPrefix("POST /raw HTTP/1.1\n"), "\(preview)")
        #expect(preview.contains("Content-Type: text/plain\n"), "\(preview)")
        #expect(preview.hasSuffix("Content-Length: 9\n\njust text\n"), "\(preview)")
        #expect(state.editedSession.requests[0].body == .text("just text"))
        #expect(state.bodySource == .text("just text"))
        #expect(state.status?.kind == .info, "\(state.status?.text ?? "")")
    }

    @Test func aCommandThatCannotBeReadChangesNothing() {
        var state = Fixtures.welcome()
        let before = previewText(state)
        Fixtures.press([.paste("curl --socks5 p http://h/")], into: &state)
        #expect(previewText(state) == before)
        #expect(state.status?.text.contains("the curl option --socks5 cannot be imported") == true)
    }

    @Test func credentialsAndHeaderRemovalsAreKeptAndWhatCannotBeIsNamed() {
        var state = Fixtures.welcome()
        Fixtures.press([.paste("curl -u ada:pw -H 'User-Agent:' --retry 3 http://127.0.0.1:9/items -d a=1")], into: &state)
        #expect(state.method == "POST")
        let preview = previewText(state)
        #expect(preview.contains("Authorization: Basic YWRhOnB3\n"), "\(preview)")
        #expect(!preview.contains("User-Agent:"), "\(preview)")
        #expect(state.editedSession.requests[0].headers.contains { $0.name == "User-Agent" && $0.value == nil })
        #expect(state.status?.kind == .warning)
        let text = state.status?.text ?? ""
        #expect(text.hasPrefix("Loaded the curl command: POST http://127.0.0.1:9/items. Note: "), "\(text)")
        #expect(text.contains("--retry"), "\(text)")
    }

    @Test func thePasswordInAPastedURLIsHiddenInTheStatusLine() {
        var state = Fixtures.welcome()
        Fixtures.press([.paste("curl http://ann:s3cret@127.0.0.1:9/items")], into: &state)
        let text = state.status?.text ?? ""
        #expect(text.hasPrefix("Loaded the curl command: GET http://ann:"), "\(text)")
        #expect(!text.contains("s3cret"), "\(text)")
    }

    @Test func otherPastesAreTextInTheField() {
        var state = Fixtures.welcome()
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k")), .paste("anything/curly")], into: &state)
        #expect(state.urlField.text == "anything/curly")
    }
}
