import TincanCore

/// A streamed response as the response box lists it while it arrives and after: how many events
/// came, and the latest of them with their arrival times. Bounded: only the latest
/// ``capacity`` events are kept, however long the stream runs, and of each no more of its data
/// than ``keptDataBytes`` (a list row shows one line of it; an event may hold 16 MiB).
public struct StreamLog: Sendable, Equatable {
    /// One event and when it arrived, in seconds since the send started.
    public struct Entry: Sendable, Equatable {
        public var time: Double
        public var event: StreamEvent
    }

    /// The most events kept for the list.
    public static let capacity = 1_000
    /// The most bytes of an event's data kept for its row.
    public static let keptDataBytes = 4_096

    /// How the body is cut: events or lines.
    public var format: StreamFormat
    /// Every event so far, including those no longer kept.
    public private(set) var count = 0
    /// The latest events, oldest first.
    public private(set) var entries: [Entry] = []
    /// Whether the body has ended.
    public var ended = false

    /// An empty log of a stream in `format`.
    public init(format: StreamFormat) {
        self.format = format
    }

    /// Adds events that arrived `time` seconds after the send started.
    public mutating func add(_ events: [StreamEvent], at time: Double) {
        count += events.count
        entries += events.suffix(Self.capacity).map { event in
            var kept = event
            if event.data.utf8.count > Self.keptDataBytes {
                kept.data = String(decoding: event.data.utf8.prefix(Self.keptDataBytes), as: UTF8.self) + "…"
            }
            return Entry(time: time, event: kept)
        }
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }
}

extension Exchange {
    /// Folds in a delivery of the send's streamed body.
    mutating func fold(_ delivery: StreamOptions.Delivery, at time: Double) {
        switch delivery {
        case .started(_, let format):
            stream = StreamLog(format: format)
            milestones.append((time, "streaming \(format == .eventStream ? "server-sent events" : "lines")"))
        case .events(let events, _):
            let since = time - startedAt
            stream?.add(events, at: since)
        case .ended(let events, _):
            let since = time - startedAt
            stream?.add(events, at: since)
            stream?.ended = true
        case .bytes:
            break
        }
    }
}
