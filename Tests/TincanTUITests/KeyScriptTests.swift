import TestSupport
import Testing
import TerminalUI
import TincanCore
@testable import TincanTUI

@Suite("Key scripts through update")
struct KeyScriptTests {
    private func previewText(_ state: AppState) -> String {
        guard case let .request(_, text) = state.preview else { return "error: \(state.preview)" }
        return text
    }

    @Test func theWelcomeRequestPreviewsItsNestedQuery() {
        let state = Fixtures.welcome()
        #expect(previewText(state).hasPrefix("GET /get?greeting=hello&page=1&tags%5B%5D=tui&tags%5B%5D=http HTTP/1.1\nHost: 127.0.0.1:8080\n"))
        #expect(previewText(state).contains("Accept: application/json\n"))
    }

    @Test func typingInTheURLFieldUpdatesThePreviewOnEveryKey() {
        var state = Fixtures.welcome()
        #expect(state.focus == .url)
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing("anything/x"), into: &state)
        #expect(previewText(state).hasPrefix("GET /anything/x?greeting=hello"))
        Fixtures.press([.key(KeyEvent(.backspace))], into: &state)
        #expect(previewText(state).hasPrefix("GET /anything/?greeting=hello"))
    }

    @Test func anAbsolutePathReplacesTheBasePath() {
        var state = Fixtures.welcome()
        state.baseField = TextField("http://127.0.0.1:8080/v1/")
        state.urlField = TextField("/users")
        state.refreshPreview()
        #expect(previewText(state).hasPrefix("GET /users?"))
        state.urlField = TextField("users")
        state.refreshPreview()
        #expect(previewText(state).hasPrefix("GET /v1/users?"))
    }

    @Test func addsAHeaderThroughThePrompt() {
        var state = Fixtures.welcome()
        state.setFocus(.headers)
        Fixtures.press([.key(.char("a"))] + Fixtures.typing("X-Trace: abc 123") + [.key(KeyEvent(.enter))], into: &state)
        #expect(state.modal == nil)
        #expect(state.headers.last == HeaderRow(name: "X-Trace", value: "abc 123"))
        #expect(previewText(state).contains("X-Trace: abc 123\n"))
    }

    @Test func refusesAnInvalidHeaderNameAndKeepsWhatWasTyped() {
        var state = Fixtures.welcome()
        state.setFocus(.headers)
        Fixtures.press([.key(.char("a"))] + Fixtures.typing("Bad Name: x") + [.key(KeyEvent(.enter))], into: &state)
        guard case let .prompt(prompt)? = state.modal else {
            Issue.record("the prompt closed")
            return
        }
        #expect(prompt.error?.contains("'Bad Name' is not a valid header name") == true)
        #expect(prompt.dialog.field?.text == "Bad Name: x")
    }

    @Test func aHeaderTurnedOffIsNotSent() {
        var state = Fixtures.welcome()
        state.setFocus(.headers)
        Fixtures.press([.key(.char(" "))], into: &state)
        #expect(state.headers[0].isEnabled == false)
        #expect(!previewText(state).contains("Accept: application/json"))
        Fixtures.press([.key(.char("d"))], into: &state)
        #expect(state.headers.isEmpty)
    }

    @Test func buildsNestedParametersAndAJSONBody() {
        var state = Fixtures.welcome()
        state.setFocus(.method)
        Fixtures.press([.key(KeyEvent(.enter)), .key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(KeyEvent(.enter))], into: &state)
        #expect(state.method == "POST")
        state.setFocus(.serializer)
        Fixtures.press([.key(.char(" "))], into: &state)
        #expect(state.serializer == .json)
        state.setFocus(.parameters)
        // Select the root, add an object "user" with a number "age".
        // The key, then the type at once (string, number, bool, null, array, object).
        let down = InputEvent.key(KeyEvent(.down))
        Fixtures.press([.key(KeyEvent(.home)), .key(.char("a"))] + Fixtures.typing("user") + [.key(KeyEvent(.enter))], into: &state)
        Fixtures.press([down, down, down, down, down, .key(KeyEvent(.enter))], into: &state)
        #expect(state.parameters.selectedNode.value == .object)
        Fixtures.press([.key(.char("a"))] + Fixtures.typing("age") + [.key(KeyEvent(.enter)), down, .key(KeyEvent(.enter)), .key(.ctrl("u"))] + Fixtures.typing("37") + [.key(KeyEvent(.enter))], into: &state)
        #expect(state.parameters.selectedNode.value == .number("37"))
        let text = previewText(state)
        #expect(text.hasPrefix("POST /get HTTP/1.1\n"))
        #expect(text.contains("Content-Type: application/json\n"))
        #expect(text.hasSuffix("{\"greeting\":\"hello\",\"page\":1,\"tags\":[\"tui\",\"http\"],\"user\":{\"age\":37}}\n"))
    }

    @Test func aBadNumberIsRefusedWithTheReason() {
        var state = Fixtures.welcome()
        state.setFocus(.parameters)
        state.parameters.select(path: [1])
        Fixtures.press([.key(KeyEvent(.enter)), .key(.ctrl("u"))] + Fixtures.typing("1.2.3") + [.key(KeyEvent(.enter))], into: &state)
        guard case let .prompt(prompt)? = state.modal else {
            Issue.record("the prompt closed")
            return
        }
        #expect(prompt.error == "'1.2.3' is not a number (expected digits, an optional sign, fraction and exponent)")
    }

    @Test func theBodyTabAppliesJSONAndKeepsBadTextWithAnError() {
        var state = Fixtures.welcome()
        #expect(state.requestTab == .parameters)
        Fixtures.press([.key(KeyEvent(.function(2)))], into: &state)
        #expect(state.requestTab == .body && state.focus == .body)
        #expect(state.body.text.contains("\"greeting\": \"hello\""))
        state.body = TextArea("{\"a\": [1, 2")
        state.bodyIsDirty = true
        Fixtures.press([.key(.alt("s"))], into: &state)
        #expect(state.status?.kind == .error)
        #expect(state.status?.text.contains("line 1") == true)
        #expect(state.body.text == "{\"a\": [1, 2")
        // Leaving the tab with text that does not parse is refused, so nothing is lost.
        Fixtures.press([.key(KeyEvent(.function(2)))], into: &state)
        #expect(state.requestTab == .body)
        state.body = TextArea("{\"a\": [1, 2]}")
        Fixtures.press([.key(.alt("s"))], into: &state)
        #expect(AppState.parameterValue(state.parameters.root) == .dictionary(["a": .array([.integer(1), .integer(2)])]))
    }

    @Test func changedPropertiesAreMarkedAndApplied() {
        var state = Fixtures.welcome()
        state.setFocus(.properties)
        #expect(!PropertyRow.timeout.isChanged(in: state))
        Fixtures.press([.key(KeyEvent(.enter)), .key(.ctrl("u"))] + Fixtures.typing("5") + [.key(KeyEvent(.enter))], into: &state)
        #expect(state.observed.timeoutInterval == 5)
        #expect(PropertyRow.timeout.isChanged(in: state))
        Fixtures.press([.key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(KeyEvent(.enter))], into: &state)
        #expect(state.observed.httpShouldHandleCookies == false)
        guard case let .request(request, _) = state.preview else {
            Issue.record("no request")
            return
        }
        #expect(request.properties.timeoutInterval == 5)
        #expect(request.properties.httpShouldHandleCookies == false)
        Fixtures.press([.key(.char("x"))], into: &state)
        #expect(state.observed.httpShouldHandleCookies == nil)
    }

    @Test func sendingGivesAnEffectAndTheResultFillsTheResponse() throws {
        var state = Fixtures.welcome()
        Fixtures.send(&state, body: Fixtures.userJSON)
        #expect(state.exchange?.phase == .finished)
        #expect(state.status == StatusMessage("200 OK in 12.0 ms", .success))
        let document = try #require(state.bodyDocument)
        let lines = (0..<document.rowCount).map(document.text)
        #expect(lines.first == "{")
        #expect(lines.contains("  \"name\": \"Ada Lovelace\","))
        #expect(lines.contains("  \"email\": null,"), "nulls are kept unless the serializer is asked to remove them")
    }

    @Test func aValidationErrorShowsItsChain() {
        var state = Fixtures.welcome()
        state.responseSerializer = .json
        Fixtures.send(&state, status: 404, contentType: "text/html", body: "<h1>Not found</h1>")
        let header = state.responseHeaderLines.map { $0.map(\.text).joined() }
        #expect(header[0].hasPrefix("404 Not Found"))
        #expect(header.contains { $0.hasPrefix("✗ Request failed: not found (404)") })
        #expect(header.contains { $0.contains("↳ Request failed: unacceptable content-type: text/html") })
        #expect(state.status?.kind == .warning)
    }

    @Test func progressEventsMoveTheMeterWithARateAndAnETA() {
        var state = Fixtures.welcome()
        let effects = state.update(.input(.key(KeyEvent(.function(5)))))
        guard case let .send(id, _, _)? = effects.first else {
            Issue.record("no send")
            return
        }
        _ = state.update(.task(exchange: id, .downloadProgress(TransferProgress(completed: 0, expected: 4_000)), at: 1.0))
        _ = state.update(.task(exchange: id, .downloadProgress(TransferProgress(completed: 1_000, expected: 4_000)), at: 2.0))
        let meter = state.exchange!.download
        #expect(meter.rate == 1_000)
        #expect(meter.secondsLeft == 3)
        #expect(ProgressPane.text(progress: meter.progress!, meter: meter, outcome: .running) == " 25%  1000 B / 3.9 KiB  1000 B/s  ETA 3 s")
        // A second send while one runs is refused; ctrl+g cancels.
        #expect(state.update(.input(.key(.ctrl("r")))).isEmpty)
        let cancel = state.update(.input(.key(.ctrl("g"))))
        guard case .cancel(exchange: id)? = cancel.first else {
            Issue.record("no cancel effect")
            return
        }
        #expect(state.exchange?.phase == .cancelled)
    }

    @Test func eventsFromAnOlderSendAreIgnored() {
        var state = Fixtures.welcome()
        Fixtures.send(&state, body: "{}")
        let before = state.exchange?.result?.data
        _ = state.update(.task(exchange: 99, .completed(Fixtures.result(for: state.exchange!.request, status: 500, contentType: "text/plain", body: "x")), at: 1))
        #expect(state.exchange?.result?.data == before)
    }

    @Test func focusCyclesThroughThePanesAndQuestionMarkOpensHelpOnlyOutsideTextFields() {
        var state = Fixtures.welcome()
        Fixtures.press([.key(.char("?"))], into: &state)
        #expect(state.modal == nil)
        #expect(state.urlField.text == "get?")
        // The Params tab's query fields come first, then its tree.
        Fixtures.press([.key(KeyEvent(.tab))], into: &state)
        #expect(state.focus == .query)
        Fixtures.press([.key(.char("?"))], into: &state)
        guard case .help? = state.modal else {
            Issue.record("no help")
            return
        }
        Fixtures.press([.key(KeyEvent(.escape)), .key(KeyEvent(.tab, .shift)), .key(KeyEvent(.tab, .shift))], into: &state)
        #expect(state.focus == .baseURL)
    }

    @Test func themesCycleAndQuitEndsTheLoop() {
        var state = Fixtures.welcome()
        Fixtures.press([.key(.ctrl("t"))], into: &state)
        #expect(state.theme.name == "light")
        let effects = Fixtures.press([.key(.ctrl("c"))], into: &state)
        #expect(state.shouldQuit)
        guard case .quit? = effects.first else {
            Issue.record("no quit effect")
            return
        }
    }

    @Test func aClickFocusesAPaneAndSelectsARow() {
        var state = Fixtures.welcome(width: 120, height: 40)
        // The parameters tree starts under the query fields' line inside the request box
        // (row 5 on screen), at row 6.
        Fixtures.press([.mouse(MouseEvent(.press(button: 1), x: 5, y: 8))], into: &state)
        #expect(state.focus == .parameters)
        #expect(state.parameters.selectedPath == [1])
        let layout = ScreenLayout(state)
        let headersTab = layout.requestTabRanges[0]
        Fixtures.press([.mouse(MouseEvent(.press(button: 1), x: headersTab.lowerBound, y: layout.requestBox!.y))], into: &state)
        #expect(state.requestTab == .headers && state.focus == .headers)
    }

    @Test func multipartSendsAtPathValuesAsFiles() throws {
        let directory = try TestSupportDirectory()
        var state = Fixtures.welcome()
        state.method = "POST"
        state.serializer = .multipart
        state.parameters = TreeEditor(root: TreeNode(key: "", value: .object, children: [
            TreeNode(key: "note", value: .string("hi")),
            TreeNode(key: "upload", value: .string("@" + directory.file)),
        ]))
        state.refreshPreview()
        state.readPreviewFiles()
        let text = previewText(state)
        #expect(text.contains("Content-Disposition: form-data; name=\"upload\"; filename=\"hello.txt\""))
        #expect(text.contains("Content-Disposition: form-data; name=\"note\""))
    }
}

/// A temporary file for the multipart test.
struct TestSupportDirectory {
    let directory: TestSupport.TemporaryDirectory
    let file: String

    init() throws {
        directory = try TestSupport.TemporaryDirectory()
        file = try directory.write("hello.txt", Array("hello\n".utf8))
    }
}

@Suite("The external editor")
struct ExternalEditorTests {
    @Test func theEditorsTextComesBackAndAFailingEditorChangesNothing() {
        let edited = AppRunner.runEditor("{\"a\": 1}", fileExtension: "json", environment: ["EDITOR": "sed -i s/1/2/"])
        #expect((try? edited.get()) == "{\"a\": 2}")
        let failed = AppRunner.runEditor("{}", fileExtension: "json", environment: ["VISUAL": "false"])
        guard case let .failure(error) = failed else {
            Issue.record("a failing editor was taken as a success")
            return
        }
        #expect(error.message.contains("exited with status 1"))
    }

    @Test func editedTextIsAppliedToTheParameters() {
        var state = Fixtures.welcome()
        _ = state.update(.editorFinished("{\"q\": \"tea\"}"))
        #expect(state.focus == .body)
        #expect(AppState.parameterValue(state.parameters.root) == .dictionary(["q": .string("tea")]))
        _ = state.update(.editorFinished("{oops"))
        #expect(state.body.text == "{oops")
        #expect(state.status?.kind == .error)
    }
}
