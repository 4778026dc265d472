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

    // MARK: File work answered (each the answer to an effect of the same name)

    /// The answer to ``Effect/saveSession(_:path:overwriting:droppingComments:)``.
    case sessionSaved(path: String, SessionSaveOutcome)
    /// The answer to ``Effect/openSession(path:discardingChanges:asker:)``: the file read, or why not.
    case sessionOpened(path: String, Result<OpenedSessionFile, FileWorkFailure>, discardingChanges: Bool, asker: Asker)
    /// The answer to ``Effect/saveBody(_:path:overwriting:asker:)``.
    case bodySaved(path: String, BodySaveOutcome, asker: Asker)
    /// The answer to ``Effect/readFileValues(_:workingDirectory:line:)``: every value, or the first failure.
    case fileValuesRead(line: String, Result<[FileValueRead: ParameterValue], FileWorkFailure>)
    /// The answer to ``Effect/importCurl(_:workingDirectory:sessionDirectory:)``.
    case curlImported(Result<CurlCommand.Imported, InterchangeError>)
    /// The answer to ``Effect/checkCookieFile(path:value:asker:)``: nil when the file can be used.
    case cookieFileChecked(value: String, failure: String?, asker: Asker)
    /// The answer to ``Effect/readPreviewFiles(_:)``: each file read (again), with its stamp; a
    /// file whose stamp had not moved is left out.
    case previewFilesRead([PreviewFileRead: PreviewFileEntry])
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

    // MARK: File work (`update` reads and writes no file: the runner does, and answers)

    /// Save the session to `path` atomically, never over a file that does not parse nor, unless
    /// `droppingComments`, over one whose comments would be lost; with `overwriting` false a
    /// file already there is left as it is. Answered by ``Message/sessionSaved(path:_:)``.
    case saveSession(Session, path: String, overwriting: Bool, droppingComments: Bool)
    /// Read the session file at `path`. Answered by ``Message/sessionOpened(path:_:discardingChanges:asker:)``.
    case openSession(path: String, discardingChanges: Bool, asker: Asker)
    /// Write the response body to `path` atomically; with `overwriting` false a file or folder
    /// already there is reported instead. Answered by ``Message/bodySaved(path:_:asker:)``.
    case saveBody([UInt8], path: String, overwriting: Bool, asker: Asker)
    /// Read a command line's `key=@file` values, relative paths from `workingDirectory`, as
    /// `tincan send` reads them. Answered by ``Message/fileValuesRead(line:_:)``.
    case readFileValues([FileValueRead], workingDirectory: String, line: String)
    /// Read a pasted curl command (its `@file` data from `workingDirectory`, as curl would),
    /// its relative paths then taken from `sessionDirectory`. Answered by ``Message/curlImported(_:)``.
    case importCurl(String, workingDirectory: String, sessionDirectory: String)
    /// Check that the cookie file at `path` reads before the session names it (`value`, as typed).
    /// Answered by ``Message/cookieFileChecked(value:failure:asker:)``.
    case checkCookieFile(path: String, value: String, asker: Asker)
    /// Read the files the preview's request names, off the UI thread: each check whose file's
    /// stamp moved since its answer (or that has none) is read as `tincan send` reads it.
    /// Answered by ``Message/previewFilesRead(_:)``, when anything was read.
    case readPreviewFiles([PreviewFileCheck])
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
