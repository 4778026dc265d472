import TerminalUI
import TincanCore
import TincanSessions

/// A lesson's state across runs, and a way back (issue 37 §2). What earlier steps leave (captures,
/// cookies, cached responses) lives in this run only, so a lesson opened at a later step sends
/// the earlier steps' requests again, in order, against the lesson's servers before the learner
/// takes up that step, and says so. alt+R puts the shown step's request back as shipped and
/// rebuilds what the steps before it left; alt+E starts the whole lesson afresh.
extension AppState {
    /// Whether the runner should tick while no key is pressed: a rebuild has a step to send.
    public var needsTick: Bool { lesson?.rebuild != nil }

    /// Whether a rebuild has begun sending, so a completed send goes on with it.
    var isRebuildingLesson: Bool { lesson?.rebuild?.started == true }

    /// Rebuilds what the steps before `target` left by sending them again; nothing for step 1.
    mutating func scheduleLessonRebuild(upTo target: Int) {
        guard var state = lesson, target > 0 else { return }
        state.rebuild = LessonRebuild(pending: Array(0..<target), target: target)
        lesson = state
        status = StatusMessage("Sending \(Self.stepRange(target)) again to rebuild what they left (captures, cookies, cache)…")
    }

    /// Sends the rebuild's next step once nothing else is being sent; with none left, shows the
    /// step it was for and says what happened.
    mutating func continueLessonRebuild() -> [Effect] {
        guard var state = lesson, var rebuild = state.rebuild, exchange?.phase != .sending else { return [] }
        guard let next = rebuild.pending.first else {
            state.rebuild = nil
            lesson = state
            showLessonStep(rebuild.target)
            status = rebuild.failure.map { StatusMessage($0, .warning) }
                ?? StatusMessage("\(Self.stepRange(rebuild.target).capitalizedFirst) sent again, so what they left (captures, cookies, cache) is back: step \(rebuild.target + 1) takes up from there. alt+R resets this step, alt+E the lesson.", .success)
            return []
        }
        rebuild.pending.removeFirst()
        rebuild.started = true
        state.rebuild = rebuild
        lesson = state
        showLessonStep(next)
        let effects = send()
        guard !effects.isEmpty else {
            let reason = status?.text ?? "it cannot be built"
            lesson?.rebuild?.pending = []
            lesson?.rebuild?.failure = "Step \(next + 1) could not be sent again (\(reason)), so what it leaves is missing: fix it there (alt+g), or alt+E starts the lesson afresh."
            return continueLessonRebuild()
        }
        status = StatusMessage("Rebuilding: step \(next + 1) of \(Self.stepRange(rebuild.target)) sent again…")
        return effects
    }

    /// alt+R: the shown step's request as shipped, and what the steps before it left rebuilt from
    /// empty stores (a typo in an earlier step no longer spoils it).
    mutating func resetLessonStep() -> [Effect] {
        guard let state = lesson else { return noLesson() }
        guard exchange?.phase != .sending else {
            status = StatusMessage("A request is being sent; ctrl+g cancels it, then reset.", .warning)
            return []
        }
        guard let shipped = shippedRequest(forStep: state.step, of: state) else {
            status = StatusMessage("This lesson has no shipped copy to put back.", .warning)
            return []
        }
        workspace.session.requests[state.current.requestIndex] = shipped
        // Loaded without keeping the panes' edits, which the reset throws away.
        loadRequest(state.current.requestIndex, committing: false)
        workspace.captured = [:]
        lesson?.lastSend = nil
        showLessonStep(state.step)
        status = StatusMessage("Step \(state.step + 1)'s request is back as shipped.", .success)
        scheduleLessonRebuild(upTo: state.step)
        return [.clearStores] + continueLessonRebuild()
    }

    /// alt+E: the lesson afresh: every step's request as shipped, the stores and captures
    /// emptied, no step passed (and the progress file says so).
    mutating func resetLesson() -> [Effect] {
        guard var state = lesson else { return noLesson() }
        guard exchange?.phase != .sending else {
            status = StatusMessage("A request is being sent; ctrl+g cancels it, then reset.", .warning)
            return []
        }
        for index in state.lesson.steps.indices {
            if let shipped = shippedRequest(forStep: index, of: state) { workspace.session.requests[state.lesson.steps[index].requestIndex] = shipped }
        }
        loadRequest(state.lesson.steps[0].requestIndex, committing: false)
        workspace.captured = [:]
        state.passed = []
        state.lastSend = nil
        state.rebuild = nil
        lesson = state
        showLessonStep(0)
        status = StatusMessage("The lesson starts afresh: every request as shipped, no cookies, cache or captures, no step passed.", .success)
        var effects: [Effect] = [.clearStores]
        if let path = state.context.progressPath, state.context.progressProblem == nil {
            effects.append(.saveLessonProgress(state.progressEntry, key: state.context.key, path: path))
        }
        return effects
    }

    /// Step `index`'s request as shipped, named as the step names it.
    private func shippedRequest(forStep index: Int, of state: LessonState) -> SavedRequest? {
        guard let shipped = state.context.shipped, let steps = shipped.lesson?.steps, steps.indices.contains(index),
              shipped.requests.indices.contains(steps[index].requestIndex) else { return nil }
        var request = shipped.requests[steps[index].requestIndex]
        // The step may have been renamed since: it keeps the name the lesson now gives it.
        request.name = workspace.session.requests[state.lesson.steps[index].requestIndex].name
        return request
    }

    private mutating func noLesson() -> [Effect] {
        status = StatusMessage("No lesson is open: tincan learn lists the lessons.", .warning)
        return []
    }

    /// "step 1" or "steps 1–3", the steps before `target`.
    private static func stepRange(_ target: Int) -> String {
        target == 1 ? "step 1" : "steps 1–\(target)"
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
