import Foundation
import TerminalUI
import TincanCore
import TincanSessions

/// A send of this run kept for comparing: its request as it went on the wire and its response
/// (status line, headers and body), secrets redacted, the body capped.
public struct SentSnapshot: Sendable, Equatable {
    public var title: String
    public var request: [String]
    public var response: [String]

    /// The most body lines kept per send, and the most sends kept.
    static let bodyLineLimit = 2_000
    static let keptSends = 50
}

extension AppState {
    /// Keeps what a finished send looked like, for alt+d.
    mutating func keepSnapshot(of exchange: Exchange, result: TaskResult) {
        var request: [String] = []
        if let text = try? RequestPreview.text(exchange.request) {
            request = Self.redactingHeaders(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
        var response: [String] = []
        if let head = result.response {
            response.append(head.statusLine)
            // Headers that differ on every send would drown the real differences.
            for field in head.headers where !["date", "age", "x-request-id", ReceivedRequest.idHeader.lowercased()].contains(field.name.lowercased()) {
                response.append("\(field.name): \(Redaction.headerValue(name: field.name, value: field.value))")
            }
            response.append("")
            let body = exchange.prettyBody
            response += (0..<min(body.rowCount, SentSnapshot.bodyLineLimit)).map(body.text)
            if body.rowCount > SentSnapshot.bodyLineLimit { response.append("… \(body.rowCount - SentSnapshot.bodyLineLimit) more lines not compared") }
        } else if let error = result.transportError {
            response.append("transport error: \(error)")
        }
        let number = history.count
        let status = result.response.map { "\($0.statusCode)" } ?? "error"
        snapshots.append(SentSnapshot(title: "#\(number) \(exchange.request.method) \(Redaction.url(exchange.request.url.string)) → \(status)", request: request, response: response))
        if snapshots.count > SentSnapshot.keptSends { snapshots.removeFirst(snapshots.count - SentSnapshot.keptSends) }
    }

    /// The header lines of a wire text (up to the first empty line) with secrets hidden.
    private static func redactingHeaders(_ lines: [String]) -> [String] {
        var inHeaders = true
        return lines.enumerated().map { index, line in
            if line.isEmpty { inHeaders = false }
            guard inHeaders, index > 0, let colon = line.firstIndex(of: ":") else { return line }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            return "\(name): \(Redaction.headerValue(name: name, value: value))"
        }
    }

    /// alt+d: pick the first send to compare, then the second.
    mutating func pickComparison(first: Int? = nil) {
        guard snapshots.count >= 2 else {
            status = StatusMessage("Compare needs two sends in this run (responses are kept in memory only); \(snapshots.count) so far.")
            return
        }
        let options = snapshots.reversed().map(\.title)
        if let first {
            let others = options.enumerated().filter { $0.offset != first }
            mode = .modal(.picker(Picker(.compareSecond(first: first), title: "…with which send? (\(options[first]))", options: others.map(\.element), selected: others.first?.element ?? "")))
        } else {
            mode = .modal(.picker(Picker(.compareFirst, title: "Compare: pick the older send (−)", options: options, selected: options[min(1, options.count - 1)])))
        }
    }

    /// Shows the diff of two kept sends (indices into the picker's newest-first list).
    mutating func showComparison(_ first: Int, _ second: Int) {
        let newestFirst = Array(snapshots.reversed())
        let old = newestFirst[first]
        let new = newestFirst[second]
        let theme = self.theme
        var lines: [StyledLine] = [
            [Span("− " + old.title, theme.style(.error))],
            [Span("+ " + new.title, theme.style(.success))],
        ]
        var summary: [String] = []
        for (name, before, after) in [("Request", old.request, new.request), ("Response", old.response, new.response)] {
            let changes = LineDiff.diff(before, after)
            let changed = changes.filter { if case .same = $0 { false } else { true } }.count
            summary.append("\(name.lowercased()): \(changed == 0 ? "identical" : "\(changed) line\(changed == 1 ? "" : "s") differ")")
            lines.append([])
            lines.append([Span(name, theme.style(.title))])
            lines += Self.render(changes, theme: theme)
        }
        mode = .modal(.message(Dialog(title: "Compare · " + summary.joined(separator: " · "), lines: lines, hint: "↑↓ scroll · esc close")))
    }

    /// Changes as dialog lines; runs of more than six unchanged lines keep three on each side.
    private static func render(_ changes: [LineDiff.Change], theme: Theme) -> [StyledLine] {
        var lines: [StyledLine] = []
        var index = 0
        while index < changes.count {
            if case .same = changes[index] {
                var end = index
                while end < changes.count, case .same = changes[end] { end += 1 }
                let run = changes[index..<end]
                let keepHead = index == 0 ? 0 : 3
                let keepTail = end == changes.count ? 0 : 3
                if run.count > keepHead + keepTail + 1 {
                    for change in run.prefix(keepHead) { lines.append(line(change, theme)) }
                    lines.append([Span("  … \(run.count - keepHead - keepTail) unchanged lines", theme.style(.muted))])
                    for change in run.suffix(keepTail) { lines.append(line(change, theme)) }
                } else {
                    for change in run { lines.append(line(change, theme)) }
                }
                index = end
            } else {
                lines.append(line(changes[index], theme))
                index += 1
            }
        }
        return lines
    }

    private static func line(_ change: LineDiff.Change, _ theme: Theme) -> StyledLine {
        switch change {
        case let .same(text): [Span("  " + text, theme.style(.muted))]
        case let .removed(text): [Span("− " + text, theme.style(.error))]
        case let .added(text): [Span("+ " + text, theme.style(.success))]
        }
    }
}
