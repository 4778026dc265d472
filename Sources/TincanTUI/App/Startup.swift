import Foundation
import TerminalUI
import TincanSessions

/// What `tincan [FILE]` hands the app before it takes the screen: the settings, the session file,
/// the histories read from disk and the embedded demo server's address.
///
/// It is plain data, read by the command (the edges: files, the server); ``AppState/init(_:width:height:)``
/// is the one place it becomes state, so nothing outside TincanTUI sets a field of the state.
public struct Startup: Sendable {
    /// The embedded demo server's URL (`http://127.0.0.1:PORT`), which the welcome request goes to.
    public var demoServerURL: String
    /// Every demo server started for this run (the TLS one too, for a session or lesson that
    /// uses it): what `{{$demo}}` and its kin expand to.
    public var demoAddresses: DemoAddresses
    /// Themes, keymap, the theme chosen, whether history keeps secrets, and the problems found
    /// reading them (shown in a dialog over the first screen).
    public var settings: TUISettings
    /// The session file given on the command line, read or new; nil for the welcome request.
    public var workspace: Workspace?
    /// Whether ``workspace``'s file exists; a new one is created on the first save.
    public var fileExists: Bool
    /// `--demo`: the variable `server` is the demo server's URL, unless `--var` sets it.
    public var demo: Bool
    /// Sends read from the history file, oldest first.
    public var history: [HistoryEntry]
    /// Whether sends and command lines are written to the history files this run.
    public var recordsHistory: Bool
    /// Command lines read from the command history file, oldest first.
    public var commandHistory: [String]
    /// The multipart boundary, used by the preview and the send alike.
    public var boundary: String
    /// The lesson to open (`tincan learn`): the workspace's `lesson:` block, with the learner's progress.
    public var lesson: LessonContext?
    /// Unsaved changes to this session that the last run left in its draft (issue 34 §2),
    /// offered back before anything else.
    public var draft: DraftStore.Draft?
    /// The answers about session files that weaken TLS trust, and the file that keeps them (nil:
    /// not remembered this run).
    public var trust = SessionTrust()
    public var trustPath: String?

    /// Creates a startup; only the demo server's URL and the settings are needed for the welcome request.
    public init(demoServerURL: String, settings: TUISettings, workspace: Workspace? = nil, fileExists: Bool = true, demo: Bool = false,
                history: [HistoryEntry] = [], recordsHistory: Bool = false, commandHistory: [String] = [], boundary: String = "tincan-boundary") {
        self.demoServerURL = demoServerURL
        demoAddresses = DemoAddresses(plain: demoServerURL)
        self.settings = settings
        self.workspace = workspace
        self.fileExists = fileExists
        self.demo = demo
        self.history = history
        self.recordsHistory = recordsHistory
        self.commandHistory = commandHistory
        self.boundary = boundary
    }
}

extension AppState {
    /// The first state of a run: the welcome request to the demo server, or the session file with
    /// the collection focused; the settings and histories in place; and a dialog naming any
    /// setting that could not be used.
    ///
    /// - Parameters:
    ///   - width: The screen's width until the runner's first resize.
    ///   - height: The screen's height until then.
    public init(_ startup: Startup, width: Int = 80, height: Int = 24) {
        let settings = startup.settings
        self = AppState.welcome(demo: startup.demoAddresses, width: width, height: height, themes: settings.themes, keymap: settings.keymap, boundary: startup.boundary)
        if var workspace = startup.workspace {
            workspace.demo = startup.demoAddresses
            if startup.demo, workspace.overrides["server"] == nil { workspace.overrides["server"] = startup.demoServerURL }
            open(workspace)
            focus = .collection
            let path = workspace.path ?? ""
            let count = workspace.session.requests.count
            status = StatusMessage(startup.fileExists
                ? "\(path): \(count) request\(count == 1 ? "" : "s"). enter loads one, ctrl+r sends, F6 saves."
                : "New session \(path): created on the first save (F6).")
            if let lesson = startup.lesson { startLesson(lesson) }
        }
        trustAnswers = startup.trust
        trustPath = startup.trustPath
        if startup.workspace != nil {
            // After the settings dialog, if any: the question about trust is what shows first.
            settleTrust()
            refreshPreview()
        }
        history = startup.history
        recordsHistory = startup.recordsHistory
        keepsSecretsInHistory = settings.historySecrets
        replHistory = startup.commandHistory
        theme = settings.theme
        // The question about a session's trust, when it is asked, comes first.
        guard mode == .panes else { return }
        if !settings.problems.isEmpty {
            mode = .modal(.message(Dialog(title: "Settings not used", lines: settings.problems.map { [Span($0)] }, hint: "esc close")))
        } else if let draft = startup.draft, draft.session != workspace.session, !draft.session.requests.isEmpty {
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            mode = .modal(.picker(Picker(.recoverDraft(draft.session, written: draft.written),
                                         title: "Unsaved changes to \(workspace.displayName) from \(formatter.string(from: draft.written)) were kept",
                                         options: ["Restore them", "Discard them"], selected: "")))
        }
    }
}
