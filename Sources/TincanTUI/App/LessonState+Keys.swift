import TerminalUI
import TincanSessions

/// What a lesson key asks of the app around the lesson, once the lesson has decided.
enum LessonRequest: Sendable, Equatable {
    /// Nothing more than the status line.
    case none
    /// Show this step (its request in the panes, its goals judged afresh).
    case showStep(Int)
    /// Show or hide the notes (alt+l).
    case toggleNotes
    /// Show the hint just revealed, the line of the notes that starts so in sight.
    case showHint(linePrefix: String)
}

/// The lesson as a component (issue 35 §1): its keys and the passing of a step change only the
/// lesson, and say in a ``LessonRequest`` what the panes, the preview and the focus should do.
extension LessonState {
    /// Decides a lesson key: the step to go to, a hint to reveal, or why not.
    ///
    /// - Returns: What the app does next, and the status line to show (nil: the app's own).
    mutating func handle(_ action: Action) -> (LessonRequest, StatusMessage?) {
        switch action {
        case .lessonNotes:
            return (.toggleNotes, nil)
        case .nextStep:
            let next = step + 1
            guard next < lesson.steps.count else {
                return (.none, StatusMessage(isComplete ? "That was the last step: the lesson is done." : "This is the last step.", .info))
            }
            guard next <= lastUnlocked else {
                return (.none, StatusMessage("Step \(next + 1) unlocks when every goal of step \(step + 1) passes (\(goalCount) so far).", .warning))
            }
            return (.showStep(next), nil)
        case .previousStep:
            guard step > 0 else { return (.none, StatusMessage("This is the first step.", .info)) }
            return (.showStep(step - 1), nil)
        case .lessonHint:
            let hints = current.hints
            guard !hints.isEmpty else {
                return (.none, StatusMessage("This step has no hints: read the goals, and the Explain view (F9).", .info))
            }
            guard hintsShown < hints.count else { return (.none, StatusMessage("Every hint of this step is shown.", .info)) }
            hintsShown += 1
            return (.showHint(linePrefix: "Hint \(hintsShown): "), StatusMessage("Hint \(hintsShown) of \(hints.count) is in the Notes."))
        default:
            return (.none, nil)
        }
    }

    /// Goes to step `index` (which exists): its hints hidden, no send judged yet, its notes at the top.
    mutating func enter(step index: Int) {
        step = index
        hintsShown = 0
        lastSend = nil
        notesScroll = ScrollState()
    }

    /// What the status line says as step `step` opens.
    var stepNews: StatusMessage {
        StatusMessage("Step \(step + 1) of \(lesson.steps.count): “\(current.title)” · \(Self.keysHint)")
    }

    /// Marks the shown step passed, unlocking the next.
    ///
    /// - Returns: The news for the status line, or nil when the step had passed already.
    mutating func passStep() -> StatusMessage? {
        guard !passed.contains(step) else { return nil }
        passed.insert(step)
        if isComplete {
            return StatusMessage("✓ Step \(step + 1) done, and with it the lesson: every step of “\(lesson.title)” passes." + (context.nextLesson.map { " Next: \($0)." } ?? ""), .success)
        } else if step + 1 < lesson.steps.count {
            return StatusMessage("✓ Step \(step + 1) done: step \(step + 2) is unlocked (alt+n).", .success)
        }
        return StatusMessage("✓ Step \(step + 1) done; step \(lastUnlocked + 1) is still open.", .success)
    }

    /// The effect that keeps the learner's progress, when it has a file that read.
    var progressEffect: Effect? {
        guard let path = context.progressPath, context.progressProblem == nil else { return nil }
        return .saveLessonProgress(progressEntry, key: context.key, path: path)
    }

    /// The lesson keys, for the status line.
    static let keysHint = "alt+l notes · alt+t a hint · alt+n next step"

    /// How many of the step's goals pass, as the status line says it.
    var goalCount: String {
        "\(goals.count(where: \.passed)) of \(goals.count) goals"
    }
}
