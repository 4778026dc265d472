import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanSessions
@testable import TincanTUI

/// The Checks tab, `y` on a response value, the Props rows of a request's own settings, the
/// request's flow on a send, and the variables view: driven through `update` as the keys would.
@Suite("Checks tab, request settings and variables")
struct ChecksTabTests {
    static let enter = InputEvent.key(KeyEvent(.enter))

    /// A state on a session parsed from `text` (a file that is never read: the workspace is given).
    static func state(_ text: String, width: Int = 80, height: Int = 24, path: String? = nil) throws -> AppState {
        var state = AppState(width: width, height: height)
        state.proxyEnvironment = ProxyEnvironment()
        state.open(Workspace(session: try Session.parse(text, path: path ?? "s.tincan.yaml"), path: path))
        return state
    }

    static let session = """
        base: http://127.0.0.1:8080/
        requests:
          - name: User
            url: anything/users/42
            assert:
              status: 200
              body:
                $.name: Ada
            capture:
              city: $.address.city
              missing: $.nowhere
        """

    /// A request whose one check passes when the name is Ada.
    static let flowSession = """
        base: http://127.0.0.1:8080/
        requests:
          - url: anything/users/42
            assert:
              body:
                $.name: Ada
        """

    /// Answers the send in flight (the last `.send` effect) with `body`.
    ///
    /// - Returns: The sends that follow (the flow's next), leaving out the history's effects.
    @discardableResult
    static func complete(_ effects: [Effect], in state: inout AppState, status: Int = 200, body: String = Fixtures.userJSON, at time: Double = 0.1) -> [Effect] {
        guard case let .send(id, request, plan)? = effects.last else {
            Issue.record("no send in \(effects)")
            return []
        }
        return state.update(.task(exchange: id, .completed(Fixtures.result(for: request, status: status, contentType: "application/json", body: body,
                                                                        serializer: plan.options.responseSerializer)), at: time))
            .filter { if case .send = $0 { true } else { false } }
    }

    static func text(_ state: inout AppState) -> String {
        Snapshot.text(Renderer.render(&state))
    }

    // MARK: - The tab

    @Test("F2 reaches the Checks tab, which lists the assertions then the captures in the session's words")
    func tabListsChecks() throws {
        var state = try Self.state(Self.session, width: 160, height: 40)
        state.setFocus(.parameters)
        for _ in RequestTab.allCases where state.requestTab != .checks { Fixtures.press([.key(KeyEvent(.function(2)))], into: &state) }
        #expect(state.requestTab == .checks)
        #expect(state.focus == .checks)
        let screen = Self.text(&state)
        #expect(screen.contains("· status 200"))
        #expect(screen.contains("· body $.name equals Ada"))
        #expect(screen.contains("· capture city: $.address.city"))
        #expect(state.checkRowCount == 4)
    }

    @Test("Tab titles that do not fit are cut short but the active one, and clicks follow what is drawn")
    func tabTitlesFit() throws {
        let titles = RequestTab.allCases.map(\.rawValue)
        let checksTab = titles.count - 1
        #expect(Tabs.fitted(titles, active: checksTab, width: 60) == titles)
        let narrow = Tabs.fitted(titles, active: checksTab, width: 31)
        #expect(narrow.last == "Checks")
        #expect(narrow.dropLast().allSatisfy { $0.count <= 5 } && narrow != titles)
        let bar = Tabs.separator(narrow, width: 31)
        #expect(narrow.map(TextWidth.of).reduce(0, +) + (narrow.count - 1) * TextWidth.of(bar) <= 31)
        var state = Fixtures.welcome(width: 80, height: 24)
        state.setFocus(.parameters)
        let screen = Self.text(&state)
        let layout = ScreenLayout(state)
        let box = try #require(layout.requestBox)
        let drawn = Tabs.fitted(titles, active: 1, width: box.width - 4)
        #expect(screen.contains(drawn.joined(separator: Tabs.separator(drawn, width: box.width - 4))))
        // A click on the last title opens the Checks tab.
        let checks = try #require(layout.requestTabRanges.last)
        state.handleMouse(MouseEvent(.press(button: 1), x: checks.lowerBound, y: box.y))
        #expect(state.requestTab == .checks)
    }

    @Test("An assertion added, sent, edited and sent again: ✗ with its reason, then ✓")
    func addSendEditSend() throws {
        var state = try Self.state(Self.session, width: 160, height: 40)
        state.switchRequestTab(to: .checks)
        Fixtures.press([.key(.char("a"))] + Fixtures.typing("body $.address.city equals Paris") + [Self.enter], into: &state)
        #expect(state.modal == nil)
        let path = try BodyPath(parsing: "$.address.city")
        #expect(state.selectedRequest.assertions.last == .body(path, Predicate([.equals(.string("Paris"))])))
        #expect(state.checkList.selected == 2)

        Self.complete(state.update(.input(.key(.ctrl("r")))), in: &state)
        var screen = Self.text(&state)
        #expect(screen.contains("✓ status 200"))
        #expect(screen.contains("✗ body $.name equals Ada"))
        #expect(screen.contains("✗ body $.address.city equals Paris"))
        #expect(screen.contains("✗ is \"London\", expected \"Paris\""), "the selected row's reason, under the list")
        #expect(screen.contains("✓ capture city: $.address.city = \"London\""))
        #expect(screen.contains("✗ capture missing: $.nowhere"))

        // Edit the selected line: the prompt holds it as written.
        Fixtures.press([.key(.char("e"))], into: &state)
        guard case .prompt(let prompt)? = state.modal else { throw TestFailure("e opened no prompt") }
        #expect(prompt.dialog.field?.text == "body $.address.city equals Paris")
        Fixtures.press([.key(.ctrl("u"))] + Fixtures.typing("body $.address.city equals London") + [Self.enter], into: &state)
        #expect(state.selectedRequest.assertions.count == 3)
        screen = Self.text(&state)
        #expect(screen.contains("· body $.address.city equals London"), "an edited line has no verdict until it is sent")

        Self.complete(state.update(.input(.key(.ctrl("r")))), in: &state)
        screen = Self.text(&state)
        #expect(screen.contains("✓ body $.address.city equals London"))
        #expect(screen.contains("✓ passed on the last send"))
        #expect(state.editedSession.requests[0].assertions.last == .body(path, Predicate([.equals(.string("London"))])))
    }

    @Test("A line the session reader refuses keeps the prompt open with the reader's words and the column")
    func badLinesAreRefusedInTheReadersWords() throws {
        var state = try Self.state(Self.session)
        state.switchRequestTab(to: .checks)
        Fixtures.press([.key(.char("a"))] + Fixtures.typing("body $.id count lots") + [Self.enter], into: &state)
        guard case .prompt(let prompt)? = state.modal else { throw TestFailure("the prompt closed") }
        let readerError: String
        do {
            _ = try Session.parse("requests:\n  - url: x\n    assert:\n      body:\n        $.id: {count: lots}\n", path: "s.yaml")
            throw TestFailure("the reader took count: lots")
        } catch let error as ConfigFileError {
            readerError = error.message
        }
        #expect(prompt.error == "column 17: " + readerError)
        #expect(state.selectedRequest.assertions.count == 2)

        // A capture of a name already captured is refused too.
        Fixtures.press([.key(KeyEvent(.escape)), .key(.char("c"))] + Fixtures.typing("city: {header: X-City}") + [Self.enter], into: &state)
        guard case .prompt(let again)? = state.modal else { throw TestFailure("the capture prompt closed") }
        #expect(again.error == "this request already captures city")
    }

    @Test("Captures are added, edited in place and removed; d removes the selected line")
    func capturesAreEdited() throws {
        var state = try Self.state(Self.session)
        state.switchRequestTab(to: .checks)
        Fixtures.press([.key(.char("c"))] + Fixtures.typing("etag: {header: ETag}") + [Self.enter], into: &state)
        #expect(Array(state.selectedRequest.captures.keys) == ["city", "missing", "etag"])
        state.checkList.select(2, count: state.checkRowCount)
        Fixtures.press([.key(.char("e")), .key(.ctrl("u"))] + Fixtures.typing("town: $.address.city") + [Self.enter], into: &state)
        #expect(Array(state.selectedRequest.captures.keys) == ["town", "missing", "etag"], "renamed where it stood")
        Fixtures.press([.key(.char("d"))], into: &state)
        #expect(Array(state.selectedRequest.captures.keys) == ["missing", "etag"])
        state.checkList.select(0, count: state.checkRowCount)
        Fixtures.press([.key(.char("d"))], into: &state)
        #expect(state.selectedRequest.assertions == [.body(try BodyPath(parsing: "$.name"), Predicate([.equals(.string("Ada"))]))])
    }

    @Test("Checks edited on one request stay with it when another is opened and the panes are committed")
    func checksSurviveSwitchingRequests() throws {
        var state = try Self.state(Self.session + "\n  - url: other\n")
        state.switchRequestTab(to: .checks)
        Fixtures.press([.key(.char("a"))] + Fixtures.typing("status 201") + [Self.enter], into: &state)
        state.urlField = TextField("anything/users/43")
        state.loadRequest(1)
        #expect(state.checkRowCount == 0)
        state.loadRequest(0)
        #expect(state.selectedRequest.assertions.last == .status("201"))
        #expect(state.selectedRequest.url == "anything/users/43")
    }

    // MARK: - y on a response value

    @Test("y on a response value offers to copy its path or to assert it equals its value, pre-filled")
    func yOffersAnAssertion() throws {
        var state = try Self.state(Self.session)
        Self.complete(state.update(.input(.key(.ctrl("r")))), in: &state)
        state.setFocus(.response)
        Fixtures.press([.key(.char("/"))] + Fixtures.typing("city") + [Self.enter, .key(.char("y"))], into: &state)
        guard case .picker(let picker)? = state.modal else { throw TestFailure("y opened no picker") }
        #expect(picker.options == ["Copy the path", "Add an assertion on this path: body $.address.city equals London"])
        // Copying is the first choice.
        let copied = Fixtures.press([Self.enter], into: &state)
        guard case .copyToClipboard("$.address.city")? = copied.first else { throw TestFailure("enter gave \(copied)") }

        Fixtures.press([.key(.char("y")), .key(KeyEvent(.down)), Self.enter], into: &state)
        guard case .prompt(let prompt)? = state.modal else { throw TestFailure("no assertion prompt") }
        #expect(prompt.dialog.field?.text == "body $.address.city equals London")
        Fixtures.press([Self.enter], into: &state)
        #expect(state.selectedRequest.assertions.last == .body(try BodyPath(parsing: "$.address.city"), Predicate([.equals(.string("London"))])))

        // A number keeps its type; a container is written as a flow value.
        Fixtures.press([.key(.char("/"))] + Fixtures.typing("score") + [Self.enter, .key(.char("y"))], into: &state)
        guard case .picker(let number)? = state.modal else { throw TestFailure("y opened no picker") }
        #expect(number.options.last == "Add an assertion on this path: body $.score equals 99.5")
        Fixtures.press([.key(KeyEvent(.escape)), .key(.char("/"))] + Fixtures.typing("tags") + [Self.enter, .key(.char("y"))], into: &state)
        guard case .picker(let array)? = state.modal else { throw TestFailure("y opened no picker") }
        #expect(array.options.last == "Add an assertion on this path: body $.tags equals [math, engines]")
    }

    // MARK: - Saving

    static let written = """
        name: Round trip
        base: http://127.0.0.1:8080/
        requests:
          - name: One
            url: get
            capture:
              id: $.json.id
              etag: {header: ETag}
            assert:
              status: 2xx
              headers:
                Content-Type: {contains: json}
              body:
                $.json.name: Ada
                $.json.tags: {type: array, count: 2}
              request:
                method: GET
            retry: 2
          - name: Two
            url: post
            method: POST
            assert:
              status: 200
        """

    @Test("Loading and saving unchanged gives the same bytes; editing one check changes only its line")
    func savingRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/round.tincan.yaml"
        // The file as Tincan writes it.
        _ = try SessionFile.save(try Session.parse(Self.written, path: path), to: path)
        let original = try String(contentsOfFile: path, encoding: .utf8)
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        state.saveNow()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == original)

        state.switchRequestTab(to: .checks)
        state.checkList.select(2, count: state.checkRowCount)
        Fixtures.press([.key(.char("e")), .key(.ctrl("u"))] + Fixtures.typing("body $.json.name equals Grace") + [Self.enter], into: &state)
        #expect(state.showsModified)
        state.saveNow()
        let edited = try String(contentsOfFile: path, encoding: .utf8)
        let before = original.split(separator: "\n", omittingEmptySubsequences: false)
        let after = edited.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(before.count == after.count)
        let changed = zip(before, after).filter { $0 != $1 }
        #expect(changed.map { "\($0.0) → \($0.1)" } == ["        $.json.name: Ada →         $.json.name: Grace"])
    }

    // MARK: - Props: the request's own settings

    /// Opens the Props row `row` and answers its prompt with `text`.
    static func answer(_ row: PropertyRow, _ text: String, in state: inout AppState) throws {
        let downs = try #require(PropertyRow.allCases.firstIndex(of: row))
        state.setFocus(.properties)
        state.propertyList = ListState()
        Fixtures.press(Array(repeating: .key(KeyEvent(.down)), count: downs) + [Self.enter, .key(.ctrl("u"))] + Fixtures.typing(text) + [Self.enter], into: &state)
    }

    @Test("Props edits the request's redirects, HTTP version, accepted types and flow keys, saved as the format writes them")
    func requestSettingsRows() throws {
        var state = try Self.state(Self.session)
        try Self.answer(.pollRetry, "3", in: &state)
        try Self.answer(.retryInterval, "250ms", in: &state)
        try Self.answer(.delay, "2s", in: &state)
        try Self.answer(.repeatCount, "2", in: &state)
        try Self.answer(.maxRedirects, "4", in: &state)
        try Self.answer(.acceptTypes, "application/json, text/*", in: &state)
        try Self.answer(.maxTime, "1500ms", in: &state)
        #expect(state.modal == nil)
        #expect(state.selectedRequest.maxTime == 1.5)
        #expect(PropertyRow.maxTime.value(in: state) == "1.5 s")
        var flow = RequestFlow()
        flow.retry = 3
        flow.retryInterval = 0.25
        flow.delay = 2
        flow.repeatCount = 2
        flow.maxRedirects = 4
        #expect(state.selectedRequest.flow == flow)
        #expect(PropertyRow.pollRetry.value(in: state) == "3, every 0.25 s")
        #expect(PropertyRow.delay.value(in: state) == "2 s")
        #expect(PropertyRow.acceptTypes.value(in: state) == "application/json, text/*")

        // The HTTP version is a picker; follow-redirects flips, dropping a maximum it cannot have.
        state.propertyList.select(try #require(PropertyRow.allCases.firstIndex(of: .httpVersion)), count: PropertyRow.allCases.count)
        Fixtures.press([Self.enter, .key(KeyEvent(.down)), Self.enter], into: &state)
        #expect(state.selectedRequest.httpVersion == .http1_1)
        state.propertyList.select(try #require(PropertyRow.allCases.firstIndex(of: .followRedirects)), count: PropertyRow.allCases.count)
        Fixtures.press([Self.enter], into: &state)
        #expect(state.selectedRequest.flow.followRedirects == false)
        #expect(state.selectedRequest.flow.maxRedirects == nil)
        #expect(PropertyRow.maxRedirects.value(in: state) == "0 (not followed)")

        let text = state.editedSession.yamlText()
        for line in ["    follow-redirects: false", "    retry: 3", "    retry-interval: 250ms", "    delay: 2s", "    repeat: 2", "    http-version: \"1.1\"", "    max-time: 1500ms", "      accept-type: [application/json, text/*]"] {
            #expect(text.contains(line + "\n"), "\(line) in\n\(text)")
        }
        let reread = try Session.parse(text, path: "s.yaml").requests[0]
        #expect(reread.flow == state.selectedRequest.flow)

        // x resets a row to the session's.
        state.propertyList.select(try #require(PropertyRow.allCases.firstIndex(of: .delay)), count: PropertyRow.allCases.count)
        Fixtures.press([.key(.char("x"))], into: &state)
        #expect(state.selectedRequest.flow.delay == nil)
    }

    @Test("A request setting out of range gets the session reader's words, and the prompt stays", arguments: [
        (PropertyRow.pollRetry, "retry", "10001"), (.repeatCount, "repeat", "0"), (.delay, "delay", "2d"), (.maxRedirects, "max-redirects", "-1"),
        (.retryInterval, "retry-interval", "90000"), (.maxTime, "max-time", "0"),
    ])
    func settingsOutOfRangeAreRefused(_ row: PropertyRow, _ key: String, _ value: String) throws {
        var state = try Self.state(Self.session)
        try Self.answer(row, value, in: &state)
        guard case .prompt(let prompt)? = state.modal else { throw TestFailure("\(row) took \(value)") }
        do {
            _ = try Session.parse("requests:\n  - url: x\n    \(key): \(value)\n", path: "s.yaml")
            throw TestFailure("the reader took \(key): \(value)")
        } catch let error as ConfigFileError {
            #expect(prompt.error == error.message)
        }
        #expect(state.selectedRequest.flow == RequestFlow())
    }

    // MARK: - The flow on a send

    @Test("delay: waits before the send, retry: sends again while the checks fail, then stops when they pass")
    func delayAndRetry() throws {
        var state = try Self.state(Self.flowSession + "\n    delay: 1s\n    retry: 2\n    retry-interval: 500ms\n")
        state.now = 10
        let first = state.update(.input(.key(.ctrl("r"))))
        #expect(first.isEmpty, "nothing is sent during the delay")
        #expect(state.status?.text.hasPrefix("Waiting 1 s (delay:)") == true)
        #expect(state.update(.tick(at: 10.5)).isEmpty)
        let sent = state.update(.tick(at: 11))
        guard case .send(let id, _, _)? = sent.first else { throw TestFailure("no send after the delay: \(sent)") }
        // A failing check: sent again after the retry interval, as a new task.
        #expect(Self.complete(sent, in: &state, body: #"{"name": "Bob"}"#, at: 11.1).isEmpty)
        #expect(state.exchange?.phase == .sending)
        #expect(state.status?.text.contains("next: send 2 of 3 (retry:) in 0.5 s") == true)
        let again = state.update(.tick(at: 11.6))
        guard case .send(let second, _, _)? = again.first else { throw TestFailure("no retry: \(again)") }
        #expect(second != id)
        // The old task's late event is ignored.
        #expect(state.update(.task(exchange: id, .resumed, at: 11.7)).isEmpty)
        #expect(Self.complete(again, in: &state, body: Fixtures.userJSON.replacingOccurrences(of: "Ada Lovelace", with: "Ada"), at: 11.8).isEmpty)
        #expect(state.exchange?.phase == .finished)
        #expect(state.exchange?.flow.attempt == 2)
        #expect(state.update(.tick(at: 20)).isEmpty)
    }

    @Test("retry: stops after its last send; repeat: runs again, each run reported")
    func retryLimitAndRepeat() throws {
        var state = try Self.state(Self.flowSession + "\n    retry: 1\n    retry-interval: 0\n    repeat: 2\n")
        var effects = state.update(.input(.key(.ctrl("r"))))
        // Run 1: two failing sends.
        effects = Self.complete(effects, in: &state, body: #"{"name": "Bob"}"#)
        #expect(state.status?.text.hasPrefix("[1/2]") == true)
        guard case .send? = effects.first else { throw TestFailure("no retry: \(effects)") }
        effects = Self.complete(effects, in: &state, body: #"{"name": "Bob"}"#)
        #expect(state.status?.text.contains("next: run 2 of 2 (repeat:)") == true)
        guard case .send? = effects.first else { throw TestFailure("no second run: \(effects)") }
        #expect(state.exchange?.flow.run == 2)
        #expect(state.exchange?.flow.attempt == 1)
        effects = Self.complete(effects, in: &state, body: Fixtures.userJSON.replacingOccurrences(of: "Ada Lovelace", with: "Ada"))
        #expect(effects.isEmpty)
        #expect(state.status?.text.hasPrefix("[2/2] 200") == true)
        #expect(state.history.count == 3, "every send is in the history")
    }

    @Test("Each run of repeat: is built again with what the last one captured")
    func repeatRebuildsWithCaptures() throws {
        var state = try Self.state("""
            base: http://127.0.0.1:8080/
            variables:
              n: 0
            requests:
              - url: anything/{{n}}
                capture:
                  n: $.id
                repeat: 2
            """)
        let first = state.update(.input(.key(.ctrl("r"))))
        guard case .send(_, let sent, _)? = first.last else { throw TestFailure("no send: \(first)") }
        #expect(sent.url.string.hasSuffix("/anything/0"))
        let second = Self.complete(first, in: &state)
        guard case .send(_, let again, _)? = second.last else { throw TestFailure("no second run: \(second)") }
        #expect(again.url.string.hasSuffix("/anything/42"))
    }

    @Test("ctrl+g cancels a send waiting for its delay")
    func cancelDuringDelay() throws {
        var state = try Self.state(Self.flowSession + "\n    delay: 5s\n")
        #expect(state.update(.input(.key(.ctrl("r")))).isEmpty)
        Fixtures.press([.key(.ctrl("g"))], into: &state)
        #expect(state.exchange?.phase == .cancelled)
        #expect(state.update(.tick(at: 60)).isEmpty)
    }

    @Test("assert: request: is checked on the request as built, shown ✗ with its reason, and not retried")
    func requestChecksInTheTUI() throws {
        var state = try Self.state("""
            base: http://127.0.0.1:8080/
            requests:
              - url: get
                retry: 3
                assert:
                  request:
                    method: POST
                    url: {ends-with: /get}
            """, width: 160, height: 40)
        state.switchRequestTab(to: .checks)
        let effects = Self.complete(state.update(.input(.key(.ctrl("r")))), in: &state)
        #expect(effects.isEmpty, "a request that fails its own checks is not sent again")
        let screen = Self.text(&state)
        #expect(screen.contains("✗ request method equals POST"))
        #expect(screen.contains("✓ request url ends-with /get"))
        #expect(screen.contains("✗ is \"GET\", expected \"POST\""))
        #expect(state.status?.text.contains("1 of 3 checks failed; request method: is \"GET\", expected \"POST\"") == true)
    }

    // MARK: - Variables

    static let variablesSession = """
        variables:
          host: http://127.0.0.1:8080
          api: "{{host}}/v1"
          api_token: "{{$env.TINCAN_TEST_TOKEN}}"
          password: hunter2
        environments:
          staging:
            host: http://127.0.0.1:9090
        requests:
          - url: "{{api}}/x"
        """

    @Test("alt+v lists every variable, its value and where it comes from; secrets hidden until v")
    func variablesView() throws {
        var state = try Self.state(Self.variablesSession, width: 100, height: 30)
        state.workspace.environment = "staging"
        state.workspace.overrides = ["user": "ada"]
        state.workspace.captured = ["id": .integer(7)]
        Fixtures.press([.key(.alt("v"))], into: &state)
        guard case .message(let dialog)? = state.modal else { throw TestFailure("alt+v opened no dialog") }
        let lines = dialog.lines.map { $0.map(\.text).joined() }
        #expect(dialog.title == "Variables (6) · environment staging")
        #expect(lines.contains("host = http://127.0.0.1:9090"))
        #expect(lines.contains("  from environment staging, over file"))
        #expect(lines.contains("api = http://127.0.0.1:9090/v1"))
        #expect(lines.contains("password = ••••••"))
        #expect(lines.contains("  from file; reads $env.TINCAN_TEST_TOKEN"))
        #expect(lines.contains("user = ada"))
        #expect(lines.contains("  from --var"))
        #expect(lines.contains("id = 7"))
        #expect(lines.contains("  from capture"))

        // A value that reads $env is hidden as a secret is.
        state.launch.environment = ["TINCAN_TEST_TOKEN": "s3cret"]
        state.showVariables()
        guard case .message(let withToken)? = state.modal else { throw TestFailure("no view") }
        #expect(withToken.lines.map { $0.map(\.text).joined() }.contains("api_token = ••••••"))

        Fixtures.press([.key(.char("v"))], into: &state)
        #expect(state.revealsSecrets)
        guard case .message(let revealed)? = state.modal else { throw TestFailure("r closed the view") }
        #expect(revealed.hint.hasPrefix("v hides secrets"))
        #expect(revealed.lines.map { $0.map(\.text).joined() }.contains("password = hunter2"))
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        #expect(state.modal == nil)
    }
}

/// A failure that stops a test with a reason.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
