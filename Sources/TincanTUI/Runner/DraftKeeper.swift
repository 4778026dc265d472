import TincanSessions

/// Keeps the draft of the session's unsaved changes up to date for the runner (issue 34 §2):
/// written at most once a second while the session differs from its file, removed once it is
/// saved or its changes are let go, and written at once when a signal ends the run.
struct DraftKeeper {
    let store: DraftStore?
    /// The least time between two writes, in seconds: typing is not written key by key.
    static let interval = 1.0
    private var seenChanges = -1
    private var startingChanges = -1
    private var pending = false
    private var lastWrite = -Double.infinity
    /// The session last written, and the file it is the draft of.
    private var written: (session: Session, path: String?)?
    /// Why the last write failed, reported once.
    private(set) var failure: String?

    init(store: DraftStore?) {
        self.store = store
    }

    /// How long the loop may wait before a write is due, in milliseconds, or nil when none is.
    func timeout(now: Double) -> Int? {
        guard store != nil, pending else { return nil }
        return max(0, Int(((lastWrite + Self.interval - now) * 1000).rounded()))
    }

    /// Notes the first state: the file as opened, which needs no draft, and which must not
    /// remove the draft the last run left while the user is asked about it.
    mutating func begin(_ state: AppState) {
        seenChanges = state.changeCount
        startingChanges = state.changeCount
    }

    /// Notes the state after a frame; writes or removes the draft when one is due.
    ///
    /// - Returns: A failure to report, the first time writing fails.
    mutating func update(_ state: AppState, now: Double) -> String? {
        guard store != nil else { return nil }
        if state.changeCount != seenChanges {
            seenChanges = state.changeCount
            pending = true
        }
        guard pending, now - lastWrite >= Self.interval else { return nil }
        pending = false
        lastWrite = now
        return sync(state)
    }

    /// Writes the draft now if the session has unsaved changes (a signal is ending the run).
    mutating func flush(_ state: AppState) {
        _ = sync(state)
    }

    /// Removes the draft at the end of a run the user ended: they saved, or chose to leave
    /// without saving. A run in which nothing changed leaves the last run's draft alone (the
    /// user put the question off).
    mutating func finish(_ state: AppState) {
        guard state.changeCount != startingChanges else { return }
        discard(for: state.workspace.path)
    }

    /// Removes the draft. The draft of the session open now goes too, whoever wrote it (a
    /// restored draft not yet written again).
    mutating func discard(for path: String?) {
        if let written { store?.remove(for: written.path) }
        store?.remove(for: path)
        written = nil
    }

    /// Removes the draft the last run left for this session, which the user declined.
    func discardLeftover(for path: String?) {
        store?.remove(for: path)
    }

    private mutating func sync(_ state: AppState) -> String? {
        guard let store else { return nil }
        guard state.showsModified else {
            discard(for: state.workspace.path)
            return nil
        }
        let session = state.editedSession
        let path = state.workspace.path
        if let written, written.session == session, written.path == path { return nil }
        if let written, written.path != path { store.remove(for: written.path) }
        do {
            try store.write(session, for: path)
            written = (session, path)
            return nil
        } catch {
            defer { failure = "\(error)" }
            return failure == nil ? "Unsaved changes are not kept as a draft: \(error)" : nil
        }
    }
}
