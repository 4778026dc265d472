import Foundation
import Synchronization
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

/// Keeps every delivery of a stream with the moment it came.
private final class Deliveries: Sendable {
    let events = Mutex<[(StreamEvent, ContinuousClock.Instant)]>([])
    let started = Mutex<(HTTPResponse, StreamFormat)?>(nil)
    let bytes = Mutex<Int>(0)

    func options(_ selection: StreamOptions.Selection, maximumEventBytes: Int = StreamDecoder.defaultMaximumEventBytes,
                 failAfter: Int? = nil) -> StreamOptions {
        var options = StreamOptions(selection: selection) { [self] delivery in
            switch delivery {
            case .started(let head, let format): started.withLock { $0 = (head, format) }
            case .bytes(let buffer): bytes.withLock { $0 += buffer.readableBytes }
            case .events(let list, let instant), .ended(let list, let instant):
                let count = events.withLock { events in
                    events += list.map { ($0, instant) }
                    return events.count
                }
                if let failAfter, count >= failAfter { throw CancellationError() }
            }
        }
        options.maximumEventBytes = maximumEventBytes
        return options
    }
}

@Suite("Streamed bodies reach the receiver as they arrive")
struct StreamingTests {
    @Test("server-sent events arrive one by one while the server still holds the connection")
    func eventsArriveLive() async throws {
        try await withDemoServer { server in
            let deliveries = Deliveries()
            let result = try await send(try draft("GET", "sse?count=3&delay=1000&event=tick&retry=1500", on: server)) {
                $0.stream = deliveries.options(.eventStreams)
            }
            let done = ContinuousClock.now
            #expect(result.transportError == nil)
            let events = deliveries.events.withLock { $0 }
            #expect(events.map(\.0.id) == ["1", "2", "3"])
            #expect(events.map(\.0.type) == ["tick", "tick", "tick"])
            #expect(events.map(\.0.retry) == [1500, nil, nil])
            #expect(events.first.map { $0.0.data.hasPrefix("{\"n\": 1, \"sent\": ") } == true)
            // The first event came before the end of the stream: the server writes the last one
            // 2 s after it, so even a first event read a second late was read a second early.
            let first = try #require(events.first?.1)
            #expect(done - first >= .seconds(1))
            #expect(deliveries.started.withLock { $0?.1 } == .eventStream)
            // Kept for checks: the count and the ends, not the body.
            #expect(result.stream?.count == 3)
            #expect(result.stream?.last?.id == "3")
            #expect(result.data.isEmpty)
        }
    }

    @Test("an NDJSON stream gives one line per object, ids 0 to n-1, each httpbin's /get object written as JSON writes it")
    func ndjsonLines() async throws {
        try await withDemoServer { server in
            let deliveries = Deliveries()
            let result = try await send(try draft("GET", "stream/12?x=1", on: server)) { $0.stream = deliveries.options(.eventStreamsAndLines) }
            let lines = deliveries.events.withLock { $0.map(\.0.data) }
            #expect(lines.count == 12)
            let objects = try lines.map { try JSONParser.parse($0) }
            #expect(objects.map { field($0, "id") } == (0..<12).map { .integer(Int64($0)) })
            // Each line is its object's compact JSON, with the id last: the server's shortcut
            // (the object written once, the id spliced in) gives exactly those bytes.
            #expect(objects.map { JSONWriter.string($0) } == lines)
            #expect(lines.last?.hasSuffix(#","id":11}"#) == true)
            #expect(objects.allSatisfy { field($0, "args", "x") == .string("1") && field($0, "url") != nil && field($0, "headers") != nil })
            #expect(result.stream?.format == .lines)
            #expect(result.response?.headers["Content-Type"] == "application/x-ndjson")
        }
    }

    @Test("a receiver that keeps the body gets it whole within max-body, and past it only the events")
    func keptBody() async throws {
        try await withDemoServer { server in
            let kept = Deliveries()
            let whole = try await send(try draft("GET", "stream/5", on: server)) {
                var stream = kept.options(.eventStreamsAndLines)
                stream.keepsBody = true
                $0.stream = stream
            }
            let lines = kept.events.withLock { $0.map(\.0.data) }
            #expect(lines.count == 5)
            #expect(whole.data == Array((lines.joined(separator: "\n") + "\n").utf8))
            #expect(Int64(whole.data.count) == whole.stream?.bytes)
            // Past max-body the body is let go; the events still all arrive and the task succeeds.
            let dropped = Deliveries()
            let past = try await send(try draft("GET", "stream/5", on: server)) {
                var stream = dropped.options(.eventStreamsAndLines)
                stream.keepsBody = true
                $0.stream = stream
                $0.maximumBodyBytes = 600
            }
            #expect(past.transportError == nil)
            #expect(dropped.events.withLock { $0.count } == 5)
            #expect(past.data.isEmpty && (past.stream?.bytes ?? 0) > 600)
        }
    }

    @Test("a body of another type streams as bytes only when every body is asked for")
    func otherBodies() async throws {
        try await withDemoServer { server in
            let kept = Deliveries()
            let whole = try await send(try draft("GET", "stream-bytes/5000", on: server)) { $0.stream = kept.options(.eventStreamsAndLines) }
            #expect(whole.data.count == 5000)
            #expect(whole.stream == nil)
            let raw = Deliveries()
            let streamed = try await send(try draft("GET", "stream-bytes/5000", on: server)) { $0.stream = raw.options(.every) }
            #expect(raw.bytes.withLock { $0 } == 5000)
            #expect(streamed.data.isEmpty)
            #expect(streamed.stream?.format == .bytes)
            #expect(streamed.stream?.bytes == 5000)
        }
    }

    @Test("an event past the limit fails the task naming the limit")
    func eventTooLarge() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("GET", "stream/2?pad=500", on: server)) {
                $0.stream = Deliveries().options(.eventStreamsAndLines, maximumEventBytes: 256)
            }
            let error = try #require(result.transportError)
            guard case .limitExceeded(let message) = error.reason else {
                Issue.record("expected a limit, got \(error)")
                return
            }
            #expect(message.contains("256 bytes"))
        }
    }

    @Test("a receiver that throws stops the request at once")
    func receiverStops() async throws {
        try await withDemoServer { server in
            let deliveries = Deliveries()
            let clock = ContinuousClock()
            let start = clock.now
            // 1,000 events 100 ms apart: 100 s unless the throw ends the request.
            let result = try await send(try draft("GET", "sse?count=1000&delay=100", on: server)) {
                $0.stream = deliveries.options(.eventStreams, failAfter: 2)
            }
            #expect(result.transportError != nil)
            #expect(deliveries.events.withLock { $0.count } == 2)
            #expect(clock.now - start < .seconds(60))
        }
    }

    @Test("the demo server refuses numbers out of range")
    func badQueries() async throws {
        try await withDemoServer { server in
            for path in ["sse?count=-1", "sse?delay=x", "sse?count=100001", "stream/100001", "stream/3?pad=70000"] {
                let result = try await send(try draft("GET", path, on: server)) { $0.responseSerializer = HTTPResponseSerializer() }
                #expect(result.response?.statusCode == 400, "\(path)")
            }
        }
    }
}
