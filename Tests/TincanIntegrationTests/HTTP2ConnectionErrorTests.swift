import Foundation
import TestSupport
import Testing
import TincanCore

/// Hostile HTTP/2 servers, their frames written by hand: after a connection error, sent or
/// received, the connection is closed and every request on it fails at once with the reason.
@Suite("HTTP/2 connection errors end the connection and its requests")
struct HTTP2ConnectionErrorTests {
    /// The most a flooding server may get out before Tincan closes the connection: far below
    /// the gigabytes a connection that keeps reading would take in.
    static let floodLimit = 16 << 20

    /// Sends `count` GETs at once to `server` (trusting `certificate`), over HTTP/2, and returns
    /// their results. The idle timeout is long, so only the connection error can end them soon.
    private func send(_ count: Int = 1, to server: RawHTTP2Server, certificate: TestCertificate, headerLimit: Int? = nil) async throws -> [TaskResult] {
        let policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [certificate.certificateDER])
        let manager = try URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL), securityPolicy: policy)
        var options = TaskOptions()
        options.httpVersion = .http2
        options.responseSerializer = HTTPResponseSerializer()
        if let headerLimit { options.maximumHeaderBytes = headerLimit }
        var draft = RequestDraft(method: "GET", url: "flood", baseURL: server.baseURL)
        draft.observed.timeoutInterval = 120
        let request = try draft.build()
        let tasks = try (0..<count).map { _ in try manager.task(with: request, options: options) }
        for task in tasks { task.resume() }
        var results: [TaskResult] = []
        for task in tasks { results.append(await task.result()) }
        try await manager.invalidate(cancelingTasks: true)
        return results
    }

    private func connectionError(_ result: TaskResult) -> String? {
        guard case .connectionClosed(let detail)? = result.transportError?.reason else { return nil }
        return detail
    }

    @Test("a CONTINUATION flood, of many small frames or of a few large ones, ends the request at once and the connection is closed before the server has sent much", arguments: [
        (16, "HTTP/2 connection error (ENHANCE_YOUR_CALM): the server sent a header block in more CONTINUATION frames than allowed"),
        (4096, "HTTP/2 connection error (PROTOCOL_ERROR): the server sent a header block larger than the connection's header list size"),
    ])
    func continuationFlood(fragmentSize: Int, expected: String) async throws {
        let certificate = try TestCertificate.selfSigned()
        let server = try RawHTTP2Server(certificate: certificate) { connection in
            // HEADERS without END_HEADERS, then CONTINUATION frames that never end the block.
            connection.write(RawHTTP2Frame.frame(type: RawHTTP2Frame.headers, stream: 1, payload: RawHTTP2Frame.status200))
            let fragment = RawHTTP2Frame.frame(type: RawHTTP2Frame.continuation, stream: 1, payload: [UInt8](repeating: 0x88, count: fragmentSize))
            let batch = Array([[UInt8]](repeating: fragment, count: 65536 / fragmentSize).joined())
            while connection.bytesSent < Self.floodLimit * 4, connection.write(batch) {}
        }
        defer { server.stop() }
        let result = try #require(try await send(to: server, certificate: certificate).first)
        let detail = try #require(connectionError(result), "\(String(describing: result.transportError))")
        #expect(detail.hasPrefix(expected), "\(detail)")
        #expect(detail.contains("CONTINUATION"))
        #expect(detail.hasSuffix("Tincan sent GOAWAY and closed the connection"))
        let connection = try #require(server.accepted.first)
        #expect(connection.waitForClose(seconds: 30))
        #expect(connection.bytesSent < Self.floodLimit, "the server got \(connection.bytesSent) bytes out")
        // The GOAWAY went out before the close.
        let frames = RawHTTP2Frame.frames(after: RawHTTP2Frame.preface.count, in: connection.bytesReceived)
        #expect(frames.contains { $0.type == RawHTTP2Frame.goAwayType })
    }

    @Test("an HPACK bomb (one indexed field referenced thousands of times) ends the request at once, though the server keeps the connection open")
    func hpackBomb() async throws {
        let certificate = try TestCertificate.selfSigned()
        let server = try RawHTTP2Server(certificate: certificate) { connection in
            // 4 KB into the dynamic table, then 5,000 one-byte references to it: 20 MB of headers.
            let block = RawHTTP2Frame.status200 + RawHTTP2Frame.indexedLiteral(name: "x-bomb", value: String(repeating: "a", count: 4000))
                + [UInt8](repeating: 0x80 | 62, count: 5000)
            connection.write(RawHTTP2Frame.frame(type: RawHTTP2Frame.headers, flags: RawHTTP2Frame.endHeaders | RawHTTP2Frame.endStream, stream: 1, payload: block))
            // A server that never closes: only the client can end this.
            _ = connection.waitForClose(seconds: 60)
        }
        defer { server.stop() }
        let result = try #require(try await send(to: server, certificate: certificate).first)
        let detail = try #require(connectionError(result), "\(String(describing: result.transportError))")
        #expect(detail.contains("HTTP/2 connection error"), "\(detail)")
        #expect(detail.contains("HPACK bomb"), "\(detail)")
        #expect(try #require(server.accepted.first).waitForClose(seconds: 30))
    }

    @Test("a SETTINGS flood and a PING flood each end the request at once with the reason", arguments: ["SETTINGS", "PING"])
    func controlFrameFlood(kind: String) async throws {
        let certificate = try TestCertificate.selfSigned()
        let server = try RawHTTP2Server(certificate: certificate) { connection in
            let frame = kind == "PING" ? RawHTTP2Frame.ping(7) : RawHTTP2Frame.frame(type: RawHTTP2Frame.settingsType)
            let batch = Array([[UInt8]](repeating: frame, count: 1000).joined())
            while connection.bytesSent < Self.floodLimit * 4, connection.write(batch) {}
            _ = connection.waitForClose(seconds: 60)
        }
        defer { server.stop() }
        let result = try #require(try await send(to: server, certificate: certificate).first)
        let detail = try #require(connectionError(result), "\(String(describing: result.transportError))")
        #expect(detail.contains("HTTP/2 connection error"), "\(detail)")
        #expect(detail.contains("flood"), "\(detail)")
        let connection = try #require(server.accepted.first)
        #expect(connection.waitForClose(seconds: 30))
        #expect(connection.bytesSent < Self.floodLimit)
    }

    @Test("a GOAWAY with an error code from the server ends every request on the connection at once, its debug data quoted")
    func goAwayFromTheServer() async throws {
        let certificate = try TestCertificate.selfSigned()
        let server = try RawHTTP2Server(certificate: certificate) { connection in
            guard connection.waitForRequests(2, seconds: 30) else { return }
            connection.write(RawHTTP2Frame.goAway(lastStream: 0, code: 0x1, debug: Array("bye".utf8)))
            _ = connection.waitForClose(seconds: 60)
        }
        defer { server.stop() }
        let results = try await send(2, to: server, certificate: certificate)
        #expect(server.accepted.count == 1, "both requests shared one connection")
        for result in results {
            let detail = try #require(connectionError(result), "\(String(describing: result.transportError))")
            #expect(detail == "the server ended the HTTP/2 connection with GOAWAY PROTOCOL_ERROR (\"bye\")")
        }
    }

    @Test("two requests on one connection both fail at once when a flood on one of them ends it")
    func everyRequestOnTheConnectionFails() async throws {
        let certificate = try TestCertificate.selfSigned()
        let server = try RawHTTP2Server(certificate: certificate) { connection in
            guard connection.waitForRequests(2, seconds: 30) else { return }
            connection.write(RawHTTP2Frame.frame(type: RawHTTP2Frame.headers, stream: 1, payload: RawHTTP2Frame.status200))
            let fragment = RawHTTP2Frame.frame(type: RawHTTP2Frame.continuation, stream: 1, payload: [UInt8](repeating: 0x88, count: 4096))
            while connection.bytesSent < Self.floodLimit * 4, connection.write(fragment) {}
            _ = connection.waitForClose(seconds: 60)
        }
        defer { server.stop() }
        let results = try await send(2, to: server, certificate: certificate)
        #expect(server.accepted.count == 1)
        for result in results {
            let detail = try #require(connectionError(result), "\(String(describing: result.transportError))")
            #expect(detail.contains("CONTINUATION"), "\(detail)")
        }
    }

    @Test("a response head larger than the header limit fails the request with the limit named, over HTTP/2 and HTTP/1.1")
    func headerLimit() async throws {
        let certificate = try TestCertificate.selfSigned()
        let big = String(repeating: "b", count: 3000)
        let server = try RawHTTP2Server(certificate: certificate) { connection in
            let block = RawHTTP2Frame.status200 + [0x00] + RawHTTP2Frame.string("x-big") + RawHTTP2Frame.string(big)
            connection.write(RawHTTP2Frame.frame(type: RawHTTP2Frame.headers, flags: RawHTTP2Frame.endHeaders | RawHTTP2Frame.endStream, stream: 1, payload: block))
            _ = connection.waitForClose(seconds: 60)
        }
        defer { server.stop() }
        let refused = try #require(try await send(to: server, certificate: certificate, headerLimit: 2048).first)
        guard case .limitExceeded(let detail)? = refused.transportError?.reason else {
            Issue.record("expected the header limit, got \(String(describing: refused.transportError))")
            return
        }
        #expect(detail.contains("more than the 2048 allowed (--max-header-size)"), "\(detail)")
        let accepted = try #require(try await send(to: server, certificate: certificate).first)
        #expect(accepted.transportError == nil, "\(String(describing: accepted.transportError))")
        #expect(accepted.response?.headers["x-big"] == big)
    }
}
