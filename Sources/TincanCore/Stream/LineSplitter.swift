#if canImport(Glibc)
import Glibc
#endif

/// Cuts an NDJSON (JSON Lines) body into lines, wherever the chunks happen to break: each line
/// ends with a line feed (a CR before it is dropped), blank lines are skipped, and a last line
/// without its line feed still counts when the body ends.
public struct LineSplitter: Sendable {
    private var pending: [UInt8] = []
    /// The most bytes one line may hold.
    public let maximumEventBytes: Int

    /// A splitter whose lines may hold up to `maximumEventBytes` each.
    public init(maximumEventBytes: Int = StreamDecoder.defaultMaximumEventBytes) {
        self.maximumEventBytes = maximumEventBytes
    }

    /// Takes in the next bytes and appends the lines they complete to `events`.
    ///
    /// - Throws: ``StreamDecoder/EventTooLarge`` when a line passes ``maximumEventBytes``.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, into events: inout [StreamEvent]) throws(StreamDecoder.EventTooLarge) {
        try scan(bytes) { line in
            if let event = Self.event(line) { events.append(event) }
        }
    }

    /// Takes in the next bytes as ``feed(_:into:)`` does, but makes text only of the lines a
    /// summary keeps (the body's first, and the last these bytes complete) and counts the rest:
    /// a body passed through as it came (`tincan send --stream`) still gets its summary, without
    /// a string per line.
    ///
    /// - Throws: ``StreamDecoder/EventTooLarge`` when a line passes ``maximumEventBytes``.
    public mutating func tally(_ bytes: UnsafeRawBufferPointer, into summary: inout StreamSummary) throws(StreamDecoder.EventTooLarge) {
        var lastInBytes: UnsafeRawBufferPointer?
        var lastEvent: StreamEvent?
        let range = bytes.baseAddress.map { UnsafeRawPointer($0)..<(UnsafeRawPointer($0) + bytes.count) }
        try scan(bytes) { line in
            guard Self.length(line) > 0 else { return }
            summary.count += 1
            if summary.first == nil { summary.first = Self.event(line) }
            // A line joined from earlier chunks lives in `pending`, which the rest of these bytes
            // may overwrite: its text is taken now; a line inside `bytes` is read at the end.
            if let base = line.baseAddress, range?.contains(UnsafeRawPointer(base)) == true {
                lastInBytes = line
                lastEvent = nil
            } else {
                lastInBytes = nil
                lastEvent = Self.event(line)
            }
        }
        if let line = lastInBytes { lastEvent = Self.event(line) }
        if let lastEvent { summary.last = lastEvent }
    }

    /// Calls `line` with each line `bytes` completes (with what earlier bytes left pending), its
    /// line feed excluded, and keeps the unfinished rest.
    private mutating func scan(_ bytes: UnsafeRawBufferPointer, _ line: (UnsafeRawBufferPointer) -> Void) throws(StreamDecoder.EventTooLarge) {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count {
            // memchr finds the line feeds at memory speed: a 100 MB body is the benchmark.
            guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) else {
                pending += UnsafeRawBufferPointer(rebasing: bytes[start...])
                if pending.count > maximumEventBytes { throw StreamDecoder.EventTooLarge(limit: maximumEventBytes) }
                return
            }
            let end = base.distance(to: UnsafeRawPointer(found))
            if pending.isEmpty {
                if end - start > maximumEventBytes { throw StreamDecoder.EventTooLarge(limit: maximumEventBytes) }
                line(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            } else {
                pending += UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                if pending.count > maximumEventBytes { throw StreamDecoder.EventTooLarge(limit: maximumEventBytes) }
                pending.withUnsafeBytes(line)
                pending.removeAll(keepingCapacity: true)
            }
            start = end + 1
        }
    }

    /// Ends the body: the line it ends without a line feed, if any.
    public mutating func finish() -> [StreamEvent] {
        defer { pending = [] }
        return pending.withUnsafeBytes(Self.event).map { [$0] } ?? []
    }

    /// The line's length without a CR before its end.
    private static func length(_ line: UnsafeRawBufferPointer) -> Int {
        line.count > 0 && line[line.count - 1] == UInt8(ascii: "\r") ? line.count - 1 : line.count
    }

    /// The line as an event, a CR before its end dropped; nil for a blank line.
    private static func event(_ line: UnsafeRawBufferPointer) -> StreamEvent? {
        let count = length(line)
        guard count > 0 else { return nil }
        return StreamEvent(data: String(decoding: UnsafeRawBufferPointer(rebasing: line[..<count]), as: UTF8.self))
    }
}
