import TerminalUI
import TincanCore
import TincanSessions

/// A header the request gets without listing it, with where it comes from.
public struct DefaultHeader: Sendable, Hashable {
    /// Where a default header comes from.
    public enum Origin: String, Sendable, Hashable {
        /// The request serializer's own (User-Agent, Accept-Language, Accept-Encoding).
        case builtIn = "built-in"
        /// The session's `defaults: headers:`.
        case session = "session default"
        /// The serializer's Content-Type for the body it encodes.
        case serializer
        /// The Basic credentials of the Auth tab.
        case auth = "from Auth"
    }

    /// The name, as the request carries it.
    public var name: String
    /// The value it is sent with.
    public var value: String
    /// Where it comes from, shown beside it.
    public var origin: Origin
}

/// A row of the Headers tab: the request's own header, a default it removes (`name: null`), or
/// a default it gets.
enum HeaderListRow: Equatable {
    case own(Int)
    case removed(Int)
    case inherited(Int)
}

/// The Headers tab lists, under the request's own headers, the defaults it removes (turned off)
/// and those it gets (greyed, with their origin). Turning a default off or removing it writes
/// `name: null` into the request; turning a removed one on takes the `null` out again.
extension AppState {
    /// The headers `request` (built from the selected request of `session`) has that are not
    /// the request's own, with their origins.
    static func inheritedHeaders(of request: HTTPRequest, in session: Session, selected: Int) -> [DefaultHeader] {
        let saved = session.requests[selected]
        let own = Set(saved.headers.filter { $0.isEnabled && $0.value != nil }.map { $0.name.lowercased() })
        let shared = Set(session.defaults.headers.filter(\.isEnabled).map { $0.name.lowercased() })
        return request.headers.compactMap { field in
            let name = field.name.lowercased()
            guard !own.contains(name) else { return nil }
            return DefaultHeader(name: field.name, value: field.value, origin: origin(of: name, shared: shared, hasAuth: saved.auth?.scheme == .basic))
        }
    }

    private static func origin(of lowercasedName: String, shared: Set<String>, hasAuth: Bool) -> DefaultHeader.Origin {
        if shared.contains(lowercasedName) { return .session }
        if lowercasedName == "content-type" || lowercasedName == "content-length" { return .serializer }
        if lowercasedName == "authorization", hasAuth { return .auth }
        return .builtIn
    }

    /// Where a header the request removes came from, to say so beside it.
    func removedOrigin(_ name: String) -> DefaultHeader.Origin {
        let shared = Set(workspace.session.defaults.headers.filter(\.isEnabled).map { $0.name.lowercased() })
        return Self.origin(of: name.lowercased(), shared: shared, hasAuth: false)
    }

    /// The Headers tab's rows, in order.
    var headerListRows: [HeaderListRow] {
        headers.indices.map(HeaderListRow.own) + removedHeaders.indices.map(HeaderListRow.removed) + defaultHeaders.indices.map(HeaderListRow.inherited)
    }

    /// The row under the cursor.
    var selectedHeaderRow: HeaderListRow? {
        let rows = headerListRows
        return rows.indices.contains(headerList.selected) ? rows[headerList.selected] : nil
    }

    // MARK: - Actions

    /// Space: an own row on or off; a default off (`name: null`); a removed default on again.
    mutating func toggleHeaderRow() {
        switch selectedHeaderRow {
        case .own(let index)?: headers[index].isEnabled.toggle()
        case .removed(let index)?: restoreDefault(index)
        case .inherited(let index)?: removeDefault(index)
        case nil: break
        }
    }

    /// d: an own row is removed; a default is removed (`name: null`); a removed default comes back.
    mutating func removeHeaderRow() {
        switch selectedHeaderRow {
        case .own(let index)?:
            let removed = headers.remove(at: index)
            headerList.select(headerList.selected, count: headerListRows.count)
            status = StatusMessage("Removed \(removed.name).")
        case .removed(let index)?: restoreDefault(index)
        case .inherited(let index)?: removeDefault(index)
        case nil: break
        }
    }

    /// Enter: edit an own row; on a default, add a row of that name to override it.
    mutating func editHeaderRow() {
        switch selectedHeaderRow {
        case .own(let index)?:
            let row = headers[index]
            mode = .modal(.prompt(Prompt(.editHeader(index), title: "Edit header", question: "Name: value", text: "\(row.name): \(row.value)")))
        case .removed(let index)?:
            mode = .modal(.prompt(Prompt(.addHeader, title: "Override \(removedHeaders[index])", question: "Name: value", text: "\(removedHeaders[index]): ")))
        case .inherited(let index)?:
            let header = defaultHeaders[index]
            mode = .modal(.prompt(Prompt(.addHeader, title: "Override \(header.name) (\(header.origin.rawValue))", question: "Name: value", text: "\(header.name): \(header.value)")))
        case nil:
            mode = .modal(.prompt(Prompt(.addHeader, title: "Add header", question: "Name: value")))
        }
    }

    private mutating func removeDefault(_ index: Int) {
        let header = defaultHeaders[index]
        guard header.origin != .auth else {
            status = StatusMessage("Authorization comes from the Basic credentials: change them in the Auth tab.", .warning)
            return
        }
        if !removedHeaders.contains(where: { HTTPHeaders.same($0, header.name) }) { removedHeaders.append(header.name) }
        // The cursor follows the row to its place among the removed ones.
        headerList.select(headers.count + removedHeaders.count - 1, count: headerListRows.count + 1)
        status = StatusMessage("\(header.name) is not sent: saved as \(header.name): null.")
    }

    private mutating func restoreDefault(_ index: Int) {
        let name = removedHeaders.remove(at: index)
        headerList.select(headerList.selected, count: headerListRows.count)
        status = StatusMessage("\(name) is sent again as its default gives it.")
    }
}
