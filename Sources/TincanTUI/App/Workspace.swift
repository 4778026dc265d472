import Foundation
import OrderedCollections
import TerminalUI
import TincanCore
import TincanSessions

/// The session the TUI edits: its requests, the file it came from, the environment chosen, and
/// the values captured by sends so far.
///
/// The panes edit one request at a time (``selected``). What they show is kept in the terms of
/// the file (`{{variables}}` unexpanded), so saving writes back what was written; the preview
/// resolves it exactly as `tincan replay` would.
public struct Workspace: Sendable {
    /// The session as edited; the selected request is brought up to date from the panes by
    /// ``AppState/commitPanes()``.
    public var session: Session
    /// The file it is saved to, or nil until it is first saved.
    public var path: String?
    /// The session as last read or saved, to tell whether there is anything to save.
    public var savedSession: Session
    /// The environment whose variables apply, if any.
    public var environment: String?
    /// Variables from the command line (`--var`), over the file's; never saved.
    public var overrides: [String: String] = [:]
    /// Values captured from responses, over everything else; never saved.
    public var captured: [String: ParameterValue] = [:]
    /// Where this run's demo servers listen, for `{{$demo}}` and its kin; never saved.
    public var demo: DemoAddresses?
    /// The request in the panes.
    public var selected = 0
    /// The collection pane's cursor.
    public var list = ListState()
    /// The panes as they were when the selected request was loaded, so only what changed is
    /// written back (an untouched request saves to the same bytes).
    var loaded: PaneValues?
    /// The selected request as it was loaded: what the panes' changes are written into.
    var loadedRequest: SavedRequest?
    /// Whether the file's weaker TLS trust applies (``TrustState``).
    public var trust = TrustState.notNeeded
    /// The SHA-256 of the file as read or last saved, which a trust answer is remembered for.
    public var digest: String?
    /// What the file, as read, reads or writes outside its folder
    /// (``Session/filesOutsideFolder(of:template:)``): said when it opens, as replay says it.
    public var filesOutside: [OutsideFile] = []

    /// A workspace for a session, read from `path` or new.
    public init(session: Session, path: String? = nil) {
        self.session = session.requests.isEmpty ? Self.withOneRequest(session) : session
        self.path = path
        savedSession = self.session
    }

    /// A session always has a request for the panes to show.
    private static func withOneRequest(_ session: Session) -> Session {
        var session = session
        session.requests = [SavedRequest(url: "")]
        return session
    }

    /// The name shown in the title: the session's, else the file's.
    public var displayName: String {
        if let name = session.name, !name.isEmpty { return name }
        if let path { return (path as NSString).lastPathComponent }
        return "untitled"
    }

    /// Whether the collection pane is shown: for a file, or once there is more than one request.
    public var showsCollection: Bool { path != nil || session.requests.count > 1 }

    /// Where relative paths in the session are read from: the file's folder, made absolute from
    /// `workingDirectory` (where Tincan started), or that directory for a session not yet saved.
    public func directory(in workingDirectory: String) -> String {
        guard let path else { return workingDirectory }
        let folder = (path as NSString).deletingLastPathComponent
        if folder.hasPrefix("/") { return folder }
        return folder.isEmpty ? workingDirectory : (workingDirectory as NSString).appendingPathComponent(folder)
    }

    /// The variables in effect: the file's, the environment's, `--var`, then captures.
    public func template(processEnvironment: [String: String] = ProcessEnvironment.values) throws -> Template {
        var template = try session.template(environment: environment, overrides: overrides, processEnvironment: processEnvironment)
        template.captured = captured
        template.demo = demo
        return template
    }
}

/// The request panes' contents, in the terms a saved request keeps.
struct PaneValues: Sendable, Equatable {
    var method: String
    var serializer: SerializerKind
    var base: String
    var url: String
    var headers: [HeaderRow]
    /// The names of the request's `name: null` headers.
    var removedHeaders: [String]
    var query: [QueryField]
    var parameters: ParameterValue
    var bodySource: BodySource?
    var auth: SavedAuth?
    var observed: ObservedProperties
    var responseSerializer: ResponseSerializerKind
    var acceptableStatusCodes: StatusCodeSet
    var removesNulls: Bool
    var maxBody: String?
}

// In an extension, so the memberwise initializer stays (the panes build their values with it).
extension PaneValues {
    /// What the panes show for a saved request of a session.
    ///
    /// Multipart files become `@path` string parameters, as the command line writes them.
    /// Headers that remove a session default (`name: null`) have no row; they are kept as they are.
    /// A disabled header (`{value: V, enabled: false}`) is a row turned off.
    init(_ saved: SavedRequest, in session: Session) {
        method = saved.method
        serializer = saved.serializer ?? session.defaults.serializer ?? .form
        base = session.base ?? ""
        url = saved.url
        headers = saved.headers.compactMap { header in header.value.map { HeaderRow(name: header.name, value: $0, isEnabled: header.isEnabled) } }
        removedHeaders = saved.headers.filter { $0.value == nil }.map(\.name)
        query = saved.query
        bodySource = BodySource(saved)
        auth = saved.auth
        var parameters = saved.params ?? .dictionary([:])
        if !saved.files.isEmpty, case .dictionary(var members) = parameters {
            for file in saved.files { members[file.field] = .string("@" + file.path) }
            parameters = .dictionary(members)
        }
        self.parameters = parameters
        observed = saved.properties
        let contract = session.defaults.response.merged(with: saved.response)
        responseSerializer = contract.serializer ?? saved.defaultResponseSerializer
        acceptableStatusCodes = contract.acceptStatus.flatMap { try? StatusSet($0).codes } ?? .successful
        removesNulls = contract.removesNulls ?? false
        maxBody = contract.maxBody
    }

    /// `original` with what changed between `loaded` and these values written into it; what did
    /// not change keeps the original's spelling.
    ///
    /// - Parameter defaults: The session's default response settings, which the request inherits.
    func merged(into original: SavedRequest, loaded: PaneValues, defaults: ResponseContract) -> SavedRequest {
        var request = original
        if method != loaded.method { request.method = method }
        if serializer != loaded.serializer { request.serializer = serializer }
        if url != loaded.url { request.url = url }
        if headers != loaded.headers || removedHeaders != loaded.removedHeaders {
            // The rows, with the removals that stay back where they were and new ones last.
            var merged = headers.filter { !$0.name.isEmpty }.map { HeaderSetting(name: $0.name, value: $0.value, isEnabled: $0.isEnabled) }
            for (index, removal) in original.headers.enumerated() where removal.value == nil && removedHeaders.contains(removal.name) {
                merged.insert(removal, at: min(index, merged.count))
            }
            let kept = Set(original.headers.filter { $0.value == nil }.map(\.name))
            merged += removedHeaders.filter { !kept.contains($0) }.map { HeaderSetting(name: $0, value: nil) }
            request.headers = merged
        }
        if query != loaded.query { request.query = query }
        if bodySource != loaded.bodySource { bodySource.write(into: &request) }
        if auth != loaded.auth { request.auth = auth }
        if parameters != loaded.parameters || serializer != loaded.serializer {
            var parameters = self.parameters
            var files: [SavedFile] = []
            if serializer == .multipart, case .dictionary(var members) = parameters {
                var extracted: [(String, String)] = []
                AppState.extractFiles(from: &members, path: [], into: &extracted)
                files = extracted.map { field, path in
                    SavedFile(field: field, path: path, type: original.files.first { $0.field == field && $0.path == path }?.type)
                }
                parameters = .dictionary(members)
            }
            if case .dictionary(let members) = parameters, members.isEmpty {
                request.params = nil
            } else {
                request.params = parameters
            }
            if serializer == .multipart || !original.files.isEmpty { request.files = files }
        }
        if observed != loaded.observed { request.properties = observed }
        if responseSerializer != loaded.responseSerializer { request.response.serializer = responseSerializer }
        if acceptableStatusCodes != loaded.acceptableStatusCodes { request.response.acceptStatus = acceptableStatusCodes.description }
        if removesNulls != loaded.removesNulls { request.response.removesNulls = removesNulls }
        if maxBody != loaded.maxBody { request.response.maxBody = maxBody }
        // A value the session's defaults already give is inherited, not written again.
        if request.response.maxBody != nil, request.response.maxBody == defaults.maxBody { request.response.maxBody = nil }
        return request
    }
}
