/// One event of a streamed response body: a server-sent event, or one line of an NDJSON body.
public struct StreamEvent: Sendable, Hashable {
    /// The last event ID the stream set (SSE's `id:`, which carries over to later events), or
    /// nil when none was set and for lines.
    public var id: String?
    /// The event type (SSE's `event:`, `message` when none was given), or nil for a line.
    public var type: String?
    /// The event's data (SSE's `data:` lines joined with line feeds), or the line.
    public var data: String
    /// The reconnection time in milliseconds the server set with `retry:` since the event before.
    public var retry: Int?

    /// Creates an event.
    public init(id: String? = nil, type: String? = nil, data: String, retry: Int? = nil) {
        self.id = id
        self.type = type
        self.data = data
        self.retry = retry
    }
}

/// How a streamed body is cut into events.
public enum StreamFormat: String, Sendable, Hashable, CaseIterable {
    /// Server-sent events (`text/event-stream`), by the WHATWG HTML standard's parsing rules.
    case eventStream = "event-stream"
    /// One event per line (NDJSON, JSON Lines).
    case lines
    /// No events: the bytes as they arrive (`curl -N`).
    case bytes
    /// A WebSocket connection's received messages, one event each (``WebSocketFrameLog``).
    case webSocket = "websocket"

    /// The media types read as lines.
    public static let lineTypes: Set<String> = [
        "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonl",
        "application/jsonlines", "application/x-jsonlines", "application/json-lines",
    ]

    /// The format a `Content-Type` names: an event stream, lines, or nil for anything else.
    public init?(mimeType: String?) {
        guard let mimeType = mimeType?.lowercased() else { return nil }
        if mimeType == "text/event-stream" {
            self = .eventStream
        } else if Self.lineTypes.contains(mimeType) {
            self = .lines
        } else {
            return nil
        }
    }
}

/// What is kept of a stream for checks: how many events, the first and the last; never the
/// whole body, so memory stays flat however long the stream runs.
public struct StreamSummary: Sendable, Hashable {
    /// How the body was cut into events.
    public var format: StreamFormat
    /// The events so far.
    public var count = 0
    /// The first event.
    public var first: StreamEvent?
    /// The last event.
    public var last: StreamEvent?
    /// The bytes taken in.
    public var bytes: Int64 = 0

    /// An empty summary of a stream in `format`.
    public init(format: StreamFormat) {
        self.format = format
    }

    /// Counts `events` in.
    public mutating func add(_ events: [StreamEvent]) {
        guard let newest = events.last else { return }
        if first == nil { first = events.first }
        last = newest
        count += events.count
    }

    /// The summary of a whole body already in memory (a replay's), cut as `format` says.
    ///
    /// - Throws: ``StreamDecoder/EventTooLarge`` when one event passes `maximumEventBytes`.
    public static func of(_ body: [UInt8], format: StreamFormat, maximumEventBytes: Int = StreamDecoder.defaultMaximumEventBytes) throws(StreamDecoder.EventTooLarge) -> StreamSummary {
        var decoder = StreamDecoder(format: format, maximumEventBytes: maximumEventBytes)
        var summary = StreamSummary(format: format)
        summary.add(try decoder.decode(body[...]))
        summary.add(decoder.finish())
        summary.bytes = Int64(body.count)
        return summary
    }
}
