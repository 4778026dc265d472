import Foundation
import TincanCore

/// What became of one goal.
public struct GoalResult: Sendable, Equatable {
    /// The goal.
    public var goal: LessonGoal
    /// Each check's result, in the goal's order; nil for a check that could not be judged.
    public var checks: [CheckResult?]
    /// Why checks could not be judged (the request could not be built, nothing came back).
    public var unjudged: String?

    /// Creates a result.
    public init(goal: LessonGoal, checks: [CheckResult?], unjudged: String? = nil) {
        self.goal = goal
        self.checks = checks
        self.unjudged = unjudged
    }

    /// Whether every check was judged and passed.
    public var passed: Bool { !checks.isEmpty && checks.allSatisfy { $0?.passed == true } }

    /// Whether nothing has been judged yet (a response goal before any send).
    public var isPending: Bool { checks.allSatisfy { $0 == nil } && unjudged == nil }

    /// What the goal asks for: its `says:`, or its checks' names.
    public var title: String {
        goal.says ?? checks.enumerated().map { index, check in check?.name ?? CheckLine.text(of: goal.assertions[index]) }.joined(separator: ", ")
    }

    /// Why it fails, one line per failing check; empty when it passes.
    public var failures: [String] {
        checks.enumerated().compactMap { index, check in
            guard let check else { return "\(CheckLine.text(of: goal.assertions[index])): not judged\(unjudged.map { " (\($0))" } ?? "")" }
            return check.failure.map { "\(check.name): \($0)" }
        }
    }

    /// The results of `goals` from the results of their checks laid end to end (as
    /// ``RequestOutcome/assertionResults`` gives them for `goals.flatMap(\.assertions)`).
    public static func results(of goals: [LessonGoal], checks: [CheckResult?], unjudged: String?) -> [GoalResult] {
        var offset = 0
        return goals.map { goal in
            let count = goal.assertions.count
            let slice = offset < checks.count ? Array(checks[offset..<min(offset + count, checks.count)]) : []
            offset += count
            let padded = slice + Array(repeating: nil, count: count - slice.count)
            return GoalResult(goal: goal, checks: padded, unjudged: padded.contains { $0 == nil } ? unjudged : nil)
        }
    }
}

/// What became of one step.
public struct StepResult: Sendable {
    /// The step's position, from 0.
    public var index: Int
    public var step: LessonStep
    public var goals: [GoalResult]
    /// The step's send: the request as sent and the response (its body kept when the check was
    /// asked to keep it); nil when nothing was sent.
    public var result: TaskResult?

    /// Whether every goal passed.
    public var passed: Bool { goals.allSatisfy(\.passed) }
}

/// A lesson checked headless (`tincan learn --check`).
public struct LessonReport: Sendable {
    /// The lesson's title.
    public var title: String
    /// The lesson file.
    public var file: String
    public var steps: [StepResult]

    /// Whether every goal of every step passed.
    public var passed: Bool { steps.allSatisfy(\.passed) }

    /// How many goals there are, and how many passed.
    public var goalCounts: (passed: Int, total: Int) {
        let goals = steps.flatMap(\.goals)
        return (goals.count(where: \.passed), goals.count)
    }

    /// The report as text: each step, each goal ticked or crossed, and why a goal fails.
    public func text() -> String {
        var lines = ["\(title) (\(file))"]
        for result in steps {
            lines.append("  step \(result.index + 1): \(result.step.title)")
            for goal in result.goals {
                lines.append("    \(goal.passed ? "✓" : "✗") \(goal.title)")
                if !goal.passed { lines += goal.failures.map { "        \($0)" } }
            }
        }
        let counts = goalCounts
        lines.append(passed ? "passed: all \(counts.total) goals" : "failed: \(counts.total - counts.passed) of \(counts.total) goals not reached")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Checks every goal of every step of a lesson: the steps' requests are built, checked and sent
/// in order as a replay sends them (variables, captures and cookies carry from step to step),
/// and each goal is judged on its own.
public enum LessonCheck {
    /// Checks the lesson of `session`.
    ///
    /// - Parameters:
    ///   - path: The lesson file, for relative paths and reports.
    ///   - variables: Values that replace the session's (the demo servers' URLs).
    ///   - demo: Where the demo servers listen, for `{{$demo}}` and its kin.
    ///   - keepsResponses: Whether each step's response body is kept in ``StepResult/result`` (a handout shows it).
    /// - Throws: ``SessionError`` when the session has no lesson or cannot start.
    public static func run(_ session: Session, path: String, variables: [String: String], demo: DemoAddresses? = nil, keepsResponses: Bool = false) async throws -> LessonReport {
        guard let lesson = session.lesson else {
            throw SessionError("\(path): not a lesson: a lesson file has a lesson: block with steps")
        }
        var options = ReplayOptions()
        options.variables = variables
        options.demo = demo
        options.keepsResponseBodies = keepsResponses
        let replay = Replayer(session: session.stepsAsRequests(of: lesson), path: path, options: options)
        let outcomes = try await replay.run().report.outcomes
        let steps = lesson.steps.enumerated().map { index, step in
            // A repeated request reports each run; its last run is what the step made.
            let outcome = outcomes.last { $0.index == index }
            let unjudged = outcome?.error ?? "the step's request was not sent"
            return StepResult(index: index, step: step, goals: GoalResult.results(of: step.goals, checks: outcome?.assertionResults ?? [], unjudged: unjudged),
                              result: outcome?.result)
        }
        return LessonReport(title: lesson.title, file: path, steps: steps)
    }
}

extension Session {
    /// The session with one request per step of `lesson`: the request the step starts from, with
    /// the step's goals as its only assertions.
    func stepsAsRequests(of lesson: Lesson) -> Session {
        var session = self
        session.requests = lesson.steps.map { step in
            var request = requests[step.requestIndex]
            request.assertions = step.goals.flatMap(\.assertions)
            request.recorded = nil
            return request
        }
        return session
    }
}
