import Foundation

/// One WebSocket frame as a person sees it: which way it went, when, what kind, and what it held.
///
/// A message the server split into continuation frames is one record, put together within
/// ``WebSocketLimits/maximumMessageBytes``. Pings and pongs are answered by the library and are
/// not recorded; a close is, with its code.
public struct WebSocketFrameRecord: Sendable, Hashable {
    /// Which way a frame went.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        case sent, received

        /// The arrow the text output and the TUI draw for it.
        public var arrow: String { self == .sent ? "→" : "←" }
    }

    /// What a frame carries.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case text, binary, close
    }

    public var direction: Direction
    /// When it was sent or received.
    public var time: Date
    public var kind: Kind
    /// The payload: UTF-8 text, bytes, or a close frame's reason.
    public var data: [UInt8]
    /// A close frame's status code (1000 is a normal closure), nil for others and for a close
    /// frame without one.
    public var closeCode: UInt16?

    /// Creates a record.
    public init(direction: Direction, time: Date = Date(), kind: Kind, data: [UInt8] = [], closeCode: UInt16? = nil) {
        self.direction = direction
        self.time = time
        self.kind = kind
        self.data = data
        self.closeCode = closeCode
    }

    /// A text frame of `text`.
    public static func text(_ text: String, _ direction: Direction, at time: Date = Date()) -> WebSocketFrameRecord {
        WebSocketFrameRecord(direction: direction, time: time, kind: .text, data: Array(text.utf8))
    }

    /// The payload as text: a text frame's or a close reason's UTF-8 (invalid bytes replaced),
    /// or a binary frame's bytes in base64, as checks and captures read it.
    public var text: String {
        kind == .binary ? Data(data).base64EncodedString() : String(decoding: data, as: UTF8.self)
    }

    /// What the text output and the TUI's frame list show after the arrow, raw: a text frame's
    /// text, `binary N bytes: 0a1b…` (the first 32 bytes) or `close 1000 reason`. Callers pass
    /// it to ``TerminalText/line(_:)`` before it reaches a terminal.
    public var summary: String {
        switch kind {
        case .text: return text
        case .binary:
            let shown = HexText.bytes(data.prefix(32))
            return "binary \(data.count) byte\(data.count == 1 ? "" : "s")\(data.isEmpty ? "" : ": " + shown)\(data.count > 32 ? " …" : "")"
        case .close:
            let reason = text
            return "close" + (closeCode.map { " \($0)" } ?? "") + (reason.isEmpty ? "" : " " + reason)
        }
    }
}

/// Bounds on what a WebSocket connection keeps and waits for, whatever a server sends.
public struct WebSocketLimits: Sendable, Hashable {
    /// The largest frame read or written: a bigger one from the server ends the connection with
    /// 1009 (message too big) before it is buffered. Outgoing messages past it are fragmented.
    public var maximumFrameBytes = 16 << 20
    /// The largest message put together from continuation frames: a server that sends endless
    /// fragments is closed with 1009 at this size.
    public var maximumMessageBytes = 16 << 20
    /// The most frames a list keeps (``WebSocketFrameLog``): the newest are kept, the rest counted.
    public var keptFrames = 1_000
    /// How long to wait for the server's answer to our close before the connection is cut.
    public var closeTimeout: Duration = .seconds(10)

    /// The defaults: 16 MiB frames and messages, 1,000 frames kept, 10 s for the close.
    public init() {}

}

extension NumericRange {
    /// The largest WebSocket message and frame (`ws --max-message-size`, a session's
    /// `websocket: max-message-size:`): 1 kB up to 1 GiB, decimal `k`, `M` and `G`.
    public static let webSocketMessageSize = NumericRange(
        name: "max-message-size", minimum: 1_000, maximum: 1_073_741_824, isInteger: true, unit: "bytes",
        suffixes: ["k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "g": 1e9, "G": 1e9], examples: "64k or 16M")
}

/// The frames of one connection, in order, bounded: the newest ``WebSocketLimits/keptFrames``
/// kept and every frame counted, so a server that sends without end grows nothing.
public struct WebSocketFrameLog: Sendable, Hashable {
    /// The frames kept, oldest first.
    public private(set) var frames: [WebSocketFrameRecord] = []
    /// How many frames there were in all, the dropped ones included.
    public private(set) var total = 0
    /// Of them, how many were received text or binary messages.
    public private(set) var receivedMessages = 0
    /// The first and the last received text or binary message, kept whatever is dropped.
    public private(set) var firstReceived: WebSocketFrameRecord?
    public private(set) var lastReceived: WebSocketFrameRecord?
    /// How many frames are kept at most.
    public let capacity: Int

    /// An empty log that keeps at most `capacity` frames.
    public init(capacity: Int = WebSocketLimits().keptFrames) {
        self.capacity = max(1, capacity)
    }

    /// Adds `frame`, dropping the oldest when full.
    public mutating func append(_ frame: WebSocketFrameRecord) {
        total += 1
        if frame.direction == .received, frame.kind != .close {
            receivedMessages += 1
            if firstReceived == nil { firstReceived = frame }
            lastReceived = frame
        }
        if frames.count == capacity { frames.removeFirst(frames.count - capacity + 1) }
        frames.append(frame)
    }

    /// How many frames were dropped to stay within the capacity.
    public var dropped: Int { total - frames.count }

    /// The received messages as a stream summary, so that `stream-events`, `stream-first` and
    /// `stream-last` check and capture them as they do a streamed body's events.
    public var streamSummary: StreamSummary {
        var summary = StreamSummary(format: .webSocket)
        summary.count = receivedMessages
        summary.first = firstReceived.map { StreamEvent(type: $0.kind.rawValue, data: $0.text) }
        summary.last = lastReceived.map { StreamEvent(type: $0.kind.rawValue, data: $0.text) }
        summary.bytes = Int64(frames.reduce(0) { $0 + ($1.direction == .received ? $1.data.count : 0) })
        return summary
    }
}
