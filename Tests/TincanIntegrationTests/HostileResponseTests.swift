import Foundation
import Synchronization
import TestSupport
import Testing
import TincanCore

/// Servers that send more than anyone should keep: memory stays bounded, and the error names the
/// limit that stopped the request.
@Suite("Hostile responses")
struct HostileResponseTests {
    static func send(_ url: String, configure: (inout TaskOptions) -> Void = { _ in }) async throws -> TaskResult {
        var options = TaskOptions()
        options.deadline = 30
        configure(&options)
        let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: nil))
        let result = try await manager.send(try RequestDraft(method: "GET", url: url).build(), options: options)
        try await manager.invalidate(cancelingTasks: true)
        return result
    }

    static func limitMessage(_ result: TaskResult) -> String? {
        guard case .limitExceeded(let message)? = result.transportError?.reason else { return nil }
        return message
    }

    /// A server whose every response is a gzip bomb: `decoded` zero bytes in a few kilobytes.
    static func bombServer(decoded: Int) async throws -> RawHTTPServer {
        let bomb = await offThePool { gzippedZeros(count: decoded) }
        return try RawHTTPServer { _, socket in
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n")
            RawHTTPServer.write(socket, bomb)
        }
    }

    @Test("40 redirect hops of 1,000 Set-Cookie each end with a Cookie header within curl's 8,190 bytes, and every hop's stays within it")
    func cookieFloodStaysBounded() async throws {
        let cookieHeaders = CookieLengths()
        let server = try RawHTTPServer { head, socket in
            let lines = head.components(separatedBy: "\r\n")
            let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            cookieHeaders.note(lines.first { $0.lowercased().hasPrefix("cookie: ") }.map { $0.utf8.count - 8 } ?? 0)
            let hop = Int(path.dropFirst("/hop".count)) ?? 0
            guard hop < 40 else {
                RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
                return
            }
            let cookies = (0..<1000).map { "Set-Cookie: h\(hop)c\($0)=v; Path=/\r\n" }.joined()
            RawHTTPServer.write(socket, "HTTP/1.1 302 Found\r\nLocation: /hop\(hop + 1)\r\n" + cookies + "Content-Length: 0\r\nConnection: close\r\n\r\n")
        }
        defer { server.stop() }
        let result = try await Self.send(server.baseURL + "/hop0") { $0.redirects = RedirectPolicy(maximum: 50) }
        #expect(result.response?.statusCode == 200, "\(String(describing: result.transportError))")
        #expect(result.redirects.count == 40)
        let lengths = cookieHeaders.all
        #expect(lengths.count == 41)
        #expect(lengths.allSatisfy { $0 <= 8190 }, "\(lengths.max() ?? 0)")
        #expect((lengths.last ?? 0) > 0)
    }

    @Test("A gzip body that grows past the ratio limit fails, naming the ratio")
    func gzipBombStopsAtTheRatio() async throws {
        let server = try await Self.bombServer(decoded: 256 << 20)
        defer { server.stop() }
        let result = try await Self.send(server.baseURL + "/bomb")
        let message = try #require(Self.limitMessage(result), "\(String(describing: result.transportError))")
        #expect(message.contains("more than 200 times its size"))
        #expect(result.data.count < 16 << 20)
    }

    @Test("A gzip body that decodes past the size limit fails, naming the limit")
    func gzipBodyStopsAtTheSize() async throws {
        let server = try await Self.bombServer(decoded: 64 << 20)
        defer { server.stop() }
        let result = try await Self.send(server.baseURL + "/bomb") {
            $0.decompression = DecompressionLimits(ratio: 1_000_000, maximumBytes: 8 << 20)
        }
        let message = try #require(Self.limitMessage(result), "\(String(describing: result.transportError))")
        #expect(message.contains("more than 8,388,608 bytes (8.0 MiB), the decompression limit"))
    }

    @Test("A gzip body within the limits is decoded, and its progress counts the bytes on the wire")
    func gzipWithinTheLimitsIsDecoded() async throws {
        let bomb = await offThePool { gzippedZeros(count: 4 << 20) }
        let server = try await Self.bombServer(decoded: 4 << 20)
        defer { server.stop() }
        var options = TaskOptions()
        options.deadline = 30
        let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: nil))
        let task = try manager.dataTask(with: try RequestDraft(method: "GET", url: server.baseURL + "/zeros").build(), options: options)
        task.resume()
        let result = await task.result()
        try await manager.invalidate(cancelingTasks: true)
        #expect(result.transportError == nil)
        #expect(result.data.count == 4 << 20 && result.data.allSatisfy { $0 == 0 })
        #expect(task.downloadProgress == TransferProgress(completed: Int64(bomb.count), expected: Int64(bomb.count)))
    }

    @Test("A gzip body cut inside its stream is an error, not a shorter body")
    func truncatedGzipFails() async throws {
        let whole = gzippedZeros(count: 1 << 20)
        let cut = Array(whole.dropLast(12))
        let server = try RawHTTPServer { _, socket in
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(cut.count)\r\n\r\n")
            RawHTTPServer.write(socket, cut)
        }
        defer { server.stop() }
        let result = try await Self.send(server.baseURL + "/cut")
        guard case .badResponse(let message)? = result.transportError?.reason else {
            Issue.record("expected a bad response, got \(String(describing: result.transportError)) with \(result.data.count) bytes")
            return
        }
        #expect(message.contains("ended inside its compressed stream"), "\(message)")
    }

    @Test("Gzip members one after another are one body, wherever the chunks split them")
    func gzipMembersAcrossChunks() async throws {
        let member = gzippedZeros(count: 1000)
        let server = try RawHTTPServer { _, socket in
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in 0..<3 {
                RawHTTPServer.write(socket, String(member.count, radix: 16) + "\r\n")
                RawHTTPServer.write(socket, member)
                RawHTTPServer.write(socket, "\r\n")
                usleep(20_000)
            }
            RawHTTPServer.write(socket, "0\r\n\r\n")
        }
        defer { server.stop() }
        let result = try await Self.send(server.baseURL + "/members")
        #expect(result.transportError == nil, "\(String(describing: result.transportError))")
        #expect(result.data.count == 3000 && result.data.allSatisfy { $0 == 0 })
    }

    @Test("A body without end stops at the memory limit, with advice to download it")
    func endlessBodyStopsAtTheMemoryLimit() async throws {
        let server = try RawHTTPServer { _, socket in RawHTTPServer.writeEndlessBody(socket) }
        defer { server.stop() }
        let result = try await Self.send(server.baseURL + "/endless") { $0.maximumBodyBytes = 4 << 20 }
        let message = try #require(Self.limitMessage(result), "\(String(describing: result.transportError))")
        #expect(message.contains("passed the 4,194,304 bytes (4.0 MiB) kept in memory"))
        #expect(message.contains("--download FILE"))
        #expect(result.data.count <= 4 << 20)
    }

    @Test("A body longer than the memory limit is refused at its head")
    func declaredLengthOverTheLimitIsRefusedAtOnce() async throws {
        let server = try RawHTTPServer { _, socket in
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 10000000000\r\n\r\nabc")
        }
        defer { server.stop() }
        let result = try await Self.send(server.baseURL + "/big") { $0.maximumBodyBytes = 1 << 20 }
        let message = try #require(Self.limitMessage(result), "\(String(describing: result.transportError))")
        #expect(message.contains("is 10,000,000,000 bytes (9.3 GiB), more than the 1,048,576 bytes (1.0 MiB) kept in memory"))
    }

    @Test("HEAD, 204 and 304 have no body, so a Content-Length over the memory limit is no error")
    func bodilessResponsesIgnoreTheMemoryLimit() async throws {
        let server = try RawHTTPServer { head, socket in
            let status = head.hasPrefix("HEAD ") ? "200 OK" : head.contains("/204") ? "204 No Content" : "304 Not Modified"
            RawHTTPServer.write(socket, "HTTP/1.1 \(status)\r\nContent-Length: 10000000000\r\n\r\n")
        }
        defer { server.stop() }
        for (method, path) in [("HEAD", "/big"), ("GET", "/204"), ("GET", "/304")] {
            var options = TaskOptions()
            options.maximumBodyBytes = 1 << 20
            options.deadline = 10
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: nil))
            let result = try await manager.send(try RequestDraft(method: method, url: server.baseURL + path).build(), options: options)
            try await manager.invalidate(cancelingTasks: true)
            #expect(result.transportError == nil, "\(method) \(path): \(String(describing: result.transportError))")
            #expect(result.data.isEmpty)
        }
    }

    @Test("The transport takes any timeout it is given without trapping", arguments: [1e17, .infinity, .nan, -1])
    func transportTimeoutsCannotTrap(seconds: Double) async throws {
        let server = try RawHTTPServer { _, socket in
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { server.stop() }
        let transport = AsyncHTTPClientTransport(connectTimeout: seconds)
        let request = try RequestDraft(method: "POST", url: server.baseURL + "/x").build()
        // A huge or infinite limit is no limit; a NaN or negative one is spent at once. Neither traps.
        do {
            let response = try await transport.send(request, options: TransportOptions(idleTimeout: seconds.isFinite && seconds > 0 ? seconds : 30, deadline: seconds)) { _ in }
            #expect(response.statusCode == 200)
        } catch let error as TransportError {
            #expect(seconds <= 0 || seconds.isNaN, "\(error)")
        }
        try await transport.shutdown()
    }

    @Test("A POST with an empty body completes")
    func emptyBodyCompletes() async throws {
        let server = try RawHTTPServer { _, socket in
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { server.stop() }
        var options = TaskOptions()
        options.deadline = 10
        let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: nil))
        var request = try RequestDraft(method: "POST", url: server.baseURL + "/empty").build()
        request.body = .bytes([])
        let result = try await manager.send(request, options: options)
        try await manager.invalidate(cancelingTasks: true)
        #expect(result.transportError == nil, "\(String(describing: result.transportError))")
        #expect(result.data == Array("ok".utf8))
    }

    @Test("A redirect whose body never ends is still followed")
    func endlessRedirectBodyIsDropped() async throws {
        let server = try RawHTTPServer { head, socket in
            if head.hasPrefix("GET /final ") {
                RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")
                return
            }
            RawHTTPServer.write(socket, "HTTP/1.1 302 Found\r\nLocation: /final\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array("1000\r\n".utf8) + [UInt8](repeating: 0x62, count: 0x1000) + Array("\r\n".utf8)
            while RawHTTPServer.write(socket, chunk) {}
        }
        defer { server.stop() }
        let result = try await Self.send(server.baseURL + "/start")
        #expect(result.transportError == nil, "\(String(describing: result.transportError))")
        #expect(result.response?.statusCode == 200)
        #expect(result.data == Array("ok".utf8))
        #expect(result.redirects.map(\.statusCode) == [302])
    }
}

/// The length of the Cookie header of each request a raw server received, in order.
private final class CookieLengths: Sendable {
    private let lengths = Mutex<[Int]>([])
    var all: [Int] { lengths.withLock { $0 } }
    func note(_ length: Int) { lengths.withLock { $0.append(length) } }
}
