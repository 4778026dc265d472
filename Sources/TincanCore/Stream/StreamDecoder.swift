import NIOCore

/// Cuts a streamed body into events as its format says: server-sent events, lines, or none
/// (raw bytes, passed on as they are).
public struct StreamDecoder: Sendable {
    /// The most one event (or line) may hold by default: 16 MiB. Memory stays bounded however
    /// long a stream runs, since only the event being read is kept.
    public static let defaultMaximumEventBytes = 16 << 20

    /// An event that passed the most one event may hold.
    public struct EventTooLarge: Error, Sendable, Equatable, CustomStringConvertible {
        /// The limit passed, in bytes.
        public var limit: Int

        /// The error for an event past `limit` bytes.
        public init(limit: Int) {
            self.limit = limit
        }

        public var description: String {
            "an event of the stream passed \(RequestPreview.byteCount(Int64(limit))), the most one event may hold"
        }
    }

    private enum Cutter: Sendable {
        case eventStream(EventStreamParser)
        case lines(LineSplitter)
        case bytes
    }

    /// How the body is cut.
    public let format: StreamFormat
    private var cutter: Cutter

    /// A decoder for `format` whose events may hold up to `maximumEventBytes` each.
    public init(format: StreamFormat, maximumEventBytes: Int = StreamDecoder.defaultMaximumEventBytes) {
        self.format = format
        switch format {
        case .eventStream: cutter = .eventStream(EventStreamParser(maximumEventBytes: maximumEventBytes))
        case .lines: cutter = .lines(LineSplitter(maximumEventBytes: maximumEventBytes))
        // A WebSocket's messages come framed, never as a body to cut.
        case .bytes, .webSocket: cutter = .bytes
        }
    }

    /// The events `bytes` complete (none for raw bytes).
    public mutating func decode(_ bytes: UnsafeRawBufferPointer) throws(EventTooLarge) -> [StreamEvent] {
        var events: [StreamEvent] = []
        switch cutter {
        case .eventStream(var parser):
            // Out of the enum while it changes, so its buffers are not copied on write.
            cutter = .bytes
            defer { cutter = .eventStream(parser) }
            try parser.feed(bytes, into: &events)
        case .lines(var splitter):
            cutter = .bytes
            defer { cutter = .lines(splitter) }
            try splitter.feed(bytes, into: &events)
        case .bytes:
            break
        }
        return events
    }

    /// Counts the events a chunk in a `ByteBuffer` completes into `summary`, as
    /// ``StreamSummary/add(_:)`` would, making text only of the lines a summary keeps for a body
    /// of lines (``LineSplitter/tally(_:into:)``).
    public mutating func tally(_ buffer: ByteBuffer, into summary: inout StreamSummary) throws(EventTooLarge) {
        guard case .lines(var splitter) = cutter else { return summary.add(try decode(buffer)) }
        cutter = .bytes
        defer { cutter = .lines(splitter) }
        var failure: EventTooLarge?
        buffer.withUnsafeReadableBytes { raw in
            do throws(EventTooLarge) {
                try splitter.tally(raw, into: &summary)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The events a chunk of bytes completes.
    public mutating func decode(_ bytes: ArraySlice<UInt8>) throws(EventTooLarge) -> [StreamEvent] {
        try decoding { body in bytes.withUnsafeBytes(body) }
    }

    /// The events a chunk in a `ByteBuffer` completes.
    public mutating func decode(_ buffer: ByteBuffer) throws(EventTooLarge) -> [StreamEvent] {
        try decoding { body in buffer.withUnsafeReadableBytes(body) }
    }

    /// Decodes the bytes `access` lends.
    private mutating func decoding(_ access: ((UnsafeRawBufferPointer) -> Void) -> Void) throws(EventTooLarge) -> [StreamEvent] {
        var events: [StreamEvent] = []
        var failure: EventTooLarge?
        access { raw in
            do throws(EventTooLarge) {
                events = try decode(raw)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return events
    }

    /// Ends the body: what its end completes (a last line without a line feed).
    public mutating func finish() -> [StreamEvent] {
        switch cutter {
        case .eventStream(var parser):
            // Out of the enum while it changes, so its buffers are not copied on write.
            cutter = .bytes
            defer { cutter = .eventStream(parser) }
            return parser.finish()
        case .lines(var splitter):
            cutter = .bytes
            defer { cutter = .lines(splitter) }
            return splitter.finish()
        case .bytes:
            return []
        }
    }
}
