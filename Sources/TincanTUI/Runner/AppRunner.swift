import Foundation
import Synchronization
import TerminalUI
import TincanCore
import TincanSessions

/// Runs the TUI: one UI thread that owns the terminal, and the core's tasks that post back.
///
/// The loop waits on the terminal (its poll covers standard input and the self-pipe), then
/// drains every key and every message before painting once, so a flood of progress events
/// becomes one frame. Background work only posts to the ``Inbox``, which wakes the loop.
/// Nothing here is `@MainActor`: the loop blocks, and must run on a thread of its own.
public final class AppRunner: Sendable {
    private let terminal: any TerminalDevice
    let managers: ManagerPool
    private let history: HistoryStore?
    private let commands: CommandHistoryStore?
    private let drafts: DraftStore?
    /// The config file a theme chosen with ctrl+t is kept in, or nil for nowhere.
    private let configPath: String?
    let inbox: Inbox
    private let tasks = Mutex<[Int: SessionTask]>([:])
    /// The gates of slow-motion sends, by exchange, while their tasks run.
    private let motions = Mutex<[Int: SlowMotion]>([:])
    /// The messages typed for open WebSocket requests, by exchange (``converse(_:_:_:options:manager:)``).
    private let conversations = Mutex<[Int: AsyncStream<String>.Continuation]>([:])
    /// Where the preview's files are read, one after another (``readPreviewFiles(_:)``).
    let previewReads = DispatchQueue(label: "tincan.preview-files")
    /// The clock of the app's ticks and timelines: its managers' (``ManagerPool/timing``), so
    /// that a task's event times and the app's agree, and a test advances both.
    private let timing: Timing
    /// When the runner started, on `timing`.
    private let start: Duration
    /// Told each lesson progress recorded (the entry, and the lesson's key), for a classroom;
    /// what it returns is a problem for the status line.
    private let lessonProgressObserver: (@Sendable (LessonProgress.Entry, String) async -> String?)?

    /// Creates a runner over a terminal, sending through the pool's managers (their cookie jars
    /// and caches last as long as the app; the caller ends them).
    ///
    /// - Parameters:
    ///   - history: Where sends are recorded, or nil for none.
    ///   - drafts: Where unsaved changes are kept while the app runs, or nil for nowhere.
    ///   - configPath: The config file ctrl+t's theme is kept in (`config.yaml` in the config
    ///     directory), or nil to keep it nowhere.
    ///   - lessonProgressObserver: Told each lesson progress as it is recorded (`tincan learn
    ///     --classroom` sends it to the teacher), off the UI thread; a problem it returns is
    ///     shown on the status line.
    public init(terminal: any TerminalDevice, managers: ManagerPool, history: HistoryStore? = nil, commands: CommandHistoryStore? = nil, drafts: DraftStore? = nil,
                configPath: String? = nil, lessonProgressObserver: (@Sendable (LessonProgress.Entry, String) async -> String?)? = nil) {
        self.configPath = configPath
        self.lessonProgressObserver = lessonProgressObserver
        self.terminal = terminal
        self.managers = managers
        self.history = history
        self.commands = commands
        self.drafts = drafts
        inbox = Inbox(terminal: terminal)
        timing = managers.timing
        start = timing.now()
    }

    /// Seconds since the runner started.
    func seconds() -> Double {
        (timing.now() - start).inSeconds
    }

    /// Seconds since the runner started, at a time on its timing (an event's emission).
    func seconds(at instant: Duration) -> Double {
        (instant - start).inSeconds
    }

    /// Runs until the user quits or a signal asks to stop.
    ///
    /// - Parameter onFirstPaint: Called once, right after the first frame is on the screen.
    /// - Returns: The state at the end.
    public func run(_ initial: AppState, onFirstPaint: (() -> Void)? = nil) -> AppState {
        var state = initial
        // The date of the app's second 0, on the same timing, so history entries are dated by it.
        state.startedAt = timing.date().addingTimeInterval(-seconds())
        var cookieFile = Self.cookieFile(of: state)
        var sessionPath = state.workspace.path
        let size = terminal.size
        // What the first frame asks for (the preview's files) is carried out with the first events.
        var carried = Self.answeringFileWork(state.update(.input(.resize(width: size.width, height: size.height))), in: &state)
        var previous: ScreenBuffer?
        func paint() {
            let frame = Renderer.render(&state)
            terminal.draw(frame.diff(from: previous), cursor: frame.cursor)
            previous = frame
        }
        paint()
        onFirstPaint?()
        var draft = DraftKeeper(store: drafts)
        draft.begin(state)
        while !state.shouldQuit {
            // A lesson rebuilding earlier steps sends them without waiting for a key.
            let busy = state.exchange?.phase == .sending || state.needsTick
            let waits = [busy ? 100 : nil, draft.timeout(now: seconds()), carried.isEmpty ? nil : 0].compactMap { $0 }
            let events = terminal.waitForEvents(timeout: waits.min())
            if terminal.stopRequested {
                // Leaves at once, through update like every change: nothing is asked, and unsaved
                // changes go to their draft for the next run.
                draft.flush(state)
                _ = state.update(.quit)
                break
            }
            // The clock moves before anything is handled: a send started by this input takes its
            // start time from now, not from the last tick, which only a send in flight makes.
            var effects = carried + state.update(.tick(at: seconds()))
            carried = []
            /// A message the loop itself answers with: its effects are carried out in this frame too.
            func take(_ message: Message) {
                effects += Self.answeringFileWork(state.update(message), in: &state)
            }
            for event in events {
                if case .resize = event { previous = nil }
                // File work is answered before the next key, which may be meant for the question
                // its answer asks (overwrite?), as when update did it itself.
                effects += Self.answeringFileWork(state.update(.input(event)), in: &state)
            }
            for message in inbox.drain() { take(message) }
            var next = 0
            while next < effects.count {
                let effect = effects[next]
                next += 1
                switch effect {
                case .saveSession, .openSession, .saveBody, .readFileValues, .importCurl, .checkCookieFile:
                    // Answered as each key asked for it (answeringFileWork).
                    break
                case let .readPreviewFiles(checks): readPreviewFiles(checks)
                case let .send(id, request, plan): send(id, request, plan)
                case let .cancel(id):
                    tasks.withLock { $0[id] }?.cancel()
                    // A WebSocket closes with 1000, its frames until the server's close still listed.
                    conversations.withLock { $0[id] }?.finish()
                case let .webSocketSend(id, text): conversations.withLock { $0[id] }?.yield(text)
                case let .stepSend(id): motions.withLock { $0[id] }?.step()
                case let .editExternally(text, fileExtension):
                    let outcome = terminal.withTerminalReleased { Self.runEditor(text, fileExtension: fileExtension) }
                    switch outcome {
                    case let .success(edited): take(.editorFinished(edited))
                    case let .failure(error): take(.editorFailed(error.message))
                    }
                    previous = nil
                case let .viewExternally(bytes, fileExtension, viewer):
                    let outcome = terminal.withTerminalReleased { Self.runViewer(viewer, bytes, fileExtension: fileExtension) }
                    switch outcome {
                    case let .success(command): take(.viewerFinished(command))
                    case let .failure(error): take(.viewerFailed(error.message))
                    }
                    previous = nil
                case let .inspectStores(command):
                    take(.storesListed(managers.perform(command, now: Date())))
                case .clearStores:
                    _ = managers.perform(.deleteAllCookies, now: Date())
                    _ = managers.perform(.clearCache, now: Date())
                case let .fetchReceived(id, url, security):
                    fetchReceived(id, url: url, security: security)
                case let .copyToClipboard(text):
                    terminal.setClipboard(text)
                case let .recordHistory(entry):
                    do {
                        try history?.append(entry)
                    } catch {
                        take(.historyFailed(error.description))
                    }
                case let .saveLessonProgress(entry, key, path):
                    do {
                        try LessonProgress.record(entry, for: key, path: path)
                    } catch {
                        take(.lessonProgressFailed(error.description))
                    }
                    if let observer = lessonProgressObserver {
                        let inbox = inbox
                        Task {
                            if let problem = await observer(entry, key) { inbox.post(.lessonReportFailed(problem)) }
                        }
                    }
                case let .recordTrust(answer, digest, file, path):
                    do {
                        try SessionTrust.record(answer, digest: digest, for: file, path: path)
                    } catch {
                        take(.trustNotRemembered(error.description))
                    }
                case let .recordCommand(line):
                    do {
                        try commands?.append(line)
                    } catch {
                        take(.historyFailed(error.description))
                    }
                case .suspend:
                    terminal.suspend()
                    previous = nil
                case .quit:
                    // Nothing to do here: update set shouldQuit as it asked for this, and the loop
                    // ends after this frame.
                    break
                case .discardDraft:
                    draft.discardLeftover(for: state.workspace.path)
                case let .saveTheme(name):
                    guard let configPath else { break }
                    do {
                        try ConfigThemeLine.save(name, to: configPath)
                    } catch {
                        take(.themeNotSaved("\(error)"))
                    }
                }
            }
            // Another session opened (or this one's cookie file changed in the Props tab): the
            // old jar is saved to its file, and the new file's cookies replace it (or, for the
            // same session, are laid over the cookies it has so far).
            let nowCookieFile = Self.cookieFile(of: state)
            let sameSession = state.workspace.path == sessionPath
            sessionPath = state.workspace.path
            if nowCookieFile != cookieFile {
                cookieFile = nowCookieFile
                do {
                    try managers.saveCookies()
                } catch {
                    take(.cookieFileFailed("\(error)"))
                }
                do {
                    try managers.loadCookies(from: nowCookieFile, keepingCookies: sameSession)
                } catch {
                    take(.cookieFileFailed("\(error); the session's cookies are kept in memory only, and the file is not written"))
                }
            }
            if let failure = draft.update(state, now: seconds()) { _ = state.update(.draftFailed(failure)) }
            paint()
        }
        // The user saved, or chose to quit without saving: the draft has nothing left to keep.
        if state.shouldQuit, !terminal.stopRequested { draft.finish(state) }
        for task in tasks.withLock({ Array($0.values) }) { task.cancel() }
        for conversation in conversations.withLock({ Array($0.values) }) { conversation.finish() }
        return state
    }

    /// The opened session's cookie file as a path (relative to the session file), or nil.
    static func cookieFile(of state: AppState) -> String? {
        guard let path = state.workspace.path else { return nil }
        return state.workspace.session.cookieFilePath(in: Session.directory(of: path))
    }

    private func send(_ id: Int, _ request: HTTPRequest, _ plan: SendPlan) {
        let manager: URLSessionManager
        do {
            manager = try managers.manager(for: plan.security)
        } catch {
            inbox.post(.sendFailed(exchange: id, "the session's security settings cannot be used: \(error)", at: seconds()))
            return
        }
        if let webSocket = plan.webSocket { return converse(id, request, webSocket, options: plan.options, manager: manager) }
        do {
            var options = plan.options
            let inbox = inbox
            // Event streams and NDJSON are listed as they arrive; a download keeps its file.
            if options.stream == nil, options.download == nil {
                // Kept up to max-body too, so the Checks tab judges the body as replay does.
                var stream = StreamOptions(selection: .eventStreamsAndLines) { [self] delivery in
                    inbox.post(.streamed(exchange: id, delivery, at: seconds()))
                }
                stream.keepsBody = true
                options.stream = stream
            }
            if options.oauth2 != nil {
                // A grant that needs the user says so in the status line (the URL whole, for
                // copying) and opens $BROWSER when it is set.
                let showAuthorization: @Sendable (URLReference) async -> Void = { url in
                    inbox.post(.oauth2Prompt(exchange: id, "OAuth 2.0: open \(TerminalText.line(url.string)) to authorize; waiting for the redirect…"))
                }
                let showDeviceCode: @Sendable (OAuth2DevicePrompt) async -> Void = { prompt in
                    inbox.post(.oauth2Prompt(exchange: id, TerminalText.line(prompt.text.split(separator: "\n").joined(separator: " "))))
                }
                var open: (@Sendable (String) -> Void)?
                if let browser = Browser(environment: ProcessInfo.processInfo.environment) { open = { browser.open($0) } }
                options.oauth2?.interaction = OAuth2Interaction(showAuthorization: showAuthorization, showDeviceCode: showDeviceCode, openBrowser: open)
            }
            if plan.slowMotion {
                let motion = SlowMotion { [self] stage in inbox.post(.stageWaiting(exchange: id, stage, at: seconds())) }
                options.stageGate = motion.gate
                motions.withLock { $0[id] = motion }
            }
            // The preview's request carries the lengths its files had when it was built: the
            // file is sent as it is now.
            var request = request
            request.body = try request.body.withCurrentFileLengths()
            let task = try manager.task(with: request, options: options)
            tasks.withLock { $0[id] = task }
            // Each event at the time the task emitted it, so the Timing view agrees with itself
            // however late the loop reads it.
            let events = task.timedEvents
            Task.detached { [self] in
                for await timed in events {
                    inbox.post(.task(exchange: id, timed.event, at: seconds(at: timed.at)))
                }
                tasks.withLock { _ = $0.removeValue(forKey: id) }
                motions.withLock { _ = $0.removeValue(forKey: id) }
            }
            task.resume()
        } catch {
            inbox.post(.sendFailed(exchange: id, "\(error)", at: seconds()))
        }
    }

    /// Opens a WebSocket request's connection: its saved messages, then what the user types
    /// (``Effect/webSocketSend(exchange:text:)``) until the cancel key or the server closes it;
    /// each frame is posted as it goes, and the exchange completes as a task's would.
    private func converse(_ id: Int, _ request: HTTPRequest, _ webSocket: SavedWebSocket, options: TaskOptions, manager: URLSessionManager) {
        let (more, continuation) = AsyncStream<String>.makeStream()
        conversations.withLock { $0[id] = continuation }
        let inbox = inbox
        Task.detached { [self] in
            let outcome = await WebSocketExchange.run(webSocket, request: request, options: options, manager: manager, more: more) { [self] frame in
                inbox.post(.webSocketFrame(exchange: id, frame, at: seconds()))
            }
            conversations.withLock { _ = $0.removeValue(forKey: id) }
            inbox.post(.task(exchange: id, .completed(outcome.result), at: seconds()))
        }
    }

    /// Why `$EDITOR` did not give text back.
    struct EditorError: Error {
        var message: String
    }

    /// Runs a command from the environment on a file in the terminal's foreground
    /// (``ForegroundProgram``), and waits for it. - Returns: why it failed, or nil.
    static func runCommand(_ command: String, on path: String) -> String? {
        ForegroundProgram.run(command, on: path)
    }

    /// A temporary file for an outside program, readable by this user alone.
    static func temporaryPath(fileExtension: String) -> String {
        (NSTemporaryDirectory() as NSString).appendingPathComponent("tincan-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).\(fileExtension)")
    }

    /// The most bytes of text read back from the editor, as much as a parameter read from a file.
    static let editedTextLimit = 64 << 20

    /// Writes text to a temporary file, runs `$VISUAL` or `$EDITOR` (else `vi`) on it through
    /// the shell (so an editor with arguments works), and reads it back.
    static func runEditor(_ text: String, fileExtension: String, environment: [String: String] = ProcessEnvironment.values) -> Result<String, EditorError> {
        let editor = environment["VISUAL"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["EDITOR"].flatMap { $0.isEmpty ? nil : $0 } ?? "vi"
        let path = temporaryPath(fileExtension: fileExtension)
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            return .failure(EditorError(message: "could not write \(path)"))
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        if let failure = runCommand(editor, on: path) {
            return .failure(EditorError(message: failure + "; the body was not changed"))
        }
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, limit: Self.editedTextLimit)
        } catch {
            return .failure(EditorError(message: "could not read \(path) back: it \(error); the body was not changed"))
        }
        guard let edited = String(validating: bytes, as: UTF8.self) else {
            return .failure(EditorError(message: "could not read \(path) back as UTF-8; the body was not changed"))
        }
        return .success(edited)
    }
}

/// Messages from background work, waiting for the UI loop: a locked queue that wakes the
/// terminal's poll with one byte on its self-pipe.
final class Inbox: Sendable {
    private let messages = Mutex<[Message]>([])
    private let terminal: any TerminalDevice

    init(terminal: any TerminalDevice) {
        self.terminal = terminal
    }

    /// Queues a message and wakes the loop.
    func post(_ message: Message) {
        messages.withLock { $0.append(message) }
        terminal.wake()
    }

    /// Takes every queued message, oldest first.
    func drain() -> [Message] {
        messages.withLock { queue in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
    }
}

/// The session managers the TUI sends through: one for the default trust settings, and one per
/// session `security:` block, made on first use (trust roots belong to a manager's transport).
/// Cookies and the cache live as long as their manager.
public final class ManagerPool: Sendable {
    private let standard: URLSessionManager
    private let secured = Mutex<[(security: SecuritySettings, manager: URLSessionManager)]>([])
    /// The cookies of the opened session's cookie file, which a manager made later starts with too.
    private let loadedCookies = Mutex<[Cookie]>([])
    /// The cookie file the jars came from and are saved to; nil for none, or for one that did
    /// not parse, which is then never written over.
    private let boundCookieFile = Mutex<String?>(nil)

    /// A pool whose default-trust manager is `standard`; the others share its timing.
    public init(_ standard: URLSessionManager) {
        self.standard = standard
    }

    /// The clock every manager of the pool runs on.
    public var timing: Timing { standard.timing }

    /// The manager that trusts servers as `security` says.
    ///
    /// - Throws: What making a policy of the settings throws (an unreadable pin, a CA file that holds none).
    public func manager(for security: SecuritySettings) throws -> URLSessionManager {
        guard security != SecuritySettings() else { return standard }
        return try secured.withLock { managers in
            if let known = managers.first(where: { $0.security == security }) { return known.manager }
            let made = try URLSessionManager(http: try HTTPSessionManager(), securityPolicy: try security.policy(), timing: standard.timing,
                                         transportTiming: standard.transportTiming)
            made.cookieJar.insert(loadedCookies.withLock { $0 })
            managers.append((security, made))
            return made
        }
    }

    // MARK: - The opened session's cookie file (issue 18 §6)

    /// The cookie file the jars are saved to, if any.
    public var cookieFile: String? { boundCookieFile.withLock { $0 } }

    /// Fills every jar from the cookie file at `path` (none when it does not exist yet), which
    /// ``saveCookies()`` then writes to; nil keeps cookies in memory only.
    ///
    /// - Parameter keepingCookies: Whether the cookies in the jars stay (the same session took a
    ///   cookie file), the file's laid over them; otherwise the jars are emptied first (another
    ///   session was opened).
    /// - Throws: ``CookieFileError`` for a file that does not parse; the file is not bound, so it
    ///   is never written over.
    public func loadCookies(from path: String?, keepingCookies: Bool = false) throws(CookieFileError) {
        boundCookieFile.withLock { $0 = nil }
        if !keepingCookies {
            for manager in [standard] + secured.withLock({ $0.map(\.manager) }) { manager.cookieJar.removeAll() }
        }
        loadedCookies.withLock { $0 = [] }
        guard let path else { return }
        insertCookies(try CookieFile.load(from: path))
        boundCookieFile.withLock { $0 = path }
    }

    /// Saves every manager's cookies (``cookies``) to the bound cookie file; nothing without one.
    ///
    /// - Throws: ``FileWriteError`` naming the file.
    public func saveCookies() throws(FileWriteError) {
        guard let path = cookieFile else { return }
        try CookieFile.save(cookies, to: path)
    }

    /// Every manager: the default-trust one, then those made for a session's security settings.
    var allManagers: [URLSessionManager] { [standard] + secured.withLock { $0.map(\.manager) } }

    /// Deletes a cookie (by name, domain and path) from every jar, and from the cookies a
    /// manager made later starts with; nil deletes every cookie.
    public func deleteCookie(_ cookie: Cookie?) {
        loadedCookies.withLock { loaded in
            guard let cookie else { return loaded.removeAll() }
            loaded.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
        }
        for manager in allManagers {
            if let cookie { manager.cookieJar.remove(cookie) } else { manager.cookieJar.removeAll() }
        }
    }

    /// Puts a cookie file's cookies into every manager's jar, and into those made later.
    public func insertCookies(_ cookies: [Cookie]) {
        loadedCookies.withLock { $0 = cookies }
        standard.cookieJar.insert(cookies)
        for manager in secured.withLock({ $0.map(\.manager) }) { manager.cookieJar.insert(cookies) }
    }

    /// Every manager's cookies, one of each name, domain and path. A cookie from the file that
    /// one manager changed or deleted is not brought back by another's untouched copy.
    public var cookies: [Cookie] {
        let jars = ([standard] + secured.withLock { $0.map(\.manager) }).map(\.cookieJar.all)
        let loaded = Set(loadedCookies.withLock { $0 })
        var merged: [Cookie] = []
        for cookie in jars.joined().sorted(by: { $0.created < $1.created }) {
            if loaded.contains(cookie), !jars.allSatisfy({ $0.contains(cookie) }) { continue }
            merged.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
            merged.append(cookie)
        }
        return merged
    }

    // MARK: -

    /// Ends every manager, cancelling what is still running.
    public func invalidateAll() async {
        let all = [standard] + secured.withLock { managers in
            defer { managers.removeAll() }
            return managers.map(\.manager)
        }
        for manager in all { try? await manager.invalidate(cancelingTasks: true) }
    }
}
