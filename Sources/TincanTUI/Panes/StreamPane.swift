import Foundation
import TerminalUI
import TincanCore

/// A streamed body (server-sent events, NDJSON) as rows of the Pretty view: one event a row,
/// with its arrival time since the send started, its id and type, and its data on one line. The
/// rows are a ``BodyDocument`` like any body's, so they page, go to their end, wrap, scroll
/// sideways and show each search match (issue 34 §7); the newest row is followed while the
/// selection is on it.
enum StreamPane {
    /// The log's events as rows.
    static func lines(_ log: StreamLog) -> [TokenLine] {
        log.entries.map { entry in
            var tokens = [Token(.muted, DecimalText.fixed(entry.time, decimals: 3, width: 7) + "s ")]
            switch log.format {
            case .eventStream:
                tokens.append(Token(.headerName, "\(entry.event.id ?? "-") "))
                tokens.append(Token(.method, "\(entry.event.type ?? "message") "))
            case .webSocket:
                // The direction and kind (`→ text`, `← close`), then the payload.
                tokens.append(Token(.method, "\(entry.event.type ?? "") "))
            case .lines, .bytes:
                break
            }
            tokens.append(Token(.base, entry.event.data.replacingOccurrences(of: "\n", with: "⏎")))
            return tokens
        }
    }

    /// The line over the rows: how many events, whether the stream goes on, and where the rest
    /// are when only the latest are listed.
    static func summary(_ log: StreamLog) -> TokenLine {
        let noun = log.format == .eventStream ? "event" : log.format == .webSocket ? "frame" : "line"
        let state = log.format == .webSocket ? (log.ended ? "closed" : "open · ctrl+r sends a message, ctrl+g closes") : (log.ended ? "ended" : "streaming…")
        var text = "\(log.count) \(noun)\(log.count == 1 ? "" : "s") · \(state)"
        if log.count > log.entries.count {
            text += " · the last \(log.entries.count) listed\(log.ended ? "; Raw shows the whole body" : "")"
        }
        return [Token(.muted, text)]
    }
}
