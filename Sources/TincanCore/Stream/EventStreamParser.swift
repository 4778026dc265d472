/// Cuts a `text/event-stream` body into events, by the WHATWG HTML standard's rules
/// (§9.2.6, "Interpreting an event stream"), wherever the chunks happen to break.
///
/// Lines end with CR, LF or CRLF (a CR at the end of one chunk and an LF at the start of the next
/// are one line end); one byte-order mark at the very start is dropped; a line starting with `:`
/// is a comment; a line without a colon is a field with an empty value; one space after the
/// colon is dropped. `data:` lines are joined with line feeds; `event:` sets the type (`message`
/// when none is given); `id:` sets the last event ID, which later events keep too, unless its
/// value holds a NUL; `retry:` takes only digits. A blank line dispatches the event, unless no
/// data came; an event the stream ends before its blank line is not dispatched.
public struct EventStreamParser: Sendable {
    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var type: [UInt8] = []
    private var lastEventID: String?
    private var retry: Int?
    private var afterCR = false
    /// The bytes of a byte-order mark seen so far at the start, or nil once past it.
    private var byteOrderMark: [UInt8]? = []
    /// The most bytes one event may take up (its line being read, its data and type).
    public let maximumEventBytes: Int

    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// A parser whose events may take up to `maximumEventBytes` each.
    public init(maximumEventBytes: Int = StreamDecoder.defaultMaximumEventBytes) {
        self.maximumEventBytes = maximumEventBytes
    }

    /// Takes in the next bytes and appends the events they complete to `events`.
    ///
    /// - Throws: ``StreamDecoder/EventTooLarge`` when an event passes ``maximumEventBytes``.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, into events: inout [StreamEvent]) throws(StreamDecoder.EventTooLarge) {
        var start = 0
        if var mark = byteOrderMark {
            while start < bytes.count, mark.count < 3 {
                mark.append(bytes[start])
                start += 1
                guard Self.bom.starts(with: mark) else {
                    // Not a byte-order mark after all: its bytes are the stream's first.
                    byteOrderMark = nil
                    for byte in mark { try take(byte, into: &events) }
                    break
                }
            }
            if byteOrderMark != nil { byteOrderMark = mark.count == 3 ? nil : mark }
        }
        for index in start..<bytes.count { try take(bytes[index], into: &events) }
    }

    /// Ends the stream. An event without its blank line is not dispatched, so there is never one to add.
    public mutating func finish() -> [StreamEvent] {
        line = []
        data = []
        type = []
        return []
    }

    private mutating func take(_ byte: UInt8, into events: inout [StreamEvent]) throws(StreamDecoder.EventTooLarge) {
        switch byte {
        case Self.lineFeed:
            if afterCR {
                afterCR = false
                return
            }
            endLine(into: &events)
        case Self.carriageReturn:
            endLine(into: &events)
            afterCR = true
        default:
            afterCR = false
            line.append(byte)
            if line.count + data.count + type.count > maximumEventBytes { throw StreamDecoder.EventTooLarge(limit: maximumEventBytes) }
        }
    }

    private mutating func endLine(into events: inout [StreamEvent]) {
        defer { line.removeAll(keepingCapacity: true) }
        guard let first = line.first else {
            dispatch(into: &events)
            return
        }
        if first == UInt8(ascii: ":") { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let field = line[..<(colon ?? line.endIndex)]
        var value = colon.map { line[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            type = Array(value)
        case "data":
            data += value
            data.append(Self.lineFeed)
        case "id":
            if !value.contains(0) { lastEventID = value.isEmpty ? nil : String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                retry = Int(String(decoding: value, as: UTF8.self))
            }
        default:
            break
        }
    }

    private mutating func dispatch(into events: inout [StreamEvent]) {
        defer {
            data.removeAll(keepingCapacity: true)
            type.removeAll(keepingCapacity: true)
        }
        guard !data.isEmpty else { return }
        data.removeLast()
        events.append(StreamEvent(id: lastEventID, type: type.isEmpty ? "message" : String(decoding: type, as: UTF8.self),
                                  data: String(decoding: data, as: UTF8.self), retry: retry))
        retry = nil
    }
}
