import Foundation
import TerminalUI
import Testing
import TestSupport
import TincanCore
import TincanDemoServer
import TincanSessions
@testable import TincanTUI

/// The Received view (issue 20 §3): the last request as a demo server received it, line by line
/// against the preview.
@Suite("The Received view")
struct ReceivedViewTests {
    private static func text(_ line: TokenLine) -> String {
        line.map(\.text).joined()
    }

    /// Sends the welcome request and answers it as a demo server would, numbering it `requestID`
    /// (none: as any other server); returns the send's id.
    @discardableResult
    private static func send(_ state: inout AppState, requestID: Int?, cache: CacheOutcome? = nil) -> Int {
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, plan)? = effects.first else { fatalError("send produced \(effects)") }
        var result = Fixtures.result(for: request, status: 200, contentType: "application/json", body: "{}", serializer: plan.options.responseSerializer)
        result.cache = cache
        if let requestID { result.response?.headers.add(name: ReceivedRequest.idHeader, value: String(requestID)) }
        _ = state.update(.task(exchange: id, .completed(result), at: 0.012))
        return id
    }

    /// What the server got for the welcome request: its head with `change` applied to the lines.
    private static func received(for state: AppState, id: Int = 7, _ change: (inout [String]) -> Void = { _ in }) throws -> ReceivedRequest {
        let request = try #require(state.exchange?.result?.request)
        var lines = request.wireHead.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        change(&lines)
        let head = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        return ReceivedRequest(id: id, time: Date(timeIntervalSince1970: 0), remote: "127.0.0.1:50000", source: .wire, tls: false, head: head, headBytes: head.count, isComplete: true)
    }

    /// The welcome request sent, answered with number 7, the Received view open and given what
    /// the server received, with a header the transport added and one that never arrived.
    private static func loaded(_ state: inout AppState) {
        let id = send(&state, requestID: 7)
        state.setFocus(.preview)
        _ = Fixtures.press([.key(.alt("r"))], into: &state)
        let record = try? received(for: state) { lines in
            lines.removeAll { $0.hasPrefix("Accept:") }
            lines.append("Connection: keep-alive")
        }
        _ = state.update(.receivedFetched(exchange: id, .success(record!)))
    }

    @Test("alt+r after a demo server's response asks that server for the request it numbered")
    func asksTheServer() throws {
        var state = Fixtures.welcome()
        let id = Self.send(&state, requestID: 7)
        let effects = Fixtures.press([.key(.alt("r"))], into: &state)
        #expect(state.previewView == .received)
        guard case let .fetchReceived(exchange, url, _)? = effects.first else {
            Issue.record("no fetch: \(effects)")
            return
        }
        #expect(exchange == id)
        #expect(url.string == "http://127.0.0.1:8080/__received/7")
        #expect(state.received == .loading(exchange: id, requestID: 7))
        #expect(state.update(.tick(at: 1)).isEmpty, "asked once per send")

        let record = try Self.received(for: state)
        _ = state.update(.receivedFetched(exchange: id, .success(record)))
        let lines = state.previewBoxLines(width: 80).map(Self.text)
        #expect(lines.first == "✓ as the preview said · request #7 · \(record.byteCount) B", "\(lines)")
        guard case let .loaded(exchange: loadedID, loaded, _) = state.received else {
            Issue.record("not loaded: \(state.received)")
            return
        }
        #expect(loadedID == id && loaded == record)
        #expect(lines.contains { $0.hasPrefix("  GET /get?greeting=hello") && $0.hasSuffix(" HTTP/1.1") }, "\(lines)")

        _ = Fixtures.press([.key(.alt("r"))], into: &state)
        #expect(state.previewView == .wire, "alt+r again shows the preview")
    }

    @Test("a header the transport added is named hop-by-hop; one that never arrived is a mismatch")
    func judgesDifferences() {
        var state = Fixtures.welcome()
        Self.loaded(&state)
        let lines = state.previewBoxLines(width: 80).map(Self.text)
        #expect(lines.first?.hasPrefix("✗ 1 line differs · request #7") == true, "\(lines)")
        #expect(lines.contains("− Accept: application/json"))
        #expect(lines.contains("~ Connection: keep-alive"))
        #expect(lines.last == "hop-by-hop: Connection: keep-alive added by the transport")
    }

    @Test("a response from another server says why there is nothing to show")
    func notADemoServer() {
        var state = Fixtures.welcome()
        Self.send(&state, requestID: nil)
        let effects = Fixtures.press([.key(.alt("r"))], into: &state)
        #expect(effects.isEmpty)
        let lines = state.previewBoxLines(width: 80).map(Self.text)
        #expect(lines.first?.contains("no X-Tincan-Request-Id header: it did not come from a Tincan demo server") == true, "\(lines)")

        var unsent = Fixtures.welcome()
        _ = Fixtures.press([.key(.alt("r"))], into: &unsent)
        #expect(unsent.previewBoxLines(width: 80).map(Self.text).first?.hasPrefix("Nothing sent yet.") == true)
    }

    @Test("a response the cache answered, though a demo server's, says nothing was sent")
    func cacheHit() {
        var state = Fixtures.welcome()
        Self.send(&state, requestID: 4, cache: .hit(age: 3))
        #expect(Fixtures.press([.key(.alt("r"))], into: &state).isEmpty, "nothing is asked of the server")
        #expect(state.previewBoxLines(width: 80).map(Self.text) == ["The response came from Tincan's cache: nothing was sent, so no server received anything."])
    }

    @Test("a failed lookup is shown as such, and an answer for an older send is ignored")
    func failures() {
        var state = Fixtures.welcome()
        let id = Self.send(&state, requestID: 3)
        _ = Fixtures.press([.key(.alt("r"))], into: &state)
        _ = state.update(.receivedFetched(exchange: id + 1, .failure(ReceivedFetchFailure("stale"))))
        #expect(state.received == .loading(exchange: id, requestID: 3))
        _ = state.update(.receivedFetched(exchange: id, .failure(ReceivedFetchFailure("the server answered 404"))))
        #expect(state.previewBoxLines(width: 80).map(Self.text) == ["✗ What the server received could not be read: the server answered 404"])
    }

    @Test("the comparison names chunk framing, header case and HTTP/2's form as transport details")
    func transportDetails() throws {
        var request = HTTPRequest(method: "POST", url: URLReference(parsing: "http://h:1/p"))
        request.headers.add(name: "X-Thing", value: "1")
        request.body = .bytes(Array("a\nb".utf8))
        let head = Array("POST /p HTTP/1.1\r\nHost: h:1\r\nx-thing: 1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let body = Array("2\r\na\n\r\n1\r\nb\r\n0\r\n\r\n".utf8)
        let chunked = ReceivedComparison(sent: request, received: ReceivedRequest(id: 1, time: Date(), remote: "r", source: .wire, tls: false, head: head, headBytes: head.count, body: body, bodyBytes: body.count, isComplete: true))
        #expect(chunked.lines.map(\.kind) == [.same, .same, .transport, .transport, .transport, .transport, .same, .same, .same], "\(chunked.lines)")
        #expect(chunked.mismatches == 0)
        #expect(chunked.notes.contains("framing: Content-Length: 3 replaced by Transfer-Encoding: chunked"))
        #expect(chunked.notes.contains("header case: X-Thing: 1 arrived as x-thing: 1"))
        #expect(chunked.notes.contains("hop-by-hop: Transfer-Encoding: chunked added by the transport"))
        #expect(chunked.notes.contains { $0.hasPrefix("transport: the body came in 2 chunks") })

        let h2head = Array(":method: POST\r\n:scheme: http\r\n:authority: h:1\r\n:path: /p\r\nx-thing: 1\r\ncontent-length: 3\r\n\r\n".utf8)
        let http2 = ReceivedComparison(sent: request, received: ReceivedRequest(id: 2, time: Date(), remote: "r", source: .http2Decoded, tls: true, head: h2head, headBytes: h2head.count, body: Array("a\nb".utf8), bodyBytes: 3, isComplete: true))
        #expect(http2.mismatches == 0, "\(http2.lines)")
        #expect(http2.notes.first?.hasPrefix("HTTP/2:") == true)
    }

    @Test("requests with bodies, over HTTP/1.1 and over HTTP/2, arrive at the demo server as the preview says", arguments: [false, true])
    func realRequestsCompareEqual(http2: Bool) async throws {
        let certificate = try TestCertificate.selfSigned()
        try await withDemoServer(tls: http2 ? try certificate.serverConfiguration() : nil) { server in
            let policy = http2 ? SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [certificate.certificateDER]) : .default
            let manager = try URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL), securityPolicy: policy)
            var options = TaskOptions()
            options.httpVersion = http2 ? .http2 : .http1_1
            var draft = RequestDraft(method: "POST", url: "post", baseURL: server.baseURL)
            draft.items = try ["name=Ada", "tags:=[1,2]", "X-Lesson:3"].map(RequestItem.parse)
            draft.serializer = .json
            let task = try manager.task(with: try draft.build(), options: options)
            task.resume()
            let result = await task.result()
            try await manager.invalidate(cancelingTasks: true)
            #expect(result.response?.version == (http2 ? .http2 : .http1_1), "\(String(describing: result.transportError))")
            let id = try #require(result.response?.headers[ReceivedRequest.idHeader].flatMap { Int($0) })
            let record = try #require(server.received.request(id))
            let comparison = ReceivedComparison(sent: result.request, received: record)
            #expect(comparison.mismatches == 0, "\(comparison.lines) \(comparison.notes)")
            #expect(comparison.lines.contains { $0.text == "{\"name\":\"Ada\",\"tags\":[1,2]}" }, "the body compared line by line: \(comparison.lines)")
            #expect(comparison.notes.contains { $0.hasPrefix("HTTP/2:") } == http2)
        }
    }

    @Test("the Received view at 80x24 and 120x40", arguments: [(80, 24), (120, 40)])
    func snapshot(size: (Int, Int)) {
        Fixtures.verifySnapshot("received-view", size: size) { state in Self.loaded(&state) }
    }

    @Test("in the real loop, a request to the in-process demo server arrives as the preview said")
    func againstTheDemoServer() async throws {
        try await withDemoServer { server in
            var state = AppState.welcome(demo: DemoAddresses(plain: server.baseURL), width: 120, height: 40)
            state.proxyEnvironment = ProxyEnvironment()
            state.refreshPreview()
            let initial = state
            let terminal = MemoryTerminal(width: 120, height: 40)
            let managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
            let final = Fixtures.runLoop(initial, on: terminal, managers: managers)
            terminal.type([.key(.alt("r")), .key(.ctrl("r"))])
            let shown = await terminal.waitFor("request #1 · ")
            let screen = terminal.text
            terminal.type([.key(KeyEvent(.function(10)))])
            let last = try #require(await final.first { _ in true })
            await managers.invalidateAll()
            #expect(shown, "\(screen)")
            guard case let .loaded(_, record, _) = last.received else {
                Issue.record("nothing loaded: \(last.received)\n\(screen)")
                return
            }
            #expect(record.headLines.first?.hasPrefix("GET /get?greeting=hello") == true)
            let comparison = ReceivedComparison(sent: try #require(last.exchange?.result?.request), received: record)
            #expect(comparison.mismatches == 0, "\(comparison.lines) \(comparison.notes)")
            #expect(screen.contains("✓ as the preview said"), "\(screen)")
        }
    }
}
