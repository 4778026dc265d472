import TerminalUI
import TincanCore
import TincanSessions

/// A slow-motion send (alt+p): it stops before each stage until alt+p is pressed again. The
/// TUI's own stages (build, serialize) are stepped here; the core's ``SlowMotion`` gate stops
/// the real task at the rest, and the runner reports each stop as ``Message/stageWaiting(exchange:_:at:)``.
extension AppState {
    /// alt+p: starts a slow-motion send, lets its current stop go ahead, or, once it is over,
    /// puts the response back in the response box.
    mutating func slowMotionKey() -> [Effect] {
        guard var motion = slowMotion else { return startSlowMotion() }
        if motion.phase == .finished {
            slowMotion = nil
            status = StatusMessage("Slow motion closed; alt+p starts another.")
            return []
        }
        guard let stage = motion.waiting else {
            status = StatusMessage("Slow motion: the send is on its way to the next stop…")
            return []
        }
        switch motion.phase {
        case .frontEnd where stage == .build:
            // RequestDraft: the saved request with its variables, defaults and items resolved
            // (serialize resolves it again as the preview does, and builds it).
            if bodyIsDirty {
                guard applyBody() else { return [] }
            }
            do {
                // Through what the runner read for the preview: update reads no file.
                _ = try resolveSelected(in: editedSession, files: previewFiles.lookup())
            } catch {
                slowMotion = nil
                status = StatusMessage("Slow motion stopped at build: \(error)", .error)
                return []
            }
            motion.passed.append(.build)
            motion.waiting = .serialize
            slowMotion = motion
            announceStop()
            return []
        case .frontEnd:
            // The draft built into an HTTPRequest: the serializer encodes, the preview shows it.
            refreshPreview()
            motion.passed.append(.serialize)
            motion.waiting = nil
            slowMotion = motion
            let effects = send(inSlowMotion: true)
            guard let exchange, exchange.phase == .sending else {
                // The request could not be sent (the status line says why).
                slowMotion = nil
                return effects
            }
            slowMotion?.phase = .sending(exchange: exchange.id)
            status = StatusMessage("Slow motion: serialized; the task starts and stops before connect…")
            return effects
        case .sending(let id):
            motion.passed.append(stage)
            motion.waiting = nil
            slowMotion = motion
            status = StatusMessage("Slow motion: \(stage.title) goes ahead…")
            return [.stepSend(exchange: id)]
        case .finished:
            return []
        }
    }

    private mutating func startSlowMotion() -> [Effect] {
        if let exchange, exchange.phase == .sending {
            status = StatusMessage("A request is already being sent; ctrl+g cancels it.", .warning)
            return []
        }
        slowMotion = SlowMotionState()
        // The Explain view follows the stages: each stop highlights the steps it is about.
        if previewView != .explain {
            previewView = .explain
            refreshPreview()
        }
        announceStop()
        return []
    }

    /// The core stopped exchange `id` before `stage`.
    mutating func slowMotionStopped(_ id: Int, before stage: SendStage) {
        guard slowMotion?.phase == .sending(exchange: id) else { return }
        slowMotion?.waiting = stage
        announceStop()
    }

    /// Notes a callback of the slow-motion exchange's task; a completed task ends slow motion.
    mutating func slowMotionNote(_ event: TaskEvent, exchange id: Int, at time: Double) {
        guard var motion = slowMotion, motion.phase == .sending(exchange: id) else { return }
        if let name = event.delegateCallback {
            let start = exchange?.startedAt ?? time
            motion.note(SlowMotionState.Callback(at: time - start, name: name, detail: Self.callbackDetail(event)))
        }
        if case .completed = event {
            motion.phase = .finished
            motion.waiting = nil
            if let text = status?.text { status?.text = "Slow motion done: \(text) · alt+p shows the response" }
        }
        slowMotion = motion
    }

    /// Ends a slow-motion send that has not reached the core (ctrl+g at build or serialize);
    /// false when there is none.
    mutating func cancelSlowMotionBeforeSending() -> Bool {
        guard slowMotion?.phase == .frontEnd else { return false }
        slowMotion = nil
        status = StatusMessage("Slow motion cancelled before anything was sent.", .warning)
        return true
    }

    private mutating func announceStop() {
        guard let stage = slowMotion?.waiting else { return }
        status = StatusMessage("Slow motion · stopped before \(stage.title): \(stage.action) (alt+p goes on, ctrl+g cancels)")
        // The Explain view scrolls to the step the stop is about.
        guard previewView == .explain, let box = ScreenLayout(self).previewBox else { return }
        let rows = previewBoxRows(width: box.width)
        if let row = rows.firstIndex(where: { line in line.contains { $0.text == "  ◀ now" } }) {
            previewScroll = ScrollState(offset: row)
            let bounds = previewScrollBounds()
            previewScroll.clamp(contentHeight: bounds.contentHeight, viewport: bounds.viewport)
        }
    }

    /// What a callback carried, in a few words.
    static func callbackDetail(_ event: TaskEvent) -> String {
        switch event {
        case let .requestSent(request): "\(request.method) \(Redaction.url(request.url.string))"
        case let .uploadProgress(progress), let .downloadProgress(progress):
            RequestPreview.byteCount(progress.completed) + (progress.expected.map { " of \(RequestPreview.byteCount($0))" } ?? "")
        case let .responseHead(response): "\(response.statusCode) \(HTTPResponse.reasonPhrase(forStatusCode: response.statusCode))"
        case let .redirected(redirect): "\(redirect.statusCode) to \(Redaction.url(redirect.to.string))"
        case let .completed(result): result.transportError.map { "error: \($0)" } ?? "error: nil"
        default: ""
        }
    }
}
