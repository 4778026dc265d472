/// Writing `lesson:` back, so a lesson file saved from the TUI keeps its steps.
extension Lesson {
    func yamlPairs() -> [(String, YAMLValue)] {
        var pairs = KeyedPairs<SessionKey.Lesson>()
        pairs.append((.title, .string(title)))
        if let summary { pairs.append((.summary, .string(summary))) }
        pairs.append((.steps, .sequence(steps.map { .mapping($0.yamlPairs()) })))
        return pairs.pairs
    }
}

extension LessonStep {
    func yamlPairs() -> [(String, YAMLValue)] {
        var pairs = KeyedPairs<SessionKey.LessonStep>()
        pairs.append((.title, .string(title)))
        if !text.isEmpty { pairs.append((.text, .string(text))) }
        if let requestName { pairs.append((.request, .string(requestName))) }
        pairs.append((.goals, .sequence(goals.map { goal in
            var goalPairs = KeyedPairs<SessionKey.LessonGoal>()
            if let says = goal.says { goalPairs.append((.says, .string(says))) }
            return .mapping(goalPairs.pairs + Assertion.yamlPairs(goal.assertions))
        })))
        if !hints.isEmpty { pairs.append((.hints, .sequence(hints.map(YAMLValue.string)))) }
        return pairs.pairs
    }
}
