import Foundation
import TerminalUI
import TincanCore

/// The body search: the query that n and N repeat, and where it stands. (The field the query is
/// typed in is an ``InputMode``.)
public struct SearchState: Sendable, Equatable {
    /// The last query run.
    public var query: SearchQuery?
    /// How many times it occurs in the body.
    public var matchCount = 0
    /// The match n and N step from, once a search has found one.
    public var current: SearchMatch?

    public init() {}
}

/// The match a search stands on: its display row, which of the row's matches it is (n and N
/// step through a row's matches before leaving it), and its number among all of them.
public struct SearchMatch: Sendable, Equatable {
    public var row: Int
    public var ordinal: Int
    /// 1 for the body's first match.
    public var number: Int

    public init(row: Int, ordinal: Int, number: Int) {
        self.row = row
        self.ordinal = ordinal
        self.number = number
    }
}

extension AppState {
    /// The document the Pretty or Raw view shows, or nil for the other views.
    public var bodyDocument: BodyDocument? {
        guard let exchange else { return nil }
        // A stream's events are its Pretty view, and its Raw view until the whole body is in.
        if exchange.stream != nil, responseView == .pretty || (responseView == .raw && exchange.result == nil) {
            return exchange.streamBody
        }
        guard exchange.result != nil || exchange.decoding != nil else { return nil }
        switch responseView {
        case .pretty: return activeBodyFilter?.document ?? exchange.prettyBody
        case .raw: return exchange.rawBody
        case .headers, .timing: return nil
        }
    }

    /// Changes the shown document in place (folding, or a search that unfolds).
    mutating func updateBodyDocument<T>(_ change: (inout BodyDocument) -> T) -> T? {
        guard var current = exchange else { return nil }
        if current.stream != nil, responseView == .pretty || (responseView == .raw && current.result == nil) {
            let result = change(&current.streamBody)
            exchange = current
            return result
        }
        guard current.result != nil || current.decoding != nil else { return nil }
        let result: T
        switch responseView {
        case .pretty:
            if var filter = activeBodyFilter {
                result = change(&filter.document)
                bodyFilter = filter
                return result
            }
            result = change(&current.prettyBody)
        case .raw: result = change(&current.rawBody)
        case .headers, .timing: return nil
        }
        exchange = current
        return result
    }

    /// Switches the response view; the search counts again in the new view's rows.
    mutating func showResponseView(_ view: ResponseView) {
        responseView = view
        showNewBodyDocument()
    }

    /// After the shown document changed (another view, a filter set or cleared): the selection
    /// at `row`, and the search counted again in the new rows.
    mutating func showNewBodyDocument(selecting row: Int = 0) {
        response.showNewDocument(bodyDocument, selecting: row)
    }

    /// Rows the response box shows at once.
    var responseViewport: Int {
        ScreenLayout(self).responseBox.map { max(1, $0.height - 2 - min(responseHeaderRowCount(width: $0.width - 3), max(1, ($0.height - 2) / 2))) } ?? max(1, height / 3)
    }

    // MARK: - Actions

    mutating func performBody(_ action: Action) -> [Effect] {
        guard let document = bodyDocument else {
            status = StatusMessage(exchange?.result == nil ? "No response body yet." : "Search, folds and paths work in the Pretty and Raw views (F3 switches).")
            return []
        }
        switch action {
        case .search:
            mode = .search(TextField())
        case .searchNext, .searchPrevious:
            guard let query = search.query else {
                status = StatusMessage("No search yet: press / and type what to find.")
                return []
            }
            runSearch(query, forward: action == .searchNext, skipCurrent: true)
        case .copyPath:
            guard let path = document.path(at: bodyList.selected) else {
                status = StatusMessage("Paths are for JSON bodies in the Pretty view.", .warning)
                return []
            }
            offerPathActions(path, value: document.value(at: bodyList.selected))
        case .toggleFold, .fold, .unfold, .foldAll, .unfoldAll:
            // A fold moves the rows under the current match: n searches on from the cursor.
            search.current = nil
            foldBody(action, document)
        default:
            break
        }
        return []
    }

    private mutating func foldBody(_ action: Action, _ document: BodyDocument) {
        switch action {
        case .toggleFold:
            let selected = bodyList.selected
            if let row = updateBodyDocument({ $0.toggleFold(at: selected) }) ?? nil {
                bodyList.selected = row
            } else if !document.folds {
                status = StatusMessage("Only JSON in the Pretty view folds.")
            }
        case .fold, .unfold:
            let selected = bodyList.selected
            if let row = updateBodyDocument({ $0.fold(at: selected, action == .fold) }) { bodyList.selected = row }
        case .foldAll, .unfoldAll:
            _ = updateBodyDocument { $0.foldTopLevel(action == .foldAll) }
            bodyList.select(action == .foldAll ? 0 : bodyList.selected, count: bodyDocument?.rowCount ?? 0)
        default:
            break
        }
    }

    /// Keys while the search field is open: enter runs it, escape closes it.
    mutating func handleSearchField(_ event: InputEvent) {
        guard var field = searchField else { return }
        if case let .key(key) = event, key.modifiers.isEmpty {
            switch key.key {
            case .escape:
                mode = .panes
                return
            case .enter:
                mode = .panes
                guard let query = SearchQuery(field.text) else {
                    search.query = nil
                    search.current = nil
                    status = StatusMessage("Search cleared.")
                    return
                }
                search.query = query
                search.current = nil
                search.matchCount = bodyDocument?.matchCount(query) ?? 0
                runSearch(query, forward: true, skipCurrent: false)
                return
            default:
                break
            }
        }
        field.handle(event)
        mode = .search(field)
    }

    /// Moves to the next (or previous) match: first through the rest of the current row's
    /// matches, then by a search of the body's bytes, wrapping at either end.
    private mutating func runSearch(_ query: SearchQuery, forward: Bool, skipCurrent: Bool) {
        let from = bodyList.selected
        if skipCurrent, let current = search.current, current.row == from, let document = bodyDocument {
            let ordinal = current.ordinal + (forward ? 1 : -1)
            if ordinal >= 0, ordinal < query.ranges(in: document.text(from)).count {
                search.current = SearchMatch(row: from, ordinal: ordinal, number: min(max(1, current.number + (forward ? 1 : -1)), max(1, search.matchCount)))
                reportMatch(query, wrapped: false)
                return
            }
        }
        guard let found = updateBodyDocument({ $0.find(query, from: from, forward: forward, skipCurrent: skipCurrent) }) ?? nil else {
            search.current = nil
            status = StatusMessage("Not found: \(query.text)", .warning)
            return
        }
        let wrapped = forward ? found.row < from || (skipCurrent && found.row == from) : found.row > from
        bodyList.select(found.row, count: bodyDocument?.rowCount ?? 0)
        // A search forward lands on the row's first match; backward, on its last.
        let onRow = bodyDocument.map { query.ranges(in: $0.text(found.row)).count } ?? 1
        let ordinal = forward ? 0 : max(0, onRow - 1)
        search.current = SearchMatch(row: found.row, ordinal: ordinal, number: min(found.before + 1, max(1, search.matchCount)))
        reportMatch(query, wrapped: wrapped)
    }

    /// Scrolls the response box sideways so the current match shows, when long lines are cut
    /// rather than wrapped and the match lies beyond the edge (issue 34 §7).
    private mutating func revealMatchSideways(_ query: SearchQuery) {
        guard !lineView.wraps, let current = search.current, let document = bodyDocument, current.row < document.rowCount else { return }
        let text = document.text(current.row)
        let ranges = query.ranges(in: text)
        guard ranges.indices.contains(current.ordinal) else { return }
        let bytes = Array(text.utf8)
        let range = ranges[current.ordinal]
        let start = TextWidth.of(String(decoding: bytes[..<range.lowerBound], as: UTF8.self))
        let end = start + TextWidth.of(String(decoding: bytes[range], as: UTF8.self))
        let width = responseTextWidth
        if start < lineView.responseColumn || end > lineView.responseColumn + width {
            lineView.responseColumn = max(0, start - width / 4)
        }
    }

    private mutating func reportMatch(_ query: SearchQuery, wrapped: Bool) {
        revealMatchSideways(query)
        let place = search.current.map { "match \($0.number) of \(search.matchCount)" } ?? (search.matchCount == 1 ? "1 match" : "\(search.matchCount) matches")
        status = StatusMessage("/\(query.text): \(place)\(query.isCaseSensitive ? ", case-sensitive" : "")\(wrapped ? " · wrapped around" : "")")
    }

    /// Display row `row` with the search's matches marked, the current match in the brighter style.
    func highlighted(_ line: TokenLine, row: Int) -> TokenLine {
        guard let query = search.query else { return line }
        let text = line.map(\.text).joined()
        let ranges = query.ranges(in: text)
        guard !ranges.isEmpty else { return line }
        let currentOrdinal = search.current.flatMap { $0.row == row ? $0.ordinal : nil }
        var result: TokenLine = []
        var offset = 0
        for token in line {
            let bytes = Array(token.text.utf8)
            let tokenRange = offset..<(offset + bytes.count)
            var cursor = tokenRange.lowerBound
            for (ordinal, range) in ranges.enumerated() where range.overlaps(tokenRange) {
                let mark: ThemeElement = ordinal == currentOrdinal ? .matchCurrent : .match
                let start = max(range.lowerBound, tokenRange.lowerBound)
                let end = min(range.upperBound, tokenRange.upperBound)
                if start > cursor { result.append(Token(token.element, String(decoding: bytes[(cursor - offset)..<(start - offset)], as: UTF8.self))) }
                result.append(Token(mark, String(decoding: bytes[(start - offset)..<(end - offset)], as: UTF8.self)))
                cursor = end
            }
            if cursor < tokenRange.upperBound { result.append(Token(token.element, String(decoding: bytes[(cursor - offset)...], as: UTF8.self))) }
            offset = tokenRange.upperBound
        }
        return result
    }
}
