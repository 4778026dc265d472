import TincanCore

/// A lesson: the `lesson:` block of a session file (issue 20). It walks a learner through the
/// request pipeline in steps; each step starts from one of the session's requests and says what
/// the learner should make of it, as goals checked on the request as built and on the response.
///
/// A lesson is a session file like any other: `tincan replay` runs its requests, and the TUI
/// opened with `tincan learn FILE` shows the steps beside them.
public struct Lesson: Sendable, Equatable {
    /// The most steps a lesson may have: each is a request sent when it is checked.
    public static let maximumSteps = 200

    /// The lesson's title, shown by `tincan learn` and at the top of the Notes pane.
    public var title: String
    /// One line on what it teaches, for the list of lessons.
    public var summary: String?
    /// The steps, in order: each unlocks when every goal of the one before passes.
    public var steps: [LessonStep]

    /// Creates a lesson.
    public init(title: String, summary: String? = nil, steps: [LessonStep]) {
        self.title = title
        self.summary = summary
        self.steps = steps
    }
}

/// One step of a lesson.
public struct LessonStep: Sendable, Equatable {
    /// The step's title.
    public var title: String
    /// What the step teaches: a short Markdown subset (paragraphs, `-` lists, `code`, **bold**),
    /// drawn by ``LessonText``.
    public var text: String
    /// The request the step starts from, by name as written (`request:`), or nil for the
    /// request at the step's own position.
    public var requestName: String?
    /// The index of that request in the session's `requests:`.
    public var requestIndex: Int
    /// What the learner must achieve.
    public var goals: [LessonGoal]
    /// Hints, shown one at a time on demand.
    public var hints: [String]
    /// Where the step starts in its file (1-based), for errors and reports; 0 when not from a file.
    public var line = 0

    /// Creates a step.
    public init(title: String, text: String = "", requestName: String? = nil, requestIndex: Int = 0, goals: [LessonGoal] = [], hints: [String] = []) {
        self.title = title
        self.text = text
        self.requestName = requestName
        self.requestIndex = requestIndex
        self.goals = goals
        self.hints = hints
    }

    public static func == (lhs: LessonStep, rhs: LessonStep) -> Bool {
        lhs.title == rhs.title && lhs.text == rhs.text && lhs.requestName == rhs.requestName && lhs.requestIndex == rhs.requestIndex
            && lhs.goals == rhs.goals && lhs.hints == rhs.hints
    }
}

/// One goal of a step: checks written as `assert:` writes them (on the request as built with
/// `request:`, on the response otherwise), all of which must pass, and what they mean in words.
public struct LessonGoal: Sendable, Equatable {
    /// What the goal asks for, in words (`says:`); nil to show the checks' own names.
    public var says: String?
    /// The checks, in the file's order.
    public var assertions: [Assertion]
    /// Where the goal starts in its file (1-based); 0 when not from a file.
    public var line = 0

    /// Creates a goal.
    public init(says: String? = nil, assertions: [Assertion]) {
        self.says = says
        self.assertions = assertions
    }

    /// Whether every check is on the request as built, so the goal can be judged before sending.
    public var isOnRequest: Bool { assertions.allSatisfy(\.isRequestCheck) }

    public static func == (lhs: LessonGoal, rhs: LessonGoal) -> Bool {
        lhs.says == rhs.says && lhs.assertions == rhs.assertions
    }
}
