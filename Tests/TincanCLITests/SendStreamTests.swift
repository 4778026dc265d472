import Foundation
import TestSupport
import Testing
import TincanCore
@testable import tincan

@Suite("tincan send --stream prints bodies as they arrive")
struct SendStreamTests {
    @Test("server-sent events are printed one by one; the head and the summary go to standard error")
    func eventsAsText() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--stream", "GET", "\(server.baseURL)/sse?count=3&delay=50&event=tick&retry=900"])
            #expect(result.status == 0, "\(result.stderr)")
            let blocks = result.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
            #expect(blocks.count == 3, "\(result.stdout)")
            for (index, block) in blocks.enumerated() {
                let lines = block.split(separator: "\n")
                #expect(lines.count == 2, "\(block)")
                let heading = String(lines.first ?? "")
                #expect(heading.hasPrefix("#\(index + 1) +"), "\(heading)")
                #expect(heading.hasSuffix(index == 0 ? " tick id=1 retry=900" : " tick id=\(index + 1)"), "\(heading)")
                #expect(lines.last?.hasPrefix("{\"n\": \(index + 1), \"sent\": ") == true)
            }
            #expect(result.stderr.hasPrefix("HTTP/1.1 200 OK\n"), "\(result.stderr)")
            #expect(result.stderr.contains("Content-Type: text/event-stream"))
            #expect(result.stderr.contains("3 events streamed"), "\(result.stderr)")
        }
    }

    @Test("NDJSON lines go to standard output as they came, so a pipe gets the body alone")
    func ndjsonAsText() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--stream", "GET", "\(server.baseURL)/stream/4"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 5 && lines.last == "", "\(result.stdout)")
            let ids = try lines.dropLast().map { field(try JSONParser.parse(String($0)), "id") }
            #expect(ids == (0..<4).map { .integer(Int64($0)) })
            #expect(result.stderr.contains("4 lines streamed"), "\(result.stderr)")
        }
    }

    @Test("with --format json each event is a JSON line, then the report with what the stream kept")
    func eventsAsJSONLines() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--stream", "--format", "json", "GET", "\(server.baseURL)/sse?count=2&delay=300"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = try result.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
            #expect(lines.count == 3)
            #expect(lines.prefix(2).map { field($0, "event") } == [.integer(1), .integer(2)])
            #expect(lines.prefix(2).map { field($0, "id") } == [.string("1"), .string("2")])
            #expect(lines.prefix(2).map { field($0, "type") } == [.string("message"), .string("message")])
            // Times since the request started: the server wrote the second event 300 ms after the
            // first, so it cannot have come sooner, however late a busy machine reads either.
            let times: [Double] = lines.prefix(2).compactMap { line in
                switch field(line, "ms") {
                case .double(let value)?: value
                case .integer(let value)?: Double(value)
                default: nil
                }
            }
            #expect(times.count == 2 && times[0] <= times[1] && times[1] >= 290, "\(times)")
            let report = try #require(lines.last)
            #expect(field(report, "response", "stream", "events") == .integer(2))
            #expect(field(report, "response", "stream", "format") == .string("event-stream"))
            #expect(field(report, "response", "body") == .null)
            #expect(field(report, "validation", "valid") == .bool(true))
        }
    }

    @Test("any other body is written as its bytes, as curl -N writes them")
    func otherBodyAsBytes() async throws {
        try await withDemoServer { server in
            let streamed = try await tincan(["send", "--stream", "GET", "\(server.baseURL)/range/3000"])
            #expect(streamed.status == 0, "\(streamed.stderr)")
            let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
            #expect(streamed.stdoutBytes == (0..<3000).map { letters[$0 % 26] })
        }
    }

    @Test("the first event is printed while the server still holds the stream; a closed pipe then ends it with exit 23")
    func liveOutputIntoAClosedPipe() async throws {
        try await withDemoServer { server in
            let clock = ContinuousClock()
            let start = clock.now
            // 1,000 events 200 ms apart: 200 s if nothing were printed before the end.
            let result = try await tincan(["send", "--stream", "GET", "\(server.baseURL)/sse?count=1000&delay=200"], standardOutput: .pipeClosedAfter(10))
            #expect(clock.now - start < .seconds(30))
            #expect(result.stdout.hasPrefix("#1 +"), "\(result.stdout)")
            #expect(result.status == 23, "\(result.stderr)")
            #expect(!result.stderr.contains("error"), "\(result.stderr)")
        }
    }

    @Test("a stream that goes quiet past --timeout ends with exit 4, the events before it printed and counted")
    func idleTimeoutBetweenEvents() async throws {
        // A server on threads of its own, so that a busy test process cannot make it the slow one:
        // one event, then silence until the client gives up and closes the connection.
        let server = try RawHTTPServer { head, socket in
            guard !head.isEmpty else { return }
            _ = RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\nid: 1\ndata: first\n\n")
            var byte: UInt8 = 0
            _ = recv(socket, &byte, 1, 0)
        }
        defer { server.stop() }
        let result = try await tincan(["send", "--stream", "--timeout", "1", "GET", "http://127.0.0.1:\(server.port)/sse"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("#1 +"), "\(result.stdout)")
        #expect(result.stdout.contains(" message id=1\nfirst\n\n"), "\(result.stdout)")
        #expect(result.stderr.contains("idle timeout"), "\(result.stderr)")
        #expect(result.stderr.contains("1 event streamed"), "\(result.stderr)")
    }

    @Test("an event stream stays whole when standard output is not a terminal and --stream is not given")
    func noStreamByDefaultIntoAPipe() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--print", "hb", "GET", "\(server.baseURL)/sse?count=2&delay=0"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("HTTP/1.1 200 OK\n"))
            #expect(result.stdout.contains("id: 2\ndata: {\"n\": 2"))
        }
    }

    @Test("on a terminal an NDJSON line that is JSON is indented; other text is left as it came")
    func linesIndentedForPeople() {
        #expect(StreamPrinter.indented("{\"id\":1,\"tags\":[\"a\"]}") == "{\n  \"id\": 1,\n  \"tags\": [\n    \"a\"\n  ]\n}")
        #expect(StreamPrinter.indented("not json {") == "not json {")
    }

    @Test("--stream with --no-stream or --download is bad input")
    func badCombinations() async throws {
        let both = await ending(of: ["send", "--stream", "--no-stream", "GET", "http://127.0.0.1:9/sse"])
        #expect(both.status == 2)
        #expect(both.standardError?.contains("--stream") == true && both.standardError?.contains("--no-stream") == true, "\(both)")
        let download = await ending(of: ["send", "--stream", "--download", "/tmp/x", "GET", "http://127.0.0.1:9/sse"])
        #expect(download.status == 2)
        #expect(download.standardError?.contains("--output") == true, "\(download)")
    }

    @Test("on a terminal a server's control characters are shown as dots, never written to it")
    func controlCharactersAreShownAsDots() {
        #expect(TerminalText.text("\u{1B}]0;pwned\u{07}\u{1B}[31mred") == "·]0;pwned··[31mred")
        #expect(TerminalText.text("tab\tand\nline \u{9B}c1 \u{7F}del") == "tab\tand\nline ·c1 ·del")
        #expect(TerminalText.text("plain — ünïcode") == "plain — ünïcode")
    }
}
