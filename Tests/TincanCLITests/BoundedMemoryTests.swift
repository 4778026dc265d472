import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

/// The binary against servers that send without end: it stops at its limits, says which, exits 4,
/// and its peak memory stays near the limit instead of growing with what the server sends.
@Suite("Memory stays bounded whatever a server sends")
struct BoundedMemoryTests {
    @Test("A gzip bomb fails with exit 4 and the ratio limit, in bounded memory")
    func gzipBomb() async throws {
        let bomb = await gzippedZerosOffThePool(count: 256 << 20)
        let server = try RawHTTPServer { _, socket in
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n")
            RawHTTPServer.write(socket, bomb)
        }
        defer { server.stop() }
        let result = try await tincan(["send", "--timeout", "30", "GET", server.baseURL + "/bomb"])
        #expect(result.status == 4)
        #expect(result.stdout.contains("more than 200 times its size"), "\(result.stdout)")
        #expect(result.maxRSSBytes > 8 << 20 && result.maxRSSBytes < 100 << 20, "peak RSS \(result.maxRSSBytes)")
    }

    @Test("A chunked body without end fails with exit 4 at --max-body, in bounded memory")
    func endlessBody() async throws {
        let server = try RawHTTPServer { _, socket in RawHTTPServer.writeEndlessBody(socket) }
        defer { server.stop() }
        let result = try await tincan(["send", "--max-body", "20M", "GET", server.baseURL + "/endless"])
        #expect(result.status == 4)
        #expect(result.stdout.contains("kept in memory"), "\(result.stdout)")
        #expect(result.stdout.contains("--download FILE"))
        #expect(result.maxRSSBytes > 8 << 20 && result.maxRSSBytes < 100 << 20, "peak RSS \(result.maxRSSBytes)")
    }

    @Test("A 40 MB text body is printed whole, line for line, in memory near its size and in seconds")
    func largeTextBody() async throws {
        try await withDemoServer { server in
            let lines = 32_000
            let result = try await tincan(["send", "GET", "\(server.baseURL)/stream/\(lines)?pad=1200"])
            #expect(result.status == 0, "\(result.stderr)")
            let parts = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            // The head, a blank line, the body's lines, a blank line, the summary, the last line feed.
            let bodyStart = try #require(parts.firstIndex(of: "")) + 1
            let body = parts[bodyStart..<(bodyStart + lines)]
            #expect(body.enumerated().allSatisfy { $0.element.hasPrefix("{\"url\":") && $0.element.hasSuffix(",\"id\":\($0.offset)}") })
            #expect(Array(parts[(bodyStart + lines)...].dropLast().prefix(1)) == [""])
            #expect(parts.last == "" && parts[parts.count - 2].contains("total"), "\(parts.suffix(3))")
            let size = body.reduce(0) { $0 + $1.utf8.count + 1 }
            #expect(size > 40_000_000)
            // The body once as received, once more at most while it is checked: not copied into
            // a string, the report around it and the output buffer.
            #expect(result.maxRSSBytes < 2 * size + (60 << 20), "peak RSS \(result.maxRSSBytes) for \(size) bytes")
        }
    }

    @Test("With --format json a 30 MB text body is the report's body string, escaped from its bytes a block at a time")
    func largeTextBodyAsJSON() async throws {
        try await withDemoServer { server in
            let lines = 24_000
            let result = try await tincan(["send", "--format", "json", "GET", "\(server.baseURL)/stream/\(lines)?pad=1200"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try JSONParser.parse(result.stdout)
            guard case .string(let body)? = field(report, "response", "body") else {
                Issue.record("no body string in \(result.stdout.prefix(300))")
                return
            }
            let bodyLines = body.split(separator: "\n")
            #expect(bodyLines.count == lines)
            #expect(bodyLines.enumerated().allSatisfy { $0.element.hasSuffix(",\"id\":\($0.offset)}") })
            #expect(field(report, "response", "bytes") == .integer(Int64(body.utf8.count)))
            #expect(field(report, "validation", "valid") == .bool(true))
            // The body as received (its array grown by doubling), and a mebibyte of it escaped at
            // a time: no string of it, and no report written whole around it.
            #expect(result.maxRSSBytes < 2 * body.utf8.count + (60 << 20), "peak RSS \(result.maxRSSBytes) for \(body.utf8.count) bytes")
        }
    }

    @Test("--max-body that is not a size is refused with exit 2")
    func badMaxBody() async throws {
        let result = try await tincan(["send", "--offline", "--max-body", "lots", "GET", "http://127.0.0.1:9/"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--max-body: 'lots' is not a number"), "\(result.stderr)")
    }

    @Test("A session, collection or cookie file that never ends is refused at its limit, naming the file")
    func endlessInputFiles() async throws {
        let replay = try await tincan(["replay", "/dev/zero"])
        #expect(replay.status == 2)
        #expect(replay.stderr.contains("/dev/zero: holds more than 67,108,864 bytes (64.0 MiB), the most read into memory"), "\(replay.stderr)")
        let openAPI = try await tincan(["import", "openapi", "/dev/zero"])
        #expect(openAPI.status == 2)
        #expect(openAPI.stderr.contains("/dev/zero: holds more than 67,108,864 bytes (64.0 MiB)"), "\(openAPI.stderr)")
        let jar = try await tincan(["send", "--offline", "--cookie-jar", "/dev/zero", "GET", "http://127.0.0.1:9/"])
        #expect(jar.status == 2)
        #expect(jar.stderr.contains("/dev/zero") && jar.stderr.contains("holds more than 16,777,216 bytes (16.0 MiB)"), "\(jar.stderr)")
    }
}
