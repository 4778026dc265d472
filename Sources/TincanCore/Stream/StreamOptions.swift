import NIOCore

/// A task's request to see its response body as it arrives rather than kept whole: events of a
/// `text/event-stream`, lines of an NDJSON body, or (with ``Selection/every``) the raw bytes of
/// any other body. A streamed body is not kept in memory; the result's ``TaskResult/stream``
/// keeps the count and the first and last events for checks.
public struct StreamOptions: Sendable {
    /// Which bodies are streamed.
    public enum Selection: Sendable, Equatable {
        /// Only `text/event-stream` bodies (a terminal's default in `tincan send`).
        case eventStreams
        /// Event streams and line-delimited bodies; others are kept in memory as usual.
        case eventStreamsAndLines
        /// Every body: event streams and lines as events, anything else as raw bytes.
        case every
    }

    /// What the receiver is handed, in order, on the transport's thread.
    public enum Delivery: Sendable {
        /// The final response's head, and how its body will be cut.
        case started(HTTPResponse, StreamFormat)
        /// Events the latest chunk completed, and when it arrived.
        case events([StreamEvent], at: ContinuousClock.Instant)
        /// A chunk of a body streamed as raw bytes.
        case bytes(ByteBuffer)
        /// The body ended; the events its end completed (an NDJSON line without a line feed).
        case ended([StreamEvent], at: ContinuousClock.Instant)
    }

    /// Which bodies are streamed.
    public var selection: Selection
    /// The most bytes one event may take up; an event past it fails the task with
    /// ``TransportError/Reason/limitExceeded(_:)`` naming it.
    public var maximumEventBytes = StreamDecoder.defaultMaximumEventBytes
    /// Whether the body is also kept in memory while it streams, up to the task's
    /// `maximumBodyBytes`, so that checks on the whole body (its size, digests, body paths) still
    /// apply; past the limit it is let go and only the events go on. The TUI keeps it; `tincan
    /// send --stream` does not, so a stream of any length runs in flat memory.
    public var keepsBody = false
    /// Whether a body of lines (NDJSON) reaches the receiver as it came, in `.bytes` chunks, as
    /// `curl -N` prints it, rather than as events: its lines are still counted, and the first
    /// and last kept, for the summary, but no text is made of the others. `tincan send --stream`
    /// passes lines through when it prints text that no one reads on a terminal.
    public var passesLinesThrough = false
    /// Takes each delivery; an error it throws (a closed pipe) stops the request.
    public var receive: @Sendable (Delivery) throws -> Void

    /// Streams the bodies `selection` names to `receive`.
    public init(selection: Selection, receive: @escaping @Sendable (Delivery) throws -> Void) {
        self.selection = selection
        self.receive = receive
    }

    /// How a response with `mimeType` is streamed, or nil when it is kept in memory instead.
    public func format(forMimeType mimeType: String?) -> StreamFormat? {
        let format = StreamFormat(mimeType: mimeType)
        switch selection {
        case .eventStreams: return format == .eventStream ? format : nil
        case .eventStreamsAndLines: return format
        case .every: return format ?? .bytes
        }
    }
}
