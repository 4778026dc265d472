import Foundation
import Synchronization
import Testing
import TestSupport
import TincanCore
@testable import TincanDemoServer

/// What the demo server received (issue 20 §3): the bytes as they arrived, request by request,
/// kept within bounds and served at `/__received`.
@Suite("What the demo server received")
struct ReceivedRequestsTests {
    /// Writes each text in turn on one connection, reading after each until `responses` replies
    /// (each a JSON body ending in "\n}\n") have arrived in all; returns everything read.
    private static func converse(port: Int, _ steps: [(text: String, responses: Int)]) async throws -> String {
        // Off the pool: a blocking read there would starve the server's routes.
        try await offThePool { try talk(port: port, steps) }
    }

    private static func talk(port: Int, _ steps: [(text: String, responses: Int)]) throws -> String {
        do {
            guard let socket = connectToLoopback(port: port) else { throw POSIXError(.ECONNREFUSED) }
            defer { close(socket) }
            var timeout = timeval(tv_sec: 20, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var reply: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            for step in steps {
                let bytes = Array(step.text.utf8)
                var sent = 0
                while sent < bytes.count {
                    let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { throw POSIXError(.EIO) }
                    sent += count
                }
                while String(decoding: reply, as: UTF8.self).components(separatedBy: "\n}\n").count - 1 < step.responses {
                    let count = recv(socket, &chunk, chunk.count, 0)
                    guard count > 0 else { return String(decoding: reply, as: UTF8.self) }
                    reply += chunk[..<count]
                }
            }
            return String(decoding: reply, as: UTF8.self)
        }
    }

    /// The `X-Tincan-Request-Id` values of the responses in `reply`, in order.
    private static func requestIDs(in reply: String) -> [Int] {
        reply.components(separatedBy: "\r\n").compactMap { line in
            line.lowercased().hasPrefix("x-tincan-request-id: ") ? Int(line.dropFirst("x-tincan-request-id: ".count)) : nil
        }
    }

    @Test("two requests on one keep-alive connection are recorded apart, byte for byte, a chunked body with its framing")
    func keepAliveAndChunked() async throws {
        try await withDemoServer { server in
            let first = "POST /post HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Odd-CASE: Yes\r\ncontent-length: 5\r\n\r\nhello"
            let second = "PUT /put HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nTransfer-Encoding: chunked\r\n\r\n3;note=x\r\nabc\r\n2\r\nde\r\n0\r\nTrailer-One: 1\r\n\r\n"
            let reply = try await Self.converse(port: server.port, [(first, 1), (second, 2)])
            let kept = server.received.all
            try #require(kept.count == 2, "\(reply)")
            #expect(kept[0].head == Array("POST /post HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Odd-CASE: Yes\r\ncontent-length: 5\r\n\r\n".utf8))
            #expect(kept[0].body == Array("hello".utf8))
            #expect(kept[1].head == Array("PUT /put HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
            #expect(kept[1].body == Array("3;note=x\r\nabc\r\n2\r\nde\r\n0\r\nTrailer-One: 1\r\n\r\n".utf8), "the chunk framing and trailer as sent")
            #expect(kept.allSatisfy { $0.isComplete && !$0.isTruncated && $0.source == .wire && $0.remote.hasPrefix("127.0.0.1:") })
            #expect(kept[0].remote == kept[1].remote, "one connection")
            #expect(Self.requestIDs(in: reply) == kept.map(\.id), "each response names its request")
            #expect(reply.contains("\"data\": \"abcde\""), "the decoder after the tap still reads the body")
        }
    }

    @Test("pipelined requests in one write are split where each ends, and answered with their own numbers")
    func pipelined() async throws {
        try await withDemoServer { server in
            let requests = (1...3).map { "POST /anything/\($0) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 2\r\n\r\n#\($0)" }
            let reply = try await Self.converse(port: server.port, [(requests.joined(), 3)])
            let kept = server.received.all
            try #require(kept.count == 3, "\(reply)")
            for (index, record) in kept.enumerated() {
                #expect(record.headText == "POST /anything/\(index + 1) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 2\r\n\r\n")
                #expect(record.body == Array("#\(index + 1)".utf8))
            }
            #expect(Self.requestIDs(in: reply) == kept.map(\.id))
        }
    }

    @Test("an HTTP/1 response that says Connection: close closes the connection (the handler tells HTTP/1 from HTTP/2 by its decoder, not by a parent channel, which both have)")
    func closeIsHonoured() async throws {
        let server = try await DemoServer.start(closesEveryConnection: true)
        let start = ContinuousClock.now
        // Asks for two responses: only the end of the connection stops the read before its 20 s timeout.
        let reply = try await Self.converse(port: server.port, [("GET /get HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n", 2)])
        let elapsed = ContinuousClock.now - start
        await server.stop()
        #expect(reply.lowercased().contains("\r\nconnection: close\r\n"), "\(reply)")
        #expect(elapsed < .seconds(15), "the server closed the connection")
    }

    @Test("a body past the cap keeps its first 64 KiB, its true length and the truncated flag")
    func bodyCap() async throws {
        try await withDemoServer { server in
            let body = String(repeating: "0123456789", count: 10_000)
            _ = try await Self.converse(port: server.port, [("POST /post HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body, 1)])
            let record = try #require(server.received.all.last)
            #expect(record.bodyBytes == 100_000)
            #expect(record.body.count == server.received.bytesLimit)
            #expect(record.body == Array(body.utf8.prefix(server.received.bytesLimit)))
            #expect(record.isTruncated && record.isComplete)
            #expect(record.byteCount == record.headBytes + 100_000)
        }
    }

    @Test("only the newest 32 requests are kept, and reading them is not recorded")
    func boundedAndNotSelfRecording() async throws {
        try await withDemoServer { server in
            let gets = (1...40).map { "GET /get?n=\($0) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n" }
            _ = try await Self.converse(port: server.port, gets.map { ($0, 1) }.enumerated().map { ($0.element.0, $0.offset + 1) })
            let kept = server.received.all
            #expect(kept.count == 32)
            #expect(kept.first?.headText.hasPrefix("GET /get?n=9 ") == true)
            #expect(kept.last?.headText.hasPrefix("GET /get?n=40 ") == true)

            let list = try await send(draft("GET", "/__received", on: server))
            let object = try json(list)
            let requests = try #require(field(object, "requests").flatMap { if case .array(let items) = $0 { items } else { nil } })
            #expect(requests.count == 32)
            #expect(list.response?.headers[ReceivedRequest.idHeader] == nil, "the reading route is not numbered")
            var last = try ReceivedRequest(json: try #require(requests.last))
            let newest = try #require(kept.last)
            #expect(abs(last.time.timeIntervalSince(newest.time)) < 0.002, "the time to the millisecond")
            last.time = newest.time
            #expect(last == newest, "the JSON reads back as the record")

            _ = try await send(draft("GET", "/__received/last", on: server))
            #expect(server.received.all == kept, "reading the routes recorded nothing")
            let missing = try await send(draft("GET", "/__received/1", on: server))
            #expect(missing.response?.statusCode == 404)
        }
    }

    @Test("a request still arriving outlives newer finished ones, and is handed on whole when it ends")
    func inFlightIsKept() {
        let finished = Mutex<[ReceivedRequest]>([])
        let received = ReceivedRequests(capacity: 2, bytesLimit: 16) { request in finished.withLock { $0.append(request) } }
        let upload = received.begin(head: Array("PUT /upload HTTP/1.1\r\n\r\n".utf8), remote: "r", source: .wire, tls: false)
        for _ in 0..<3 {
            let quick = received.begin(head: Array("GET / HTTP/1.1\r\n\r\n".utf8), remote: "r", source: .wire, tls: false)
            received.finish(quick, complete: true)
        }
        received.append(Array(repeating: 0x41, count: 40), to: upload)
        received.finish(upload, complete: true)
        #expect(received.all.map(\.id) == [upload, 4])
        let handed = finished.withLock { $0 }
        #expect(handed.map(\.id) == [2, 3, 4, upload])
        #expect(handed.last?.bodyBytes == 40 && handed.last?.body.count == 16 && handed.last?.isComplete == true)
    }

    @Test("a request through the client is recorded as sent, Host first and Content-Length last")
    func throughTheClient() async throws {
        try await withDemoServer { server in
            let result = try await send(draft("POST", "/post", ["name=Ada", "X-Trace:7"], on: server))
            let id = try #require(result.response?.headers[ReceivedRequest.idHeader].flatMap { Int($0) })
            let record = try #require(server.received.request(id))
            let lines = record.headLines
            #expect(lines.first == "POST /post HTTP/1.1")
            #expect(lines.dropFirst().first?.hasPrefix("Host: 127.0.0.1:") == true)
            #expect(lines.contains("X-Trace: 7"))
            #expect(String(decoding: record.body, as: UTF8.self) == "name=Ada")
        }
    }

    /// Posts `name=Ada` over TLS with `version` (trusting the test certificate) and returns the
    /// server's record of it, found by the number its response carries.
    private static func postOverTLS(version: HTTPVersionPreference) async throws -> ReceivedRequest {
        let certificate = try TestCertificate.selfSigned()
        return try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [certificate.certificateDER])
            let manager = try URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL), securityPolicy: policy)
            var options = TaskOptions()
            options.httpVersion = version
            let task = try manager.task(with: try draft("POST", "/post", ["name=Ada"], on: server).build(), options: options)
            task.resume()
            let result = await task.result()
            try await manager.invalidate(cancelingTasks: true)
            #expect(result.response?.version == (version == .http2 ? .http2 : .http1_1), "\(String(describing: result.transportError))")
            let id = try #require(result.response?.headers[ReceivedRequest.idHeader].flatMap { Int($0) })
            return try #require(server.received.request(id))
        }
    }

    @Test("over TLS with HTTP/1.1 the bytes are recorded as they were after decryption")
    func http1OverTLS() async throws {
        let record = try await Self.postOverTLS(version: .http1_1)
        #expect(record.source == .wire && record.tls)
        #expect(record.headText.hasPrefix("POST /post HTTP/1.1\r\nHost: 127.0.0.1:"), "\(record.headText)")
        #expect(record.body == Array("name=Ada".utf8))
    }

    @Test("over HTTP/2 the decoded head is recorded and named so, with the DATA bytes")
    func http2() async throws {
        let record = try await Self.postOverTLS(version: .http2)
        #expect(record.source == .http2Decoded && record.tls)
        #expect(record.headLines.prefix(2) == [":method: POST", ":scheme: https"])
        #expect(record.headLines.contains(":path: /post"))
        #expect(String(decoding: record.body, as: UTF8.self) == "name=Ada")
    }
}

/// The framer alone: wherever reads split the bytes, the same requests come out.
@Suite("Request framing")
struct RequestFramerTests {
    private static func frame(_ text: String, readsOf size: Int) -> [(head: String, body: String)] {
        var framer = RequestFramer()
        var requests: [(head: String, body: String)] = []
        var ended: [Bool] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let read = Array(bytes[index..<min(bytes.count, index + size)])
            read.withUnsafeBytes { pointer in
                framer.feed(pointer) { event in
                    switch event {
                    case .head(let head):
                        requests.append((String(decoding: head, as: UTF8.self), ""))
                        ended.append(false)
                    case .body(let slice):
                        requests[requests.count - 1].body += String(decoding: slice, as: UTF8.self)
                    case .end:
                        ended[ended.count - 1] = true
                    }
                }
            }
            index += size
        }
        return ended.allSatisfy { $0 } ? requests : []
    }

    @Test("content-length, chunked with extensions and trailers, bodiless and bare-LF requests split alike at any read size")
    func anySplit() {
        let requests = [
            ("POST /a HTTP/1.1\r\nContent-Length: 3\r\n\r\n", "xyz"),
            ("PUT /b HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "A;x=y\r\n0123456789\r\n0\r\nT: 1\r\n\r\n"),
            ("GET /c HTTP/1.1\nHost: h\n\n", ""),
            ("DELETE /d HTTP/1.1\r\nContent-Length: 0\r\n\r\n", ""),
        ]
        let text = "\r\n" + requests.map { $0.0 + $0.1 }.joined()
        for size in [1, 2, 3, 7, 64, text.utf8.count] {
            let framed = Self.frame(text, readsOf: size)
            #expect(framed.map(\.head) == requests.map(\.0), "reads of \(size)")
            #expect(framed.map(\.body) == requests.map(\.1), "reads of \(size)")
        }
    }

    @Test("framing that cannot be read makes the rest of the connection the request's body")
    func unreadable() {
        var framer = RequestFramer()
        var body = ""
        var ends = 0
        Array("POST /x HTTP/1.1\r\nContent-Length: 12abc\r\n\r\nGET / HTTP/1.1\r\n\r\n".utf8).withUnsafeBytes { pointer in
            framer.feed(pointer) { event in
                if case .body(let slice) = event { body += String(decoding: slice, as: UTF8.self) }
                if case .end = event { ends += 1 }
            }
        }
        #expect(body == "GET / HTTP/1.1\r\n\r\n")
        #expect(ends == 0)
    }
}
