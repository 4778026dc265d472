import ArgumentParser
import Foundation
import Synchronization
import TincanCore

/// Prints `tincan ws`'s frames as they go and come, one write(2) a frame.
///
/// Text: `HH:MM:SS.mmm → hello` (sent) and `HH:MM:SS.mmm ← hello` (received), local time; a
/// binary frame as `binary N bytes: …hex…`, a close as `close 1000 reason`. The payload is one
/// line: what came from the server goes through ``TerminalText/line(_:)``, so a line feed or an
/// escape sequence is shown as `·`, never obeyed. JSON: one object a frame, a line each,
/// `{"direction": "sent"|"received", "time": ISO 8601 UTC, "type": "text"|"binary"|"close",
/// "data": …}` (binary data in base64; a close adds `"code"`).
final class WebSocketPrinter: Sendable {
    /// `ws --format`.
    enum Format: String, OptionWord {
        case text, json
    }

    private let format: Format
    private let failure = Mutex<OutputError?>(nil)

    init(format: Format) {
        self.format = format
    }

    /// Prints `frame`, unless an earlier write failed.
    func print(_ frame: WebSocketFrameRecord) {
        failure.withLock { failure in
            guard failure == nil else { return }
            do throws(OutputError) {
                try StandardOutput.writeNow(Self.bytes(frame, format: format))
            } catch {
                failure = error
            }
        }
    }

    /// The first write that failed, if any.
    var firstFailure: OutputError? { failure.withLock { $0 } }

    /// `frame` as a line of `format`, its line feed included.
    static func bytes(_ frame: WebSocketFrameRecord, format: Format) -> [UInt8] {
        switch format {
        case .text:
            return Array((clockText(frame.time) + " " + frame.direction.arrow + " " + TerminalText.line(frame.summary) + "\n").utf8)
        case .json:
            var object: OrderedValues = ["direction": .string(frame.direction.rawValue), "time": .string(isoText(frame.time)),
                                         "type": .string(frame.kind.rawValue), "data": .string(frame.text)]
            if frame.kind == .close { object["code"] = frame.closeCode.map { .integer(Int64($0)) } ?? .null }
            return JSONWriter.bytes(.dictionary(object)) + [UInt8(ascii: "\n")]
        }
    }

    /// `date` as local `HH:MM:SS.mmm`.
    static func clockText(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        let milliseconds = Int((date.timeIntervalSince1970 - Double(seconds)) * 1000)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millis)"
    }

    /// `date` in ISO 8601, UTC, to the millisecond (`2026-12-03T15:04:05.123Z`).
    static func isoText(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
