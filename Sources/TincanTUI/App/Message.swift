import TerminalUI
import TincanCore
import TincanSessions

/// Something that happened: input, or news from the core about a send.
public enum Message: Sendable {
    case input(InputEvent)
    /// An event from a send's task, at a time in seconds since the app started.
    case task(exchange: Int, TaskEvent, at: Double)
    /// A piece of a send's streamed body (server-sent events, NDJSON lines), as it arrived.
    case streamed(exchange: Int, StreamOptions.Delivery, at: Double)
    /// A frame of a WebSocket request, sent or received.
    case webSocketFrame(exchange: Int, WebSocketFrameRecord, at: Double)
    /// A slow-motion send's task stopped before `stage` (``SlowMotion``), until ``Effect/stepSend(exchange:)``.
    case stageWaiting(exchange: Int, SendStage, at: Double)
    /// A send failed before its task started (the request could not be handed to the core).
    case sendFailed(exchange: Int, String, at: Double)
    /// A send's OAuth 2.0 grant asks the user to act: open the authorization URL, or enter the
    /// device code at the verification URL (the words, made safe for the screen).
    case oauth2Prompt(exchange: Int, String)
    /// Time passed (while a send runs, so its elapsed time and rate stay current).
    case tick(at: Double)
    /// `$EDITOR` closed with this text.
    case editorFinished(String)
    /// `$EDITOR` could not run.
    case editorFailed(String)
    /// `$PAGER` or `$EDITOR` showed the response body and closed (its command named).
    case viewerFinished(String)
    /// `$PAGER` or `$EDITOR` could not show the response body.
    case viewerFailed(String)
    /// The cookie jar or the cache as they are now, after a store command ran.
    case storesListed(StoreListing)
    /// The history file could not be written.
    case historyFailed(String)
    /// The opened session's cookie file could not be read or saved (issue 18 §6).
    case cookieFileFailed(String)
    /// The lesson progress file could not be written.
    case lessonProgressFailed(String)
    /// The lesson progress could not be sent where the learner asked (a classroom).
    case lessonReportFailed(String)
    /// Unsaved changes could not be written to their draft.
    case draftFailed(String)
    /// The theme chosen could not be kept for the next run.
    case themeNotSaved(String)
    /// The answer about a session's trust could not be remembered.
    case trustNotRemembered(String)
    /// Leave now, asking nothing: a signal (SIGINT, SIGTERM, SIGHUP) asked the app to stop.
    case quit
    /// The demo server's record of send `exchange`'s request, or why it could not be read.
    case receivedFetched(exchange: Int, Result<ReceivedRequest, ReceivedFetchFailure>)
}

/// Work that `update` asks for; the runner does it and reports back with messages.
public enum Effect: Sendable {
    /// Send a request with these settings.
    case send(exchange: Int, request: HTTPRequest, plan: SendPlan)
    /// Cancel a send in flight.
    case cancel(exchange: Int)
    /// Send a text message on a WebSocket request's open connection.
    case webSocketSend(exchange: Int, text: String)
    /// Let a slow-motion send's current stop go ahead.
    case stepSend(exchange: Int)
    /// Open `$EDITOR` on text (a file with this extension).
    case editExternally(text: String, fileExtension: String)
    /// Show the response body in `$PAGER` or `$EDITOR` (a file with this extension).
    case viewExternally(bytes: [UInt8], fileExtension: String, viewer: ExternalViewer)
    /// List (or delete from) the live cookie jars or response caches.
    case inspectStores(StoreCommand)
    /// Empty every cookie jar and response cache, listing nothing (a lesson reset).
    case clearStores
    /// Put text on the terminal's clipboard (OSC 52).
    case copyToClipboard(String)
    /// Append an entry to the history file.
    case recordHistory(HistoryEntry)
    /// Save the learner's progress through the lessons.
    case saveLessonProgress(LessonProgress.Entry, key: String, path: String)
    /// Append a command line (secrets already hidden) to the command history file.
    case recordCommand(String)
    /// Remember the answer about a session file that weakens TLS trust (``SessionTrust``).
    case recordTrust(SessionTrust.Answer, digest: String, file: String, path: String)
    /// Stop the process for job control (ctrl+z).
    case suspend
    /// Leave the TUI.
    case quit
    /// Remove the draft of the session's unsaved changes that the last run left (declined).
    case discardDraft
    /// Keep the theme chosen for the next run (`theme:` in config.yaml).
    case saveTheme(String)
    /// Ask a demo server (`url`, its `/__received/{id}`) what it received for send `exchange`.
    case fetchReceived(exchange: Int, url: URLReference, security: SecuritySettings)
}

/// How a request is sent: the response validation and pacing the properties panel set.
public struct SendPlan: Sendable {
    /// The task's own options: serializer, credential, upload, download, limits.
    public var options: TaskOptions
    /// The session's trust settings (CA file, pins, insecure), paths resolved.
    public var security = SecuritySettings()
    /// Whether the task stops before each stage until stepped (alt+p).
    public var slowMotion = false
    /// A WebSocket request's messages: the runner opens a connection instead of a task.
    public var webSocket: SavedWebSocket?

    public init(options: TaskOptions, security: SecuritySettings = SecuritySettings(), slowMotion: Bool = false) {
        self.options = options
        self.security = security
        self.slowMotion = slowMotion
    }
}

/// The outside program a response body is shown in.
public enum ExternalViewer: String, Sendable {
    case pager, editor
}
