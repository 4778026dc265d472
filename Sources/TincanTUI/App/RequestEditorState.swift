import TerminalUI
import TincanCore
import TincanSessions

/// The request editor as a component (issue 35 §1): the request's own fields as the panes edit
/// them (method, serializer, base and URL, headers and their `name: null` removals, query
/// fields, parameters, body, auth, observed properties, response serializer and its limits),
/// the tabs' cursors, and the rules that edit the headers and query fields.
public struct RequestEditorState: Sendable {
    /// The method (``AppState/methods`` in the picker).
    public var method: String = "GET"
    /// The request serializer.
    public var serializer: SerializerKind = .form
    /// The base URL field.
    public var baseField: TextField = TextField()
    /// The URL field, relative to the base.
    public var urlField: TextField = TextField()
    /// The parameters tree.
    public var parameters: TreeEditor = TreeEditor(root: TreeNode(key: "", value: .object))
    /// The body tab: the parameters as JSON text, applied back into the tree on request.
    public var body: TextArea = TextArea()
    /// Whether the body text has edits not yet applied to the parameters.
    public var bodyIsDirty: Bool = false
    /// A body sent as it is (text, bytes, a file, an upload), or nil for the parameters.
    public var bodySource: BodySource?
    /// The Content-Type the Body tab gave a text body: it goes with the text when the body
    /// becomes another kind (issue 34 §6), while one the user typed in the Headers tab stays.
    var bodyContentType: String?
    /// The credentials (`auth:`); a bearer token is an `Authorization` header instead.
    public var auth: SavedAuth?
    /// The Auth tab's cursor.
    public var authList: ListState = ListState()
    /// What the Auth tab keeps of the types switched away from, until another request is loaded.
    var authStash: AuthStash = AuthStash()
    /// The request's observed properties (timeout, cache policy…).
    public var observed: ObservedProperties = ObservedProperties()
    /// The response serializer.
    public var responseSerializer: ResponseSerializerKind = .compound
    /// The status codes the response serializer accepts.
    public var acceptableStatusCodes: StatusCodeSet = .successful
    /// Whether the JSON serializer removes keys whose value is null (`remove-nulls`).
    public var removesNulls: Bool = false
    /// The most response-body bytes kept in memory, as written (`512M`, `0` for no limit), or nil
    /// for the default (`max-body`).
    public var maxBody: String?
    /// Pace uploads to this many bytes per second (to watch a progress bar move), or nil.
    public var uploadBytesPerSecond: Int?
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

    /// ``RequestEditorState/method``.
    public var method: String {
        get { editor.method }
        _modify { yield &editor.method }
    }

    /// ``RequestEditorState/serializer``.
    public var serializer: SerializerKind {
        get { editor.serializer }
        _modify { yield &editor.serializer }
    }

    /// ``RequestEditorState/baseField``.
    public var baseField: TextField {
        get { editor.baseField }
        _modify { yield &editor.baseField }
    }

    /// ``RequestEditorState/urlField``.
    public var urlField: TextField {
        get { editor.urlField }
        _modify { yield &editor.urlField }
    }

    /// ``RequestEditorState/parameters``.
    public var parameters: TreeEditor {
        get { editor.parameters }
        _modify { yield &editor.parameters }
    }

    /// ``RequestEditorState/body``.
    public var body: TextArea {
        get { editor.body }
        _modify { yield &editor.body }
    }

    /// ``RequestEditorState/bodyIsDirty``.
    public var bodyIsDirty: Bool {
        get { editor.bodyIsDirty }
        _modify { yield &editor.bodyIsDirty }
    }

    /// ``RequestEditorState/bodySource``.
    public var bodySource: BodySource? {
        get { editor.bodySource }
        _modify { yield &editor.bodySource }
    }

    /// ``RequestEditorState/bodyContentType``.
    var bodyContentType: String? {
        get { editor.bodyContentType }
        _modify { yield &editor.bodyContentType }
    }

    /// ``RequestEditorState/auth``.
    public var auth: SavedAuth? {
        get { editor.auth }
        _modify { yield &editor.auth }
    }

    /// ``RequestEditorState/authList``.
    public var authList: ListState {
        get { editor.authList }
        _modify { yield &editor.authList }
    }

    /// ``RequestEditorState/authStash``.
    var authStash: AuthStash {
        get { editor.authStash }
        _modify { yield &editor.authStash }
    }

    /// ``RequestEditorState/observed``.
    public var observed: ObservedProperties {
        get { editor.observed }
        _modify { yield &editor.observed }
    }

    /// ``RequestEditorState/responseSerializer``.
    public var responseSerializer: ResponseSerializerKind {
        get { editor.responseSerializer }
        _modify { yield &editor.responseSerializer }
    }

    /// ``RequestEditorState/acceptableStatusCodes``.
    public var acceptableStatusCodes: StatusCodeSet {
        get { editor.acceptableStatusCodes }
        _modify { yield &editor.acceptableStatusCodes }
    }

    /// ``RequestEditorState/removesNulls``.
    public var removesNulls: Bool {
        get { editor.removesNulls }
        _modify { yield &editor.removesNulls }
    }

    /// ``RequestEditorState/maxBody``.
    public var maxBody: String? {
        get { editor.maxBody }
        _modify { yield &editor.maxBody }
    }

    /// ``RequestEditorState/uploadBytesPerSecond``.
    public var uploadBytesPerSecond: Int? {
        get { editor.uploadBytesPerSecond }
        _modify { yield &editor.uploadBytesPerSecond }
    }

    /// Sets the request's own header row of that name (``RequestEditorState/setOwnHeader(_:_:)``).
    mutating func setOwnHeader(_ name: String, _ value: String) -> String? {
        editor.setOwnHeader(name, value)
    }
}
