import Foundation
import TerminalUI
import TincanCore
import TincanSessions

/// A pane of the screen; the focused one gets the keys.
public enum Pane: String, Sendable, CaseIterable, Hashable {
    case collection, method, serializer, baseURL = "base", url, headers, query, parameters, body, auth, properties, checks, preview, response

    /// The key scope its bindings live in (besides `global`).
    var scopes: [Scope] {
        switch self {
        case .collection: [.collection, .list]
        case .method, .serializer: [.picker, .list]
        case .headers: [.headers, .list]
        case .parameters: [.parameters, .list]
        case .query: [.query, .list]
        case .auth: [.auth, .list]
        case .properties: [.properties, .list]
        case .checks: [.checks, .list]
        case .body: [.body]
        case .preview: [.list]
        case .response: [.response, .list]
        case .baseURL, .url: []
        }
    }
}

/// The tabs of the request box on the left.
public enum RequestTab: String, Sendable, CaseIterable, Hashable {
    case headers = "Headers", parameters = "Params", body = "Body", auth = "Auth", properties = "Props", checks = "Checks"

    /// The pane that shows it.
    var pane: Pane {
        switch self {
        case .headers: .headers
        case .parameters: .parameters
        case .body: .body
        case .auth: .auth
        case .properties: .properties
        case .checks: .checks
        }
    }

    /// The panes it holds, in focus order: the Params tab has the query fields above the tree.
    var panes: [Pane] {
        self == .parameters ? [.query, .parameters] : [pane]
    }
}

/// How the response box shows the response.
public enum ResponseView: String, Sendable, CaseIterable, Hashable {
    case pretty = "Pretty", raw = "Raw", headers = "Headers", timing = "Timing"
}

/// What the preview box shows.
public enum PreviewView: String, Sendable, CaseIterable, Hashable {
    case wire = "Preview", explain = "Explain", received = "Received"
    /// A lesson's step: its text, goals and hints (only while a lesson is open).
    case notes = "Notes"
}

/// One row of the headers table.
public struct HeaderRow: Sendable, Hashable {
    public var name: String
    public var value: String
    /// A header that is off stays in the table but is not sent.
    public var isEnabled: Bool

    /// Creates a row.
    public init(name: String, value: String, isEnabled: Bool = true) {
        self.name = name
        self.value = value
        self.isEnabled = isEnabled
    }
}

/// A line of the status bar.
public struct StatusMessage: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case info, success, warning, error }
    public var text: String
    public var kind: Kind

    /// Creates a message.
    public init(_ text: String, _ kind: Kind = .info) {
        self.text = text
        self.kind = kind
    }
}

/// The whole state of the TUI. `update` changes it; `render` draws it, and writes back no more
/// than where its scrolling views start (``StatefulWidgets``); nothing else changes it.
public struct AppState: Sendable {
    // MARK: Request

    /// The methods the picker offers.
    public static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// The request's own fields (method, serializer, URL, headers, query, parameters, body, auth,
    /// observed properties, response serializer) and their editing rules; the panes name its
    /// fields through forwarding properties (`headers`, `method`…).
    public var editor = RequestEditorState()
    /// The headers the request gets without listing them (built-in, the session's, the
    /// serializer's), greyed under its own; rebuilt with the preview.
    public private(set) var defaultHeaders: [DefaultHeader] = []
    /// The GraphQL schema the server gave by introspection (alt+q), for the field names the
    /// Body tab completes; nil until asked.
    var graphQLSchema: GraphQLSchema?
    /// Whether the Auth tab and the variables view show secrets as they are rather than as dots
    /// (v in the Auth tab, r in the variables view).
    public var revealsSecrets = false
    /// A slow-motion send (alt+p), while it runs and until alt+p closes it.
    public var slowMotion: SlowMotionState?
    /// The proxy variables a request is routed by when the session names no proxy: the
    /// process's, read once at start (tests give their own).
    public var proxyEnvironment = ProxyEnvironment.current
    public var propertyList = ListState()
    /// The Checks tab's cursor: the selected request's assertions, then its captures.
    public var checkList = ListState()
    /// The multipart boundary used by both the preview and the send, so the preview is exact.
    public let boundary: String
    /// The session being edited: its requests, file, environment and captured values.
    public var workspace: Workspace
    /// The name shown in the title bar.
    public var sessionName: String { workspace.displayName }
    /// Requests sent, oldest first: this run's, after those read from the history file.
    public var history: [HistoryEntry] = []
    /// Whether sends are appended to the history file.
    public var recordsHistory = true
    /// Whether history files get secrets as they are (`history-secrets: true`).
    public var keepsSecretsInHistory = false
    /// This run's sends as they looked, oldest first, for comparing (in memory only, capped).
    public var snapshots: [SentSnapshot] = []
    /// Lines run at the command line, oldest first (this run's after the history file's).
    public var replHistory: [String] = []
    /// The answers about session files that weaken TLS trust (``SessionTrust``), and the file
    /// they are recorded in (nil: not remembered this run).
    public var trustAnswers = SessionTrust()
    public var trustPath: String?
    /// Effects a change asks for where it cannot return them (a save from any of its places),
    /// handed out at the end of ``update(_:)``.
    var queuedEffects: [Effect] = []

    /// The request as it will be sent, or why it cannot be built. Rebuilt after every change.
    public private(set) var preview: PreviewState = .error("no request yet")
    /// What the runner read of the files the request names, which the preview is built from.
    public internal(set) var previewFiles = PreviewFiles()
    /// The preview as highlighted lines, built with it (never per frame), secrets hidden unless shown.
    public private(set) var previewLines: [TokenLine] = []
    /// The secrets of the request in the preview, hidden on screen until `v` shows them.
    public private(set) var previewSecrets = RequestSecrets.none
    /// The resolved request behind the preview: its contract, digest credential, upload and download.
    public private(set) var resolved: ResolvedRequest?
    /// Why the request looks the way it does, while the Explain view shows (else nil).
    public private(set) var explanation: Explanation?
    /// Whether the title shows `● modified`: ``isModified`` as of the last change, so frames do
    /// not compare the session with its file.
    public private(set) var showsModified = false
    /// How many times the edited session changed: the runner writes a draft of unsaved changes
    /// only when this moved (issue 34 §2).
    public private(set) var changeCount = 0
    /// The edited session as of the last change, to tell a change from a repaint.
    private var lastEdited: Session?
    /// What waits on a save the unsaved-changes question asked for, when the session had no file
    /// and a name had to be asked first.
    var pendingAfterSave: Picker.UnsavedFollowUp?
    /// Whether the title shows that weaker TLS trust applies to sends (``TrustState``), as of
    /// the last change.
    public private(set) var weakensTrust = false

    // MARK: Interface

    public var focus: Pane = .url
    public var requestTab: RequestTab = .parameters
    public var previewView: PreviewView = .wire
    /// The last send's request as its demo server received it, for the Received view.
    public var received: ReceivedLookup = .idle
    public var previewScroll = ScrollState()
    /// The response box: its view, scroll, selected row, search and filter.
    public var response = ResponseViewState()
    /// Whether long lines wrap, and how far the preview and response boxes are scrolled sideways.
    public var lineView = LineView()
    /// Whether ctrl+o asked for the focused pane to fill the screen; see ``showsZoomed``.
    public var zoomed = false
    /// The panes a zoom can fill the screen with; the method, base and URL are one line each.
    static let zoomablePanes: Set<Pane> = [.collection, .headers, .query, .parameters, .body, .auth, .properties, .checks, .preview, .response]
    /// Whether the screen shows the focused pane zoomed: asked for, and on a pane that zooms.
    var showsZoomed: Bool { zoomed && Self.zoomablePanes.contains(focus) }
    /// What takes the keys before the panes: a modal, the command line or the search field.
    public var mode: InputMode = .panes
    public var status: StatusMessage?
    public var theme: Theme
    public var themes: ThemeCatalog
    public var keymap: Keymap<Action>
    public var width: Int
    public var height: Int
    /// Seconds since the app started, as of the last message.
    public var now: Double = 0
    /// The wall-clock time at which ``now`` was 0 (set by the runner as it starts), so a send's
    /// history entry is dated without `update` reading the clock.
    public var startedAt = Date(timeIntervalSince1970: 0)
    /// The working directory and environment variables the process started with.
    public var launch = LaunchContext.process
    public var exchange: Exchange?
    /// The lesson open (`tincan learn`), or nil.
    public var lesson: LessonState?
    public var nextExchangeID = 1
    /// Whether the run is over: set by ``update(_:)`` when the user quits or a signal asks to stop
    /// (``Message/quit``); the runner's loop ends on it.
    public internal(set) var shouldQuit = false

    /// Creates a state with an empty request.
    public init(width: Int = 80, height: Int = 24, themes: ThemeCatalog = ThemeCatalog(), keymap: Keymap<Action> = Keymap(KeyBindings.table), boundary: String = "tincan-boundary", sessionName: String = "untitled") {
        self.width = width
        self.height = height
        self.themes = themes
        theme = themes.defaultTheme
        self.keymap = keymap
        self.boundary = boundary
        workspace = Workspace(session: Session(name: sessionName == "untitled" ? nil : sessionName))
        open(workspace)
    }

    /// The welcome request: a GET with nested parameters to the demo server at `baseURL`.
    ///
    /// Its base is `{{$demo}}/`, not the server's address: the address changes every run, and a
    /// saved welcome must work the next day (issue 34 §3).
    public static func welcome(demo: DemoAddresses, width: Int = 80, height: Int = 24, themes: ThemeCatalog = ThemeCatalog(), keymap: Keymap<Action> = Keymap(KeyBindings.table), boundary: String = "tincan-boundary") -> AppState {
        var state = AppState(width: width, height: height, themes: themes, keymap: keymap, boundary: boundary, sessionName: "welcome")
        var request = SavedRequest(url: "get")
        request.headers = [HeaderSetting(name: "Accept", value: "application/json")]
        request.params = .dictionary(["greeting": .string("hello"), "page": .integer(1), "tags": .array([.string("tui"), .string("http")])])
        var workspace = Workspace(session: Session(name: "welcome", base: "{{\(DemoAddresses.Name.plain.rawValue)}}/", requests: [request]))
        workspace.demo = demo
        state.open(workspace)
        state.status = StatusMessage("Welcome: a request to the demo server is ready. ctrl+r sends it, F1 helps.")
        state.refreshPreview()
        return state
    }

    /// The focus order: the fields, the request tab's pane, the preview and the response.
    var focusOrder: [Pane] {
        (workspace.showsCollection ? [.collection] : []) + [.method, .serializer, .baseURL, .url] + requestTab.panes + [.preview, .response]
    }

    /// The key scopes active now, innermost first.
    var activeScopes: [String] {
        if modal != nil { return [Scope.global.rawValue] }
        return focus.scopes.map(\.rawValue) + [Scope.global.rawValue]
    }

    /// Rebuilds the preview from the request panes.
    ///
    /// The files the request names are read by the runner, never here: the build takes what
    /// ``previewFiles`` holds, and a file not read yet leaves the preview saying so until the
    /// runner's answer comes (``PreviewFiles``, issue 35 §1).
    public mutating func refreshPreview() {
        // The edited session is built once per change, for the preview and the modified mark.
        let session = editedSession
        let files = previewFiles.lookup()
        defer { previewFiles.record(files) }
        do {
            let resolved = try resolveSelected(in: session, files: files)
            self.resolved = resolved
            let request = try resolved.draft.build(boundary: boundary, files: files)
            defaultHeaders = Self.inheritedHeaders(of: request, in: session, selected: workspace.selected)
            previewSecrets = RequestSecrets(of: request, typedURL: request.url.string)
            if !files.missing.isEmpty {
                // Built with stand-ins: a length is taken again as the request leaves, a value cannot be.
                preview = .reading(files.missing.map(\.shownPath), request: files.lacksValues ? nil : request)
                explanation = nil
            } else {
                preview = .request(request, text: try RequestPreview.text(request, httpVersion: resolved.options.httpVersion))
                // Only while the Explain view shows; it reads the request just built.
                explanation = try previewView == .explain ? explain(request, resolved: resolved, in: session, files: files) : nil
            }
        } catch {
            resolved = nil
            explanation = nil
            // The defaults are read from the built request: none is listed while it cannot be built.
            defaultHeaders = []
            previewSecrets = .none
            // With files still to read, the error may be a stand-in's: the build says once they are.
            preview = files.missing.isEmpty ? .error(String(describing: error)) : .reading(files.missing.map(\.shownPath), request: nil)
        }
        previewLines = hidingSecrets(in: PreviewPane.lines(preview))
        // The welcome request is a session like any other: its edits are work to keep (issue 34 §2).
        let wasModified = showsModified
        showsModified = session != workspace.savedSession
        // A save changes nothing in the session, but leaves nothing unsaved: a change for the draft too.
        if session != lastEdited || showsModified != wasModified {
            lastEdited = session
            changeCount &+= 1
        }
        weakensTrust = !weakenings(in: session).isEmpty
        let bounds = previewScrollBounds()
        previewScroll.clamp(contentHeight: bounds.contentHeight, viewport: bounds.viewport)
    }

    /// The Explain view of `request`, just built from `resolved` with `files`.
    private func explain(_ request: HTTPRequest, resolved: ResolvedRequest, in session: Session, files: PreviewFileLookup) throws -> Explanation {
        var explained = try resolved.draft.explain(request, sessionHeaders: sessionHeaderNames(in: session), cookieFile: session.cookieFile,
                                                   httpVersion: resolved.options.httpVersion, files: files)
        if let oauth2 = resolved.options.oauth2 {
            // The token requests of the last send, shown as the v key says.
            let reveals = revealsSecrets
            explained.steps.append(Explanation.oauth2(oauth2, for: request.url, records: exchange?.result?.tokenRequests ?? []) {
                Redaction.oauth2Request($0, showingSecrets: reveals)
            })
        }
        explained.steps.append(Explanation.connection(to: request.url, options: resolved.options, weakenings: weakenings(in: session)))
        return explained
    }
}

// MARK: - The response box's state, as the panes and tests name it

extension AppState {
    /// How the response box shows the response (``ResponseViewState/view``).
    public var responseView: ResponseView {
        get { response.view }
        set { response.view = newValue }
    }

    /// How far the Headers and Timing views are scrolled (``ResponseViewState/scroll``).
    public var responseScroll: ScrollState {
        get { response.scroll }
        set { response.scroll = newValue }
    }

    /// The selected row of the Pretty or Raw view (``ResponseViewState/list``).
    public var bodyList: ListState {
        get { response.list }
        set { response.list = newValue }
    }

    /// The body search (``ResponseViewState/search``).
    public var search: SearchState {
        get { response.search }
        set { response.search = newValue }
    }

    /// The path that narrows the Pretty view's JSON (``ResponseViewState/filter``).
    public var bodyFilter: BodyFilter? {
        get { response.filter }
        set { response.filter = newValue }
    }
}

extension AppState {
    /// The preview box's views now: Notes only while a lesson is open.
    var previewViews: [PreviewView] {
        PreviewView.allCases.filter { $0 != .notes || (lesson != nil && !showsNotesColumn) }
    }

    /// Whether a lesson's notes have a column of their own, on a screen wide enough, rather than
    /// a view in the preview box.
    var showsNotesColumn: Bool { lesson != nil && width >= 100 && !showsZoomed }

    /// The view the preview box shows: the Notes move to their column on a wide screen.
    var shownPreviewView: PreviewView { previewView == .notes && showsNotesColumn ? .wire : previewView }
}

/// The request preview: the built request and its wire text, or the error that stopped the build.
public enum PreviewState: Sendable {
    case request(HTTPRequest, text: String)
    /// The request names files the runner has not read yet (the paths, as the placeholder names
    /// them); the request built meanwhile when it can be sent as it is (a file's length is taken
    /// again as the request leaves), else nil.
    case reading([String], request: HTTPRequest?)
    case error(String)

    /// Why there is no request to copy or judge yet: the build's error, or the files still read.
    var notReady: String? {
        switch self {
        case .request: nil
        case let .reading(paths, _): "the request's files are still being read (\(paths.joined(separator: ", ")))"
        case let .error(reason): reason
        }
    }
}

