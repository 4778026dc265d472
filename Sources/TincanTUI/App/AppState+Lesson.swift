import TerminalUI
import TincanCore
import TincanSessions

/// A lesson open in the TUI (issue 20 §1): the Notes view shows the step, its goals tick as the
/// request is edited (request checks, judged on the preview) and sent (response checks, judged
/// on the step's request as sent), and the next step unlocks once every goal passes.
extension AppState {
    /// Opens the workspace's lesson at the first step not passed, with its request loaded and
    /// the Notes view showing.
    public mutating func startLesson(_ context: LessonContext) {
        guard let lesson = workspace.session.lesson else { return }
        var state = LessonState(lesson: lesson, context: context)
        if let entry = context.progress.lessons[context.key], entry.stepCount == lesson.steps.count {
            state.passed = entry.passedSteps
        }
        self.lesson = state
        previewView = .notes
        showLessonStep(state.lastUnlocked)
        // A later step needs what the earlier ones left: they are sent again first.
        scheduleLessonRebuild(upTo: state.lastUnlocked)
        if let problem = context.progressProblem {
            status = StatusMessage("Progress is not saved this time: \(problem)", .warning)
        } else if let notice = context.notice {
            status = StatusMessage(notice, .warning)
        }
    }

    /// Shows step `index`: its request loaded, its hints hidden, its goals judged afresh.
    mutating func showLessonStep(_ index: Int) {
        guard var state = lesson, state.lesson.steps.indices.contains(index) else { return }
        state.enter(step: index)
        lesson = state
        // The last step's response answered another request: the new step starts afresh.
        if exchange?.phase != .sending { exchange = nil }
        previewView = .notes
        previewScroll = ScrollState()
        loadRequest(state.current.requestIndex)
        focus = .url
        refreshPreview()
        status = state.stepNews
    }

    /// Performs a lesson key: the lesson decides (``LessonState/handle(_:)``), and the panes and
    /// the preview follow.
    mutating func performLesson(_ action: Action) {
        guard var state = lesson else {
            status = StatusMessage("No lesson is open: tincan learn lists the lessons.", .warning)
            return
        }
        let (request, news) = state.handle(action)
        lesson = state
        if let news { status = news }
        switch request {
        case .none:
            break
        case .toggleNotes:
            guard !showsNotesColumn else { return pageNotesColumn() }
            previewView = previewView == .notes ? .wire : .notes
            previewScroll = ScrollState()
            refreshPreview()
        case .showStep(let index):
            showLessonStep(index)
        case .showHint(let prefix):
            previewView = .notes
            scrollNotesColumn(toLineStartingWith: prefix)
        }
    }

    /// The notes' column on a wide screen: its box, and its lines as drawn there.
    private var notesColumn: (viewport: Int, lines: [TokenLine])? {
        guard let lesson, let box = ScreenLayout(self).notesBox else { return nil }
        return (max(1, box.height - 2), NotesPane.lines(lesson, width: NotesPane.columnWidth(box)))
    }

    /// alt+l on a wide screen: the next page of the notes' column, then the top again.
    private mutating func pageNotesColumn() {
        guard let column = notesColumn, var state = lesson else { return }
        // A page at a time, overlapping by a line; past the end, the top again.
        let last = max(0, column.lines.count - column.viewport)
        let offset = state.notesScroll.offset
        state.notesScroll = ScrollState(offset: offset >= last ? 0 : min(last, offset + max(1, column.viewport - 1)))
        lesson = state
        status = StatusMessage(column.lines.count <= column.viewport ? "The notes fit in their column." : "Notes: lines \(state.notesScroll.offset + 1)-\(min(column.lines.count, state.notesScroll.offset + column.viewport)) of \(column.lines.count); alt+l shows more.")
    }

    /// Scrolls the notes' column so the line that starts with `prefix` (a hint just shown) is in sight.
    private mutating func scrollNotesColumn(toLineStartingWith prefix: String) {
        guard let column = notesColumn, var state = lesson,
              let line = column.lines.firstIndex(where: { $0.map(\.text).joined().hasPrefix(prefix) }) else { return }
        if line < state.notesScroll.offset || line >= state.notesScroll.offset + column.viewport {
            state.notesScroll = ScrollState(offset: max(0, line - 1))
            state.notesScroll.clamp(contentHeight: column.lines.count, viewport: column.viewport)
            lesson = state
        }
    }

    /// Changes the lesson's steps in the session (what is saved) and in the open lesson alike,
    /// so a step keeps its request when the list of requests changes around it.
    mutating func editLessonSteps(_ change: (inout LessonStep) -> Void) {
        guard var steps = workspace.session.lesson?.steps else { return }
        for index in steps.indices { change(&steps[index]) }
        workspace.session.lesson?.steps = steps
        lesson?.lesson.steps = steps
    }

    /// The step's assertions, goal after goal: what ``GoalResult/results(of:checks:unjudged:)`` splits back.
    private var lessonAssertions: [Assertion] { lesson?.current.goals.flatMap(\.assertions) ?? [] }

    /// Judges the shown step's goals after the preview changed: request checks on the request as
    /// built now, response checks as the step's last send left them. A step whose goals are all
    /// on the request passes here.
    mutating func refreshLessonGoals() -> [Effect] {
        guard var state = lesson else { return [] }
        let assertions = lessonAssertions
        var requestChecks: [CheckResult] = []
        var unjudged: String?
        if workspace.selected != state.current.requestIndex {
            unjudged = "the step's request is not the one in the editor"
        } else if case let .request(request, _) = preview, let template = try? variablesInEffect() {
            requestChecks = Self.requestChecks(assertions, on: request, template: template)
        } else if case let .error(reason) = preview {
            unjudged = "the request cannot be built: \(reason)"
        } else if let reason = preview.notReady {
            unjudged = reason
        }
        // Request checks as the request stands now; response checks as the last send left them.
        let live = ResponseEvaluation.byAssertion(assertions, requestChecks: requestChecks, response: state.lastSend)
        state.goals = GoalResult.results(of: state.current.goals, checks: live, unjudged: unjudged)
        lesson = state
        // A step of request goals only passes as the request is built.
        guard state.current.goals.allSatisfy(\.isOnRequest), state.goals.allSatisfy(\.passed) else { return [] }
        return passLessonStep()
    }

    /// Judges the shown step's goals on a send of its request: request checks on the request as
    /// sent, response checks on the response. The step passes when this send passes them all.
    ///
    /// A goal on what the server received (`received:`) is judged once the demo server has said
    /// what it received: the send asks it (the Received view's fetch), and ``lessonReceivedFetched(_:_:)``
    /// judges the send again with its answer.
    mutating func judgeLessonSend(_ exchange: Exchange, result: TaskResult, received: Result<ReceivedRequest, ReceivedRecord.Failure>? = nil) -> [Effect] {
        guard var state = lesson, exchange.requestIndex == state.current.requestIndex, let template = exchange.template else { return [] }
        let assertions = lessonAssertions
        state.awaitingReceived = nil
        var received = received
        if received == nil, assertions.contains(where: \.isReceivedCheck) {
            switch ReceivedRecord.url(for: result) {
            case .success(let url):
                state.awaitingReceived = exchange.id
                lesson = state
                self.received = .loading(exchange: exchange.id, requestID: Int(url.path.split(separator: "/").last ?? "") ?? 0)
                return [.fetchReceived(exchange: exchange.id, url: url, security: exchange.flow.plan?.security ?? SecuritySettings())]
            case .failure(let failure):
                received = .failure(failure)
            }
        }
        var saved = exchange.saved ?? SavedRequest(url: "")
        saved.assertions = assertions
        saved.captures = [:]
        // Judged even when the exchange failed: a goal may expect it to (transport-error).
        let evaluation = ResponseEvaluation(saved, result: result, template: template, received: received)
        let checks = ResponseEvaluation.byAssertion(assertions, requestChecks: Self.requestChecks(assertions, on: exchange.request, template: template),
                                                    response: evaluation.byAssertion)
        let passedAll = checks.allSatisfy { $0?.passed == true }
        state.lastSend = checks
        lesson = state
        // Every check was judged (a failed exchange too: its checks say why), so nothing is
        // left pending; a step of request goals only may pass in the refresh already.
        let effects = refreshLessonGoals()
        return passedAll ? effects + passLessonStep() : effects
    }

    /// The demo server's answer to what it received for send `id`, which a goal of the shown
    /// step waits for: the send is judged again with it.
    mutating func lessonReceivedFetched(_ id: Int, _ outcome: Result<ReceivedRequest, ReceivedFetchFailure>) -> [Effect] {
        guard lesson?.awaitingReceived == id, let exchange, exchange.id == id, let result = exchange.result else { return [] }
        return judgeLessonSend(exchange, result: result, received: outcome.mapError { ReceivedRecord.Failure($0.reason) })
    }

    /// The request checks among `assertions`, judged on `request`.
    private static func requestChecks(_ assertions: [Assertion], on request: HTTPRequest, template: Template) -> [CheckResult] {
        var saved = SavedRequest(url: "")
        saved.assertions = assertions
        return ResponseEvaluation.requestChecks(saved, request: request, template: template)
    }

    /// Marks the shown step passed, unlocks the next and saves the learner's progress.
    private mutating func passLessonStep() -> [Effect] {
        guard var state = lesson, let news = state.passStep() else { return [] }
        lesson = state
        status = news
        return state.progressEffect.map { [$0] } ?? []
    }
}
