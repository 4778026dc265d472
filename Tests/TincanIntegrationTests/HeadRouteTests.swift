import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing
import TincanDemoServer

/// One HTTP/1.1 exchange over a plain socket, read until the server closes: the bytes exactly as
/// sent, with no client in between to follow redirects or decompress. It runs off the pool, since
/// a blocking read there would starve the in-process server.
private func exchange(_ method: String, _ target: String, port: Int) async -> [UInt8] {
    await offThePool {
        guard let descriptor = connectToLoopback(port: port) else { return [] }
        defer { close(descriptor) }
        // A server that never closes fails the test in 20 s rather than holding it forever.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("\(method) /\(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 { received += chunk[0..<count] } else if count == 0 || errno != EINTR { break }
        }
        return received
    }
}

/// A raw response split into its status line, its headers (lowercased names) and its body.
private func parse(_ bytes: [UInt8]) -> (status: String, headers: [String: String], body: [UInt8]) {
    let separator = Array("\r\n\r\n".utf8)
    let end = (0...max(0, bytes.count - 4)).first { Array(bytes[$0..<min($0 + 4, bytes.count)]) == separator } ?? bytes.count
    let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return (lines.first ?? "", headers, Array(bytes[min(end + 4, bytes.count)...]))
}

@Suite("The demo server answers HEAD on every GET route")
struct HeadRouteTests {
    /// Every GET route of the demo server (docs/cli.md), with arguments that answer quickly.
    static let routes = [
        "get", "anything", "anything/a/b", "headers", "user-agent", "ip", "status/418", "bytes/100", "stream-bytes/100",
        "drip?duration=0&numbytes=5", "delay/0", "range/50", "json", "xml", "image/png", "redirect/1", "absolute-redirect/1",
        "redirect-to?url=/get", "basic-auth/u/p", "cookies", "cookies/set?a=1", "cookies/delete?a", "digest-auth/auth/u/p",
        "digest-auth/auth/u/p/SHA-256", "cache", "gzip", "deflate", "response-headers?X-Test=1", "sse?count=2&delay=0", "stream/3",
    ]

    @Test("HEAD gives GET's status and headers, Content-Length included, and no body", arguments: routes)
    func headMirrorsGet(_ route: String) async throws {
        try await withDemoServer { server in
            let get = parse(await exchange("GET", route, port: server.port))
            let head = parse(await exchange("HEAD", route, port: server.port))
            #expect(head.status == get.status)
            #expect(get.status.hasPrefix("HTTP/1.1 "))
            // Date changes by the second, a Digest challenge carries a fresh nonce, and each response
            // names the request it answers.
            let varying: Set = ["date", "www-authenticate", "x-tincan-request-id"]
            #expect(head.headers.filter { !varying.contains($0.key) } == get.headers.filter { !varying.contains($0.key) })
            #expect(head.headers["www-authenticate"]?.isEmpty == get.headers["www-authenticate"]?.isEmpty)
            #expect(head.body.isEmpty)
        }
    }
}
