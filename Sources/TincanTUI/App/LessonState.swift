import TerminalUI
import TincanSessions

/// How a lesson is opened (`tincan learn`): where progress is kept, and what is known already.
public struct LessonContext: Sendable {
    /// The lesson's key in the progress file (``LessonProgress/key(builtinName:path:)``).
    public var key: String
    /// The progress file, or nil to keep progress for this run only.
    public var progressPath: String?
    /// The learner's progress as read.
    public var progress: LessonProgress
    /// Why the progress file could not be read (it is then not written either).
    public var progressProblem: String?
    /// What the learner should know as the lesson opens (a saved copy whose goals were edited is
    /// judged by the lesson's own), shown in the status line.
    public var notice: String?
    /// The lesson as shipped (the built-in lesson, or the file as opened): what a reset puts
    /// back; nil when there is nothing to put back.
    public var shipped: Session?
    /// The lesson to take after this one, as the learner opens it (`tincan learn 7 (Cookies on and
    /// off)`); nil for the last one, or a lesson that is not built in.
    public var nextLesson: String?

    /// Creates a context.
    public init(key: String, progressPath: String?, progress: LessonProgress = LessonProgress(), progressProblem: String? = nil) {
        self.key = key
        self.progressPath = progressPath
        self.progress = progress
        self.progressProblem = progressProblem
    }
}

/// A lesson open in the TUI: the step shown, its goals as judged now, the hints shown, and the
/// learner's progress.
public struct LessonState: Sendable {
    /// The lesson.
    public var lesson: Lesson
    /// The step shown, from 0.
    public var step = 0
    /// The steps passed.
    public var passed: Set<Int> = []
    /// The shown step's goals: request checks judged on the preview as it stands, response
    /// checks on the step's last send (pending until one).
    public var goals: [GoalResult] = []
    /// The results of the step's last send, one per check of its goals laid end to end
    /// (request checks judged on the request sent); nil before a send.
    var lastSend: [CheckResult?]?
    /// The send whose judgement waits for what the demo server received (a `received:` goal).
    var awaitingReceived: Int?
    /// How many of the step's hints are shown.
    public var hintsShown = 0
    /// Where the notes' column is scrolled to (a wide screen).
    public var notesScroll = ScrollState()
    /// Where progress is kept.
    public var context: LessonContext
    /// The earlier steps being sent again to rebuild what they left; nil when none are.
    public var rebuild: LessonRebuild?

    /// The shown step.
    public var current: LessonStep { lesson.steps[step] }

    /// The last step the learner may open: the first not passed (every step before it passed).
    public var lastUnlocked: Int {
        (0..<lesson.steps.count).first { !passed.contains($0) } ?? lesson.steps.count - 1
    }

    /// Whether every step is passed.
    public var isComplete: Bool { passed.count >= lesson.steps.count && (0..<lesson.steps.count).allSatisfy(passed.contains) }

    /// This lesson's progress, as the progress file records it.
    var progressEntry: LessonProgress.Entry {
        LessonProgress.Entry(passedSteps: passed, stepCount: lesson.steps.count)
    }
}

/// Earlier steps sent again, in order, so that what they leave (captures, cookies, cached
/// responses) is there when the learner takes up a later step (issue 37 §2).
public struct LessonRebuild: Sendable, Equatable {
    /// The steps still to send, in order.
    public var pending: [Int]
    /// The step shown once they are sent.
    public var target: Int
    /// Why the rebuild stopped short, when it did.
    public var failure: String?
    /// Whether its first step was sent: the runner's first tick starts it, before any key.
    public var started = false
}
