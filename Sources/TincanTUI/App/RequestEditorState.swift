import TerminalUI
import TincanCore
import TincanSessions

/// The request editor as a component (issue 35 §1), a part of it so far: the Headers tab's rows
/// and the `name: null` removals, the Params tab's query fields, their cursors, and the rules
/// that edit them. The rest of the request's fields are still ``AppState``'s own.
public struct RequestEditorState: Sendable {
    /// The headers table.
    public var headers: [HeaderRow] = []
    /// The headers table's cursor.
    public var headerList = ListState()
    /// The request's `name: null` headers: defaults it removes, listed turned off under its own.
    public var removedHeaders: [String] = []
    /// The query fields (`query:`), always in the URL.
    public var query: [QueryField] = []
    /// The query fields' cursor.
    public var queryList = ListState()

    public init() {}

    /// Sets the header row at `index` (the edit prompt), or adds a row and selects it; a row of
    /// that name takes the place of a `name: null` the request had.
    mutating func setHeader(_ name: String, _ value: String, at index: Int?) {
        if let index, headers.indices.contains(index) {
            headers[index].name = name
            headers[index].value = value
        } else {
            headers.append(HeaderRow(name: name, value: value))
            headerList.select(headers.count - 1, count: headers.count)
            removedHeaders.removeAll { HTTPHeaders.same($0, name) }
        }
    }

    /// Sets the request's own header row of that name (the last, turned on), or adds one: what
    /// the Body tab's Content-Type and the Auth tab's bearer token write.
    ///
    /// - Returns: Why the value cannot be a header's, or nil when it was set.
    mutating func setOwnHeader(_ name: String, _ value: String) -> String? {
        guard !value.contains(where: \.isNewline) else { return "a header value is one line" }
        if let index = headers.lastIndex(where: { HTTPHeaders.same($0.name, name) }) {
            headers[index].value = value
            headers[index].isEnabled = true
        } else {
            headers.append(HeaderRow(name: name, value: value))
        }
        return nil
    }

    /// Sets the query field at `index` (an edit keeps it on or off as it was), or adds it and
    /// selects it.
    mutating func setQueryField(_ field: QueryField, at index: Int?) {
        if let index, query.indices.contains(index) {
            query[index] = QueryField(name: field.name, value: field.value, isEnabled: query[index].isEnabled)
        } else {
            query.append(field)
            queryList.select(query.count - 1, count: query.count)
        }
    }
}

// MARK: - The editor's fields, as the panes and tests name them

extension AppState {
    /// The headers table (``RequestEditorState/headers``).
    public var headers: [HeaderRow] {
        get { editor.headers }
        _modify { yield &editor.headers }
    }

    /// The headers table's cursor (``RequestEditorState/headerList``).
    public var headerList: ListState {
        get { editor.headerList }
        _modify { yield &editor.headerList }
    }

    /// The request's `name: null` headers (``RequestEditorState/removedHeaders``).
    public var removedHeaders: [String] {
        get { editor.removedHeaders }
        _modify { yield &editor.removedHeaders }
    }

    /// The query fields (``RequestEditorState/query``).
    public var query: [QueryField] {
        get { editor.query }
        _modify { yield &editor.query }
    }

    /// The query fields' cursor (``RequestEditorState/queryList``).
    public var queryList: ListState {
        get { editor.queryList }
        _modify { yield &editor.queryList }
    }

    /// Sets the request's own header row of that name (``RequestEditorState/setOwnHeader(_:_:)``).
    mutating func setOwnHeader(_ name: String, _ value: String) -> String? {
        editor.setOwnHeader(name, value)
    }
}
