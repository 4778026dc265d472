import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
@testable import TincanSessions

@Suite("WebSocket requests in sessions: messages sent, frames checked as stream events")
struct WebSocketReplayTests {
    static let session = """
        base: "{{server}}/"
        variables:
          who: Ada
        requests:
          - name: echo
            url: ws
            websocket:
              messages: [hello, "hi {{who}}", '{"n": 3}']
            capture:
              last: {stream-last: true}
            assert:
              status: 101
              stream-events: 3
              stream-first: hello
              stream-last: {filters: [{regex: '"n": (\\d+)'}, to-int], equals: 3}
          - name: checks that fail say what came
            url: "{{server}}/ws"
            websocket:
              messages: [one]
            assert:
              stream-events: 2
              stream-first: two
          - name: waits for no reply when receive is 0
            url: ws
            websocket:
              messages: [ping]
              receive: 0
        """

    @Test("replay sends the messages, waits for the echoes, and checks and captures them; failing checks name what came")
    func replayChecksFrames() async throws {
        let session = try Session.parse(Self.session, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            let outcomes = report.outcomes
            #expect(outcomes.count == 3)
            let first = try #require(outcomes.first)
            #expect(first.state == .passed, "\(first.checks.filter { !$0.passed }.map { "\($0.name): \($0.failure ?? "")" }) \(first.error ?? "")")
            #expect(first.url.hasPrefix("ws://127.0.0.1:"), "\(first.url)")
            #expect(first.captures.first { $0.name == "last" }?.value == .string("{\"n\": 3}"))
            let second = outcomes[1]
            #expect(second.state == .failed)
            let failures = second.checks.filter { !$0.passed }.map { "\($0.name): \($0.failure ?? "")" }
            #expect(failures.count == 2, "\(failures) \(second.error ?? "")")
            #expect(failures.first?.contains("is 1, expected 2") == true, "\(failures)")
            #expect(failures.last?.contains("one") == true, "\(failures)")
            #expect(outcomes[2].state == .passed, "\(outcomes[2].error ?? "")")
        }
    }

    @Test("a server that stays silent fails the request within max-time, the frames it did send kept")
    func silentServerTimesOut() async throws {
        let session = try Session.parse("""
            requests:
              - url: "{{server}}/ws"
                max-time: 0.5
                websocket:
                  messages: [only one]
                  receive: 2
                assert:
                  stream-events: 1
            """, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            let outcome = try #require(report.outcomes.first)
            #expect(outcome.state == .failed)
            #expect(outcome.error?.contains("1 of 2 WebSocket messages came back within 0.5") == true, "\(outcome.error ?? "")")
        }
    }

    @Test("websocket: round-trips through the writer; a body beside it, a method other than GET and a bad receive are refused at their line")
    func keysRoundTripAndErrors() throws {
        let session = try Session.parse(Self.session, path: "s.tincan.yaml")
        #expect(session.requests[0].webSocket == SavedWebSocket(messages: [.text("hello"), .text("hi {{who}}"), .text("{\"n\": 3}")]))
        #expect(session.requests[2].webSocket?.expectedMessages == 0)
        #expect(try Session.parse(session.yamlText(), path: "s.tincan.yaml") == session)
        let withBody = #expect(throws: (any Error).self) {
            try Session.parse("requests:\n  - url: ws://x/ws\n    body: text\n    websocket:\n      messages: [a]\n", path: "s.yaml")
        }
        #expect("\(withBody.map { "\($0)" } ?? "")".contains("not a body"))
        let post = #expect(throws: (any Error).self) {
            try Session.parse("requests:\n  - url: ws://x/ws\n    method: POST\n    websocket:\n      messages: [a]\n", path: "s.yaml")
        }
        #expect("\(post.map { "\($0)" } ?? "")".contains("GET handshake"))
        let receive = #expect(throws: (any Error).self) {
            try Session.parse("requests:\n  - url: ws://x/ws\n    websocket:\n      receive: -1\n", path: "s.yaml")
        }
        #expect("\(receive.map { "\($0)" } ?? "")".contains("s.yaml:4"), "\(String(describing: receive))")
    }

    @Test("a binary message is written {base64: …}, sent as a binary frame and echoed as one; {text: …} is a text message")
    func binaryMessages() async throws {
        let text = """
            requests:
              - url: "{{server}}/ws"
                websocket:
                  messages: [{base64: AAEC/w==}, {text: "hi {{who}}"}]
                assert:
                  stream-events: 2
                  stream-first: AAEC/w==
                  stream-last: hi Ada
            """
        let session = try Session.parse(text, path: "s.tincan.yaml")
        #expect(session.requests[0].webSocket?.messages == [.binary([0, 1, 2, 255]), .text("hi {{who}}")])
        #expect(try Session.parse(session.yamlText(), path: "s.tincan.yaml") == session)
        #expect(session.yamlText().contains("- base64: AAEC/w=="), "\(session.yamlText())")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server) { $0.variables["who"] = "Ada" }
            let outcome = try #require(report.outcomes.first)
            #expect(outcome.state == .passed, "\(outcome.checks.filter { !$0.passed }.map { "\($0.name): \($0.failure ?? "")" }) \(outcome.error ?? "")")
        }
        for (bad, says) in [("[{base64: '*'}]", "expected base64 bytes"), ("[{base64: AA==, text: a}]", "exactly one of text: or base64:"), ("[{hex: 00}]", "hex")] {
            let error = #expect(throws: (any Error).self) {
                try Session.parse("requests:\n  - url: ws://x/ws\n    websocket:\n      messages: \(bad)\n", path: "s.yaml")
            }
            #expect("\(error.map { "\($0)" } ?? "")".contains(says) && "\(error.map { "\($0)" } ?? "")".contains("s.yaml:4"), "\(String(describing: error))")
        }
    }

    @Test("a cookie the 101 sets is in the session's jar: the next request sends it; with cookies off nothing is stored")
    func upgradeCookieReachesTheJar() async throws {
        let session = try Session.parse("""
            requests:
              - url: "{{server}}/ws?set-cookie=flavour%3Doatmeal"
                websocket:
                  messages: [hi]
              - url: "{{server}}/ws?set-cookie=skipped%3D1"
                properties:
                  cookies: false
                websocket:
                  messages: [hi]
              - url: "{{server}}/cookies"
                assert:
                  body:
                    $.cookies.flavour: oatmeal
                    $.cookies.skipped:
                      exists: false
            """, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            #expect(report.outcomes.count == 3)
            for outcome in report.outcomes {
                #expect(outcome.state == .passed, "\(outcome.checks.filter { !$0.passed }.map { "\($0.name): \($0.failure ?? "")" }) \(outcome.error ?? "")")
            }
        }
    }

    @Test("a WebSocket request under an OAuth 2.0 grant sends its Bearer token with the handshake; a token that cannot be had fails it unsent")
    func oauth2BearerOnTheHandshake() async throws {
        let session = try Session.parse("""
            defaults:
              auth:
                type: oauth2
                grant: client-credentials
                token-url: "{{server}}/oauth/token"
                client-id: tincan-demo
                client-secret: demo-secret
            requests:
              - url: "{{server}}/ws"
                websocket:
                  messages: [hi]
              - name: a wrong secret fails before the handshake
                url: "{{server}}/ws"
                auth:
                  type: oauth2
                  grant: client-credentials
                  token-url: "{{server}}/oauth/token"
                  client-id: tincan-demo
                  client-secret: wrong
                websocket:
                  messages: [hi]
            """, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            let outcomes = report.outcomes
            #expect(outcomes.count == 2)
            #expect(outcomes.first?.state == .passed, "\(outcomes.first.map { "\($0.checks.filter { !$0.passed }.map { "\($0.name): \($0.failure ?? "")" }) \($0.error ?? "")" } ?? "")")
            #expect(outcomes.last?.state == .failed)
            #expect(outcomes.last?.error?.contains("invalid_client") == true, "\(outcomes.last?.error ?? "")")
            let heads = server.received.all.map { String(decoding: $0.head, as: UTF8.self) }
            #expect(heads.map { $0.components(separatedBy: "\r\n").first ?? "" } == ["POST /oauth/token HTTP/1.1", "GET /ws HTTP/1.1", "POST /oauth/token HTTP/1.1"], "\(heads)")
            #expect(heads[1].contains("\r\nAuthorization: Bearer at-"), "\(heads[1])")
        }
    }

    @Test("the frame log keeps the newest frames within its capacity and counts every one")
    func frameLogIsBounded() {
        var log = WebSocketFrameLog(capacity: 3)
        for index in 0..<10 { log.append(.text("m\(index)", index.isMultiple(of: 2) ? .sent : .received)) }
        #expect(log.frames.count == 3 && log.total == 10 && log.dropped == 7)
        #expect(log.receivedMessages == 5)
        #expect(log.firstReceived?.text == "m1" && log.lastReceived?.text == "m9")
        #expect(log.streamSummary.count == 5 && log.streamSummary.first?.data == "m1")
    }
}
