import Foundation
import Synchronization
import TincanCore

/// Prints a streamed response body as it arrives (`tincan send --stream`): each chunk's events
/// are written, and so flushed, in one write(2) as soon as they are complete.
///
/// Text: the response head goes to standard error when the stream starts, so standard output
/// carries only the body (as `curl -N` gives it): NDJSON as its bytes came (on a terminal, one line
/// at a time, indented when it is JSON); server-sent events as
/// a line `#N +T ms TYPE id=ID` (the count, the time since the request started) followed by
/// the data and a blank line; any other body as its bytes. JSON: one object per event, a line
/// each (JSON Lines): `{"event": N, "ms": T, "id": …, "type": …, "data": "…", "retry": …}`.
/// A write that fails (a closed pipe) stops the request; the command then exits 23.
final class StreamPrinter: Sendable {
    private struct State {
        var count = 0
        var failure: OutputError?
    }

    private let format: OutputFormat
    /// Whether NDJSON lines are indented for people (text on a terminal).
    private let pretty: Bool
    private let start: ContinuousClock.Instant
    private let state = Mutex(State())

    /// A printer in `format`, timing events from `start`.
    init(format: OutputFormat, pretty: Bool = false, start: ContinuousClock.Instant = .now) {
        self.format = format
        self.pretty = pretty && format == .text
        self.start = start
    }

    /// The stream options that print to this printer, for the bodies `selection` names.
    func options(_ selection: StreamOptions.Selection) -> StreamOptions {
        var options = StreamOptions(selection: selection) { [self] delivery in try receive(delivery) }
        // Text for a pipe or a file is the body as it came, as curl -N gives it: no line is
        // made into text and written again.
        options.passesLinesThrough = format == .text && !pretty
        return options
    }

    /// The first write that failed, if any.
    var failure: OutputError? { state.withLock { $0.failure } }

    private func receive(_ delivery: StreamOptions.Delivery) throws {
        try state.withLock { state in
            var bytes: [UInt8] = []
            switch delivery {
            case .started(let head, _):
                if format == .text {
                    StandardError.print(ResponseReport.headLines(head).joined(separator: "\n") + "\n\n")
                }
                return
            case .bytes(let buffer):
                // Written from where the chunk lies: a 100 MB body is not copied on its way out.
                let code = buffer.withUnsafeReadableBytes { AtomicFile.writeAll($0, to: STDOUT_FILENO) }
                guard code == 0 else {
                    let error = OutputError(target: "standard output", code: code)
                    state.failure = error
                    throw error
                }
                return
            case .events(let events, let instant), .ended(let events, let instant):
                let milliseconds = (instant - start).inMilliseconds
                // One allocation for the chunk's lines: growing by doubling copied each line again.
                bytes.reserveCapacity(events.reduce(0) { $0 + $1.data.utf8.count + 64 })
                for event in events {
                    state.count += 1
                    append(event, number: state.count, milliseconds: milliseconds, to: &bytes)
                }
            }
            guard !bytes.isEmpty else { return }
            do throws(OutputError) {
                try StandardOutput.writeNow(bytes)
            } catch {
                state.failure = error
                throw error
            }
        }
    }

    /// A line of JSON indented, or the line as it is when it is not JSON.
    static func indented(_ line: String) -> String {
        (try? JSONParser.parse(line)).map { JSONWriter.string($0, indent: 2) } ?? line
    }

    private func append(_ event: StreamEvent, number: Int, milliseconds: Double, to bytes: inout [UInt8]) {
        let time = (milliseconds * 1000).rounded() / 1000
        switch format {
        case .json:
            var object: OrderedValues = ["event": .integer(Int64(number)), "ms": .double(time)]
            if event.type != nil {
                object["id"] = event.id.map(ParameterValue.string) ?? .null
                object["type"] = event.type.map(ParameterValue.string) ?? .null
            }
            object["data"] = .string(event.data)
            if event.type != nil { object["retry"] = event.retry.map { .integer(Int64($0)) } ?? .null }
            bytes += JSONWriter.bytes(.dictionary(object))
            bytes.append(UInt8(ascii: "\n"))
        case .text, .markdown:
            guard let type = event.type else {
                bytes += (pretty ? TerminalText.text(Self.indented(event.data)) : event.data).utf8
                bytes.append(UInt8(ascii: "\n"))
                return
            }
            // On a terminal a server's control characters (escape sequences that retitle the
            // window or clear the screen) are shown as · and never obeyed, as the TUI shows them.
            let shown = pretty ? { TerminalText.text($0) } : { (text: String) in text }
            var line = "#\(number) +" + DecimalText.fixed(milliseconds, decimals: 1) + " ms \(shown(type))"
            if let id = event.id { line += " id=\(shown(id))" }
            if let retry = event.retry { line += " retry=\(retry)" }
            bytes += (line + "\n" + shown(event.data) + "\n\n").utf8
        }
    }
}
