import Testing
import TincanCore

/// Feeds `text` whole, byte by byte, and in every two-piece split, and expects the same events
/// each way: a chunk may break a stream anywhere.
private func events(_ bytes: [UInt8], _ format: StreamFormat = .eventStream, limit: Int = StreamDecoder.defaultMaximumEventBytes) throws -> [StreamEvent] {
    func decode(_ pieces: [ArraySlice<UInt8>]) throws -> [StreamEvent] {
        var decoder = StreamDecoder(format: format, maximumEventBytes: limit)
        var events: [StreamEvent] = []
        for piece in pieces { events += try decoder.decode(piece) }
        return events + decoder.finish()
    }
    let whole = try decode([bytes[...]])
    #expect(try decode(bytes.indices.map { bytes[$0...$0] }) == whole, "byte by byte")
    for split in 0...bytes.count {
        #expect(try decode([bytes[..<split], bytes[split...]]) == whole, "split at \(split)")
    }
    return whole
}

private func events(_ text: String, _ format: StreamFormat = .eventStream) throws -> [StreamEvent] {
    try events(Array(text.utf8), format)
}

@Suite("Server-sent events are read by the WHATWG rules, wherever the chunks break")
struct EventStreamParserTests {
    @Test("data lines are joined with line feeds, and a blank line dispatches the event as a message")
    func dataLinesJoin() throws {
        #expect(try events("data: one\ndata: two\n\ndata:three\n\n") == [
            StreamEvent(type: "message", data: "one\ntwo"),
            StreamEvent(type: "message", data: "three"),
        ])
    }

    @Test("event sets the type of the one event, and id is kept for the events after it")
    func typeAndID() throws {
        #expect(try events("event: tick\nid: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n") == [
            StreamEvent(id: "7", type: "tick", data: "a"),
            StreamEvent(id: "7", type: "message", data: "b"),
            StreamEvent(id: nil, type: "message", data: "c"),
        ])
    }

    @Test("an id holding a NUL is ignored")
    func idWithNUL() throws {
        #expect(try events("id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\n").map(\.id) == ["1", "1"])
    }

    @Test("retry takes digits only and goes with the next event")
    func retry() throws {
        let got = try events("retry: 2500\ndata: a\n\nretry: 12x\ndata: b\n\nretry\ndata: c\n\n")
        #expect(got.map(\.retry) == [2500, nil, nil])
    }

    @Test("comments and unknown fields are ignored; a field with no colon has an empty value")
    func commentsAndBareFields() throws {
        #expect(try events(": hello\nfoo: bar\ndata\n\ndata\ndata\n\n") == [
            StreamEvent(type: "message", data: ""),
            StreamEvent(type: "message", data: "\n"),
        ])
    }

    @Test("only one space after the colon is dropped")
    func oneSpaceDropped() throws {
        #expect(try events("data:  two spaces\n\ndata:none\n\n").map(\.data) == [" two spaces", "none"])
    }

    @Test("CR, LF and CRLF all end lines, also when a CRLF is cut between two chunks")
    func lineEnds() throws {
        #expect(try events("data: a\r\rdata: b\r\n\r\ndata: c\n\n").map(\.data) == ["a", "b", "c"])
    }

    @Test("a byte-order mark at the start is dropped, one elsewhere is data")
    func byteOrderMark() throws {
        #expect(try events([0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8)).map(\.data) == ["a"])
        #expect(try events([0xEF, 0xBB, 0xBF] + Array("data: \u{FEFF}b\n\n".utf8)).map(\.data) == ["\u{FEFF}b"])
        // A start that only looks like a mark: its bytes are the stream's.
        #expect(try events([0xEF, 0xBB] + Array("\ndata: c\n\n".utf8)).map(\.data) == ["c"])
    }

    @Test("a blank line with no data dispatches nothing and forgets the type")
    func noDataNoEvent() throws {
        #expect(try events("event: x\n\ndata: a\n\n") == [StreamEvent(type: "message", data: "a")])
    }

    @Test("an event the stream ends before its blank line is not dispatched")
    func trailingEventDropped() throws {
        #expect(try events("data: a\n\ndata: b\n").map(\.data) == ["a"])
    }

    @Test("an event over the limit is an error naming the limit, even when it comes byte by byte")
    func eventTooLarge() throws {
        let big = Array("data: ".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 100) + Array("\n\n".utf8)
        var decoder = StreamDecoder(format: .eventStream, maximumEventBytes: 64)
        #expect(throws: StreamDecoder.EventTooLarge(limit: 64)) { try decoder.decode(big[...]) }
        var many = StreamDecoder(format: .eventStream, maximumEventBytes: 64)
        // Many data lines add up: the limit is on the event, not the line.
        let lines = Array(String(repeating: "data: 0123456789\n", count: 10).utf8)
        #expect(throws: StreamDecoder.EventTooLarge.self) { try many.decode(lines[...]) }
        #expect("\(StreamDecoder.EventTooLarge(limit: 16 << 20))".contains("16.0 MiB"))
    }

    @Test("UTF-8 text split inside a character is whole in the event")
    func utf8AcrossChunks() throws {
        #expect(try events("data: héllo ✓\n\n").map(\.data) == ["héllo ✓"])
    }
}

@Suite("NDJSON bodies are cut into lines, wherever the chunks break")
struct LineSplitterTests {
    @Test("each line is an event; CR before LF and blank lines are dropped; a last line without LF counts")
    func lines() throws {
        #expect(try events("{\"a\":1}\n\n{\"b\":2}\r\n{\"c\":3}", .lines).map(\.data) == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
        #expect(try events("x\n", .lines) == [StreamEvent(data: "x")])
    }

    @Test("a line over the limit is an error, whether it arrives whole or in pieces")
    func lineTooLarge() throws {
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 100) + [UInt8(ascii: "\n")]
        var whole = StreamDecoder(format: .lines, maximumEventBytes: 64)
        #expect(throws: StreamDecoder.EventTooLarge(limit: 64)) { try whole.decode(line[...]) }
        var pieces = StreamDecoder(format: .lines, maximumEventBytes: 64)
        #expect(throws: StreamDecoder.EventTooLarge(limit: 64)) {
            for index in line.indices { _ = try pieces.decode(line[index...index]) }
        }
    }

    @Test("a summary keeps the count and the first and last events only")
    func summary() throws {
        let summary = try StreamSummary.of(Array("1\n2\n3\n".utf8), format: .lines)
        #expect(summary.count == 3)
        #expect(summary.first?.data == "1")
        #expect(summary.last?.data == "3")
        #expect(summary.bytes == 6)
    }

    @Test("Content-Type picks the format; the selection picks which bodies stream")
    func formats() {
        #expect(StreamFormat(mimeType: "text/event-stream") == .eventStream)
        #expect(StreamFormat(mimeType: "application/x-ndjson") == .lines)
        #expect(StreamFormat(mimeType: "application/json") == nil)
        let every = StreamOptions(selection: .every) { _ in }
        #expect(every.format(forMimeType: "application/json") == .bytes)
        let events = StreamOptions(selection: .eventStreams) { _ in }
        #expect(events.format(forMimeType: "application/x-ndjson") == nil)
        #expect(events.format(forMimeType: "text/event-stream") == .eventStream)
    }
}
