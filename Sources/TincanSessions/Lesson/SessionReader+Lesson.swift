import TincanCore
import Yams

/// Reading `lesson:` (docs/session-format.md, "Lessons").
extension SessionReader {
    func lesson(_ node: Node, requests: [SavedRequest]) throws -> Lesson {
        var title: String?
        var summary: String?
        var steps: [LessonStep]?
        for (key, _, value) in try entries(node, SessionKey.Lesson.self, in: "lesson") {
            switch key {
            case .title: title = try file.string(value, expected: "the lesson's title")
            case .summary: summary = try file.string(value, expected: "one line on what the lesson teaches")
            case .steps:
                guard let sequence = value.sequence, !sequence.isEmpty else {
                    throw file.error(at: value, "expected a list of steps, each starting with '- title:'")
                }
                guard sequence.count <= Lesson.maximumSteps else {
                    throw file.error(at: value, "a lesson has at most \(Lesson.maximumSteps) steps, and this one has \(sequence.count); split it into lessons")
                }
                guard !requests.isEmpty else {
                    throw file.error(at: value, "a lesson's steps start from requests, and requests: is empty; add the request the first step starts from")
                }
                steps = try sequence.enumerated().map { try step($1, position: $0, requests: requests) }
            }
        }
        guard let title else { throw file.error(at: node, "a lesson needs title:") }
        guard let steps else { throw file.error(at: node, "a lesson needs steps: (a list of steps, each with title:, text:, goals:)") }
        return Lesson(title: title, summary: summary, steps: steps)
    }

    private func step(_ node: Node, position: Int, requests: [SavedRequest]) throws -> LessonStep {
        var step = LessonStep(title: "", requestIndex: min(position, requests.count - 1))
        step.line = node.mark?.line ?? 0
        var sawTitle = false
        var sawGoals = false
        for (key, _, value) in try entries(node, SessionKey.LessonStep.self, in: "a lesson step") {
            switch key {
            case .title:
                step.title = try file.string(value, expected: "the step's title")
                sawTitle = true
            case .text: step.text = try file.string(value, expected: "the step's text (Markdown: paragraphs, - lists, `code`, **bold**)")
            case .request:
                let name = try file.string(value, expected: "the name of the request the step starts from")
                guard let index = requests.firstIndex(where: { $0.name == name }) else {
                    let names = requests.compactMap(\.name)
                    throw file.error(at: value, "no request is named '\(name)'; expected \(names.isEmpty ? "a request with name: '\(name)' in requests:" : "one of: \(names.joined(separator: ", "))")")
                }
                step.requestName = name
                step.requestIndex = index
            case .goals:
                guard let sequence = value.sequence, !sequence.isEmpty else {
                    throw file.error(at: value, "expected a list of goals, each a mapping of checks as assert: writes them (and says: in words)")
                }
                step.goals = try sequence.map(goal)
                sawGoals = true
            case .hints:
                step.hints = try textList(value, "a hint, or a list of hints")
            }
        }
        guard sawTitle else { throw file.error(at: node, "a lesson step needs title:") }
        guard sawGoals else { throw file.error(at: node, "step '\(step.title)' needs goals: (what the learner must achieve, as checks)") }
        return step
    }

    /// A goal: `says:` and checks under `assert:`'s keys, in one mapping.
    private func goal(_ node: Node) throws -> LessonGoal {
        guard let mapping = node.mapping else {
            throw file.error(at: node, "expected a goal: a mapping of checks as assert: writes them, such as {status: 200}, and says: in words")
        }
        let goalKeys = SessionKey.LessonGoal.allCases.map(\.rawValue)
        let allowed = goalKeys + SessionKey.Assert.allCases.map(\.rawValue)
        var says: String?
        var checks: [(Node, Node)] = []
        for (keyNode, value) in mapping {
            guard let text = keyNode.scalar?.string else { throw file.error(at: keyNode, .keyNotText(context: "a goal")) }
            guard allowed.contains(text) else { throw file.error(at: keyNode, .unknownKey(text, context: "a goal", expected: allowed)) }
            if SessionKey.LessonGoal(rawValue: text) == .says {
                says = try file.string(value, expected: "what the goal asks for, in words")
            } else {
                checks.append((keyNode, value))
            }
        }
        guard !checks.isEmpty else {
            throw file.error(at: node, "a goal needs a check: one of \(SessionKey.Assert.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var goal = LessonGoal(says: says, assertions: try assertions(Node.mapping(Node.Mapping(checks, .implicit, .block, node.mark))))
        goal.line = node.mark?.line ?? 0
        return goal
    }
}
