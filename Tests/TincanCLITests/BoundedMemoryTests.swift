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
        let bomb = await offThePool { gzippedZeros(count: 256 << 20) }
        let server = try RawHTTPServer { _, socket in
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n")
            RawHTTPServer.write(socket, bomb)
        }
        defer { server.stop() }
        let result = try await tincan(["send", "--timeout", "30", "GET", server.baseURL + "/bomb"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("more than 200 times its size"), "\(result.stdout)")
        #expect(result.maxRSSBytes > 8 << 20 && result.maxRSSBytes < 100 << 20, "peak RSS \(result.maxRSSBytes)")
    }

    @Test("A chunked body without end fails with exit 4 at --max-body, in bounded memory")
    func endlessBody() async throws {
        let server = try RawHTTPServer { _, socket in RawHTTPServer.writeEndlessBody(socket) }
        defer { server.stop() }
        let result = try await tincan(["send", "--max-body", "20M", "GET", server.baseURL + "/endless"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("kept in memory"), "\(result.stdout)")
        #expect(result.stderr.contains("--download FILE"))
        #expect(result.maxRSSBytes > 8 << 20 && result.maxRSSBytes < 100 << 20, "peak RSS \(result.maxRSSBytes)")
    }

    @Test("A 40 MB text body is printed whole, line for line, in memory near its size and in seconds")
    func largeTextBody() async throws {
        try await withDemoServer { server in
            let lines = 32_000
            let result = try await tincan(["send", "--print", "hbm", "GET", "\(server.baseURL)/stream/\(lines)?pad=1200"])
            #expect(result.status == 0, "\(result.stderr)")
            // Forty megabytes are read off the pool: a debug build takes seconds over them.
            let read = await offThePool { () -> (linesInOrder: Bool, blankAfter: Bool, endsWithTotal: Bool, tail: [String], size: Int)? in
                let parts = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                // The head, a blank line, the body's lines, a blank line, the summary, the last line feed.
                guard let blank = parts.firstIndex(of: ""), blank + 1 + lines < parts.count else { return nil }
                let body = parts[(blank + 1)..<(blank + 1 + lines)]
                return (body.enumerated().allSatisfy { $0.element.hasPrefix("{\"url\":") && $0.element.hasSuffix(",\"id\":\($0.offset)}") },
                        Array(parts[(blank + 1 + lines)...].dropLast().prefix(1)) == [""],
                        parts.last == "" && parts[parts.count - 2].contains("total"),
                        parts.suffix(3).map(String.init),
                        body.reduce(0) { $0 + $1.utf8.count + 1 })
            }
            let checked = try #require(read, "no blank line before \(lines) body lines")
            #expect(checked.linesInOrder)
            #expect(checked.blankAfter)
            #expect(checked.endsWithTotal, "\(checked.tail)")
            let size = checked.size
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
            // Thirty megabytes are decoded and read off the pool: a debug build takes seconds over them.
            let read = try await offThePool { () throws -> (lineCount: Int, linesInOrder: Bool, bytes: ParameterValue?, size: Int, valid: ParameterValue?)? in
                let report = try JSONParser.parse(result.stdout)
                guard case .string(let body)? = field(report, "response", "body") else { return nil }
                let bodyLines = body.split(separator: "\n")
                return (bodyLines.count, bodyLines.enumerated().allSatisfy { $0.element.hasSuffix(",\"id\":\($0.offset)}") },
                        field(report, "response", "bytes"), body.utf8.count, field(report, "validation", "valid"))
            }
            guard let checked = read else {
                Issue.record("no body string in \(result.stdout.prefix(300))")
                return
            }
            #expect(checked.lineCount == lines)
            #expect(checked.linesInOrder)
            #expect(checked.bytes == .integer(Int64(checked.size)))
            #expect(checked.valid == .bool(true))
            // The body as received (its array grown by doubling), and a mebibyte of it escaped at
            // a time: no string of it, and no report written whole around it.
            #expect(result.maxRSSBytes < 2 * checked.size + (60 << 20), "peak RSS \(result.maxRSSBytes) for \(checked.size) bytes")
        }
    }

    @Test("--max-body that is not a size is refused with exit 2")
    func badMaxBody() async throws {
        let result = try await tincan(["send", "--offline", "--max-body", "lots", "GET", "http://127.0.0.1:9/"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'--max-body <SIZE>': 'lots' is not a number"), "\(result.stderr)")
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
