import TerminalUI

/// The response box as a component (issue 35 §1): the view it shows, how far it is scrolled,
/// the selected row of the body, the search and the filter. It owns these and the rules that
/// keep them in step; what it needs of the rest of the app, the body document now shown, is
/// handed to it, so its tests need no send.
public struct ResponseViewState: Sendable {
    /// Pretty, Raw, Headers or Timing.
    public var view: ResponseView = .pretty
    /// How far the Headers and Timing views are scrolled.
    public var scroll = ScrollState()
    /// The selected row of the Pretty or Raw view.
    public var list = ListState()
    /// The body search: the query that n and N repeat, its count and the match stood on.
    public var search = SearchState()
    /// The path that narrows the Pretty view's JSON, while one is set.
    public var filter: BodyFilter?

    public init() {}

    /// After the shown document changed (another view, a filter set or cleared): the selection
    /// at `row`, and the search counted again in `document`'s rows.
    mutating func showNewDocument(_ document: BodyDocument?, selecting row: Int = 0) {
        list = ListState(selected: row)
        search.current = nil
        if let query = search.query { search.matchCount = document?.matchCount(query) ?? 0 }
    }

    /// The view after this one, in the order of the tabs, scrolled to its top.
    var nextView: ResponseView {
        let views = ResponseView.allCases
        return views[((views.firstIndex(of: view) ?? 0) + 1) % views.count]
    }

    /// A new body arrived: the Pretty view of it from its top (a stream's on its newest event,
    /// where it is followed), the search counted again in it.
    mutating func showNewBody(_ pretty: BodyDocument, streamRows: Int?) {
        list = ListState()
        if let streamRows { list.select(streamRows - 1, count: streamRows) }
        search.current = nil
        if let query = search.query { search.matchCount = pretty.matchCount(query) }
        view = .pretty
    }
}
