import Foundation
import TerminalUI
import TincanCore

/// The body search: the field while `/` is being typed, then the query that n and N repeat.
public struct SearchState: Sendable, Equatable {
    /// The field, while the query is being typed (nil otherwise).
    public var field: TextField?
    /// The last query run.
    public var query: SearchQuery?
    /// How many times it occurs in the body.
    public var matchCount = 0

    public init() {}
}

extension AppState {
    /// The document the Pretty or Raw view shows, or nil for the other views.
    public var bodyDocument: BodyDocument? {
        guard let exchange, exchange.result != nil else { return nil }
        switch responseView {
        case .pretty: return exchange.prettyBody
        case .raw: return exchange.rawBody
        case .headers, .timing: return nil
        }
    }

    /// Changes the shown document in place (folding, or a search that unfolds).
    mutating func updateBodyDocument<T>(_ change: (inout BodyDocument) -> T) -> T? {
        guard var current = exchange, current.result != nil else { return nil }
        let result: T
        switch responseView {
        case .pretty: result = change(&current.prettyBody)
        case .raw: result = change(&current.rawBody)
        case .headers, .timing: return nil
        }
        exchange = current
        return result
    }

    /// Rows the response box shows at once.
    var responseViewport: Int {
        ScreenLayout(self).responseBox.map { max(1, $0.height - 2 - min(responseHeaderLines.count, max(1, ($0.height - 2) / 2))) } ?? max(1, height / 3)
    }

    // MARK: - Actions

    mutating func performBody(_ action: Action) -> [Effect] {
        guard let document = bodyDocument else {
            status = StatusMessage(exchange?.result == nil ? "No response body yet." : "Search, folds and paths work in the Pretty and Raw views (F3 switches).")
            return []
        }
        switch action {
        case .search:
            search.field = TextField()
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
            status = StatusMessage("Copied \(path)", .success)
            return [.copyToClipboard(path)]
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
        return []
    }

    /// Keys while the search field is open: enter runs it, escape closes it.
    mutating func handleSearchField(_ event: InputEvent) {
        guard var field = search.field else { return }
        if case let .key(key) = event, key.modifiers.isEmpty {
            switch key.key {
            case .escape:
                search.field = nil
                return
            case .enter:
                search.field = nil
                guard let query = SearchQuery(field.text) else {
                    search.query = nil
                    status = StatusMessage("Search cleared.")
                    return
                }
                search.query = query
                search.matchCount = bodyDocument?.matchCount(query) ?? 0
                runSearch(query, forward: true, skipCurrent: false)
                return
            default:
                break
            }
        }
        field.handle(event)
        search.field = field
    }

    private mutating func runSearch(_ query: SearchQuery, forward: Bool, skipCurrent: Bool) {
        let from = bodyList.selected
        guard let found = updateBodyDocument({ $0.find(query, from: from, forward: forward, skipCurrent: skipCurrent) }) ?? nil else {
            status = StatusMessage("Not found: \(query.text)", .warning)
            return
        }
        let wrapped = forward ? found < from || (skipCurrent && found == from) : found > from
        bodyList.select(found, count: bodyDocument?.rowCount ?? 0)
        let count = search.matchCount == 1 ? "1 match" : "\(search.matchCount) matches"
        status = StatusMessage("/\(query.text): \(count)\(query.isCaseSensitive ? ", case-sensitive" : "")\(wrapped ? " · wrapped around" : "")")
    }

    /// A row with the search's matches marked (the selected row's in the brighter style).
    func highlighted(_ line: TokenLine, isCurrent: Bool) -> TokenLine {
        guard let query = search.query else { return line }
        let text = line.map(\.text).joined()
        let ranges = query.ranges(in: text)
        guard !ranges.isEmpty else { return line }
        let mark: ThemeElement = isCurrent ? .matchCurrent : .match
        var result: TokenLine = []
        var offset = 0
        for token in line {
            let bytes = Array(token.text.utf8)
            let tokenRange = offset..<(offset + bytes.count)
            var cursor = tokenRange.lowerBound
            for range in ranges where range.overlaps(tokenRange) {
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
