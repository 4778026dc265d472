import Foundation
import TerminalUI
import TincanCore

/// The response body of a stream: a live list of its events, the newest at the bottom, under a
/// line with the count. Each row: arrival time since the send started, id, event type, and the
/// data on one line, cut to the width.
enum StreamPane {
    static func draw(_ buffer: inout ScreenBuffer, _ log: StreamLog, in body: Rect, theme: Theme) {
        guard body.height > 0, body.width > 1 else { return }
        let noun = log.format == .eventStream ? "event" : "line"
        let state = log.ended ? "ended" : "streaming…"
        let title = "\(log.count) \(noun)\(log.count == 1 ? "" : "s") · \(state)"
        _ = buffer.write(title, x: body.x + 1, y: body.y, style: theme.style(.muted), limit: body.width - 1)
        let rows = body.height - 1
        guard rows > 0 else { return }
        for (row, entry) in log.entries.suffix(rows).enumerated() {
            var spans = [Span(String(format: "%7.3fs ", entry.time), theme.style(.muted))]
            if log.format == .eventStream {
                spans.append(Span("\(entry.event.id ?? "-") ", theme.style(.headerName)))
                spans.append(Span("\(entry.event.type ?? "message") ", theme.style(.method)))
            }
            spans.append(Span(entry.event.data.replacingOccurrences(of: "\n", with: "⏎"), theme.style(.base)))
            _ = buffer.write(spans, x: body.x + 1, y: body.y + 1 + row, limit: body.width - 1)
        }
    }
}
