import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanSessions
@testable import TincanTUI

/// Numbers a user might type that a field must refuse.
private let hostileNumbers = ["inf", "-inf", "nan", "1e308", "-0", "99999999999999999999", "-5", "1e17", "1e300"]

/// The error for `text` in `range`: NaN is not a number, the rest is out of range (every one
/// of the hostile numbers is outside the TUI's ranges).
private func expectedError(_ range: NumericRange, _ text: String) -> String {
    text == "nan"
        ? "\(range.name): 'nan' is not a number; expected \(range.expected)" + (range.examples.isEmpty ? "" : ", such as \(range.examples)")
        : "\(range.name): \(text) is out of range (\(range.expected))"
}

@Suite("Numbers typed in the TUI are checked before anything is applied")
struct NumberInputTests {
    static func run(_ line: String, in state: inout AppState) -> [Effect] {
        Fixtures.press([.key(.alt("x"))] + Fixtures.typing(line) + [.key(KeyEvent(.enter))], into: &state)
    }

    @Test("':set timeout' and ':set upload' refuse every hostile number, keep the line, and change nothing")
    func setRefusesHostileNumbers() {
        for (property, range) in [("timeout", NumericRange.timeout), ("upload", NumericRange.uploadRate.named("upload"))] {
            for text in hostileNumbers {
                var state = Fixtures.welcome()
                _ = Self.run("set \(property) \(text)", in: &state)
                let suffix = property == "upload" ? " (or off)" : ""
                #expect(state.commandLine?.error == expectedError(range, text) + suffix, "set \(property) \(text)")
                #expect(state.commandLine?.field.text == "set \(property) \(text)")
                #expect(state.observed.timeoutInterval == nil)
                #expect(state.uploadBytesPerSecond == nil)
            }
        }
    }

    @Test("After a refused ':set timeout 1e17' the request still sends, with nothing lost")
    func aRefusedTimeoutLeavesASendableRequest() {
        var state = Fixtures.welcome()
        _ = Self.run("set timeout 1e17", in: &state)
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        let effects = Self.run("send", in: &state)
        guard case .send(_, let request, _)? = effects.first(where: { if case .send = $0 { true } else { false } }) else {
            Issue.record("send did not send: \(effects)")
            return
        }
        #expect(request.properties.timeoutInterval == RequestProperties().timeoutInterval)
    }

    @Test("The Props prompts for timeout, body limit and upload pace refuse every hostile number and stay open")
    func propertyPromptsRefuseHostileNumbers() throws {
        let rows: [(PropertyRow, NumericRange)] = [(.timeout, .timeout), (.maxBody, .bodySize), (.uploadLimit, NumericRange.uploadRate.named("upload"))]
        for (row, range) in rows {
            let downs = try #require(PropertyRow.allCases.firstIndex(of: row))
            for text in hostileNumbers {
                var state = Fixtures.welcome()
                state.setFocus(.properties)
                Fixtures.press(Array(repeating: .key(KeyEvent(.down)), count: downs) + [.key(KeyEvent(.enter)), .key(.ctrl("u"))]
                               + Fixtures.typing(text) + [.key(KeyEvent(.enter))], into: &state)
                guard case let .prompt(prompt)? = state.modal else {
                    Issue.record("the \(row) prompt closed on \(text)")
                    continue
                }
                #expect(prompt.error == expectedError(range, text), "\(row) \(text)")
                #expect(state.observed.timeoutInterval == nil)
                #expect(state.uploadBytesPerSecond == nil)
                #expect(state.maxBody == nil)
            }
        }
    }

    /// Opens the Props row `row` of the welcome request and answers its prompt with `text`.
    private func answer(_ row: PropertyRow, _ text: String?, in state: inout AppState) throws {
        let downs = try #require(PropertyRow.allCases.firstIndex(of: row))
        state.setFocus(.properties)
        var keys: [InputEvent] = Array(repeating: .key(KeyEvent(.down)), count: downs) + [.key(KeyEvent(.enter))]
        if let text { keys += [.key(.ctrl("u"))] + Fixtures.typing(text) + [.key(KeyEvent(.enter))] }
        Fixtures.press(keys, into: &state)
    }

    @Test("The Props body limit goes with the send and into the saved request")
    func bodyLimitRowIsSentAndSaved() throws {
        var state = Fixtures.welcome()
        try answer(.maxBody, "2k", in: &state)
        #expect(state.modal == nil)
        #expect(PropertyRow.maxBody.value(in: state) == "2k")
        #expect(state.editedSession.requests[0].response.maxBody == "2k")
        guard case let .send(_, _, plan)? = state.perform(.send).first else {
            Issue.record("send did not send")
            return
        }
        #expect(plan.options.maximumBodyBytes == 2000)
        var unlimited = Fixtures.welcome()
        try answer(.maxBody, "0", in: &unlimited)
        #expect(PropertyRow.maxBody.value(in: unlimited) == "no limit")
        guard case let .send(_, _, lifted)? = unlimited.perform(.send).first else {
            Issue.record("send did not send")
            return
        }
        #expect(lifted.options.maximumBodyBytes == nil)
        #expect(PropertyRow.maxBody.value(in: Fixtures.welcome()) == "256.0 MiB", "the default is shown")
    }

    @Test("The Props remove-nulls switch toggles, is saved, and removes nulls from the response")
    func removeNullsRowTogglesAndApplies() throws {
        var state = Fixtures.welcome()
        try answer(.removeNulls, nil, in: &state)
        #expect(state.removesNulls)
        #expect(PropertyRow.removeNulls.value(in: state) == "yes")
        #expect(state.editedSession.requests[0].response.removesNulls == true)
        guard case let .send(_, request, plan)? = state.perform(.send).first else {
            Issue.record("send did not send")
            return
        }
        let response = HTTPResponse(url: request.url, statusCode: 200, headers: HTTPHeaders([("Content-Type", "application/json")]))
        let serialized = plan.options.responseSerializer.serialize(response, data: Array(#"{"a":null,"b":1}"#.utf8), request: request)
        #expect(serialized.body == .json(JSONDocument(.dictionary(["b": .integer(1)]))), "\(serialized)")
    }
}

@Suite("The command-line parser checks numbers")
struct ReplNumberParsingTests {
    @Test("'set timeout' and 'set upload' with a hostile number are parse errors naming the range")
    func hostileNumbersAreParseErrors() {
        for text in hostileNumbers {
            #expect(throws: ReplError(expectedError(.timeout, text))) { try ReplCommand.parse("set timeout \(text)") }
            #expect(throws: ReplError(expectedError(NumericRange.uploadRate.named("upload"), text) + " (or off)")) { try ReplCommand.parse("set upload \(text)") }
        }
        #expect(throws: Never.self) { try ReplCommand.parse("set upload off") }
        #expect(throws: Never.self) { try ReplCommand.parse("set timeout 0.5") }
    }
}

@Suite("Props rows and the session's defaults")
struct PropsDefaultsTests {
    @Test("resetting the body limit goes back to the session's default, and the saved request inherits it")
    func resetInheritsTheSessionsDefault() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("d.tincan.yaml", Array("defaults:\n  response:\n    max-body: 0\nrequests:\n  - url: http://127.0.0.1:9/x\n    response:\n      max-body: 2k\n".utf8))
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        #expect(PropertyRow.maxBody.value(in: state) == "2k")
        state.setFocus(.properties)
        let downs = try #require(PropertyRow.allCases.firstIndex(of: .maxBody))
        Fixtures.press(Array(repeating: .key(KeyEvent(.down)), count: downs), into: &state)
        _ = state.perform(.resetProperty)
        #expect(PropertyRow.maxBody.value(in: state) == "no limit", "the session's default, not the built-in one")
        #expect(state.editedSession.requests[0].response.maxBody == nil, "inherited, not written again")
        guard case let .send(_, _, plan)? = state.perform(.send).first else {
            Issue.record("send did not send")
            return
        }
        #expect(plan.options.maximumBodyBytes == nil)
    }

    @Test("the acceptable-status prompt takes classes of codes, as session files do")
    func statusClassesInTheProps() throws {
        var state = Fixtures.welcome()
        state.setFocus(.properties)
        let downs = try #require(PropertyRow.allCases.firstIndex(of: .acceptableStatus))
        Fixtures.press(Array(repeating: .key(KeyEvent(.down)), count: downs) + [.key(KeyEvent(.enter)), .key(.ctrl("u"))]
                       + Fixtures.typing("2xx,304") + [.key(KeyEvent(.enter))], into: &state)
        #expect(state.modal == nil)
        #expect(state.acceptableStatusCodes.description == "200-299,304")
        let line = try ReplCommand.parse("accept status 4xx")
        #expect(line == .acceptStatus(try StatusCodeSet(parsing: "400-499")))
    }
}
