import TerminalUI
import TincanSessions

/// The Notes view in the preview box, while a lesson is open: the step's title and text, its
/// goals ticked as they stand, the hints asked for, and the keys that move on.
enum NotesPane {
    /// Draws the notes in a column of their own (a wide screen).
    static func draw(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: LessonState, theme: Theme) {
        let inside = Renderer.box(&buffer, rect, titles: ["Notes"], active: 0, focused: false, theme: theme)
        guard !inside.isEmpty else { return }
        let lines = lines(state, width: columnWidth(rect))
        var scroll = state.notesScroll
        Renderer.drawLines(&buffer, lines, in: inside, scroll: &scroll, theme: theme)
        if lines.count > inside.height {
            let goalsBelow = goalsLine(in: lines).map { $0 >= scroll.offset + inside.height } ?? false
            let position = "\(scroll.offset + 1)-\(min(lines.count, scroll.offset + inside.height))/\(lines.count) " + (goalsBelow ? "goals below: alt+l" : "alt+l more")
            buffer.write(" \(position) ", x: rect.maxX - TextWidth.of(position) - 4, y: rect.maxY - 1, style: theme.style(.border))
        }
    }

    /// The width the notes are wrapped to in a column of `rect`.
    static func columnWidth(_ rect: Rect) -> Int { max(10, rect.width - 3) }

    /// The notes' lines: the step, what passing it means (kept until the learner moves on), its
    /// instructions, then its goals as they stand, the hints asked for and the keys.
    static func lines(_ state: LessonState, width: Int) -> [TokenLine] {
        let step = state.current
        let total = state.lesson.steps.count
        var lines = ExplainPane.wrap([Token(.label, "Step \(state.step + 1) of \(total)\(state.passed.contains(state.step) ? " ✓" : "") · \(state.lesson.title)")], width: width, indent: 2)
        lines += ExplainPane.wrap([Token(.title, step.title)], width: width, indent: 2)
        if let passed = passedBanner(state) { lines += ExplainPane.wrap([Token(.success, passed)], width: width, indent: 2) }
        lines.append([])
        // The instructions first, as the learner reads them; the goals follow, and the border
        // says when they are below the fold.
        lines += text(step.text, width: width)
        lines.append([])
        lines.append([Token(.title, "\(goalsHeading) (\(state.goals.count(where: \.passed)) of \(state.goals.count) reached)")])
        for goal in state.goals {
            let (mark, element): (String, ThemeElement) = goal.passed ? ("✓ ", .success) : goal.isPending ? ("· ", .muted) : ("✗ ", .error)
            lines += ExplainPane.wrap([Token(element, mark)] + inline(goal.title, .base), width: width, indent: 2)
            if !goal.passed, !goal.isPending {
                for failure in goal.failures.prefix(3) { lines += ExplainPane.wrap([Token(.muted, "  " + failure)], width: width, indent: 4) }
            } else if goal.isPending {
                lines += ExplainPane.wrap([Token(.muted, "  judged when the request is sent (ctrl+r)")], width: width, indent: 4)
            }
        }
        if state.hintsShown > 0 {
            lines.append([])
            for (index, hint) in step.hints.prefix(state.hintsShown).enumerated() {
                lines += ExplainPane.wrap([Token(.warning, "Hint \(index + 1): ")] + inline(hint, .base), width: width, indent: 2)
            }
        }
        lines.append([])
        var keys = [String]()
        if state.hintsShown < step.hints.count { keys.append("alt+t a hint (\(step.hints.count - state.hintsShown) left)") }
        if state.step + 1 < total {
            keys.append(state.step + 1 <= state.lastUnlocked ? "alt+n next step" : "alt+n next step, once every goal passes")
        } else if state.isComplete {
            keys.append("the lesson is done")
        }
        if state.step > 0 { keys.append("alt+g back") }
        keys.append("F9 explain")
        lines += ExplainPane.wrap([Token(.muted, keys.joined(separator: " · "))], width: width, indent: 0)
        return lines
    }

    /// The heading of the goals, which the scroll cue names.
    static let goalsHeading = "Goals"

    /// Where the goals start in ``lines(_:width:)``, for the cue that says they are below.
    static func goalsLine(in lines: [TokenLine]) -> Int? {
        lines.firstIndex { $0.first?.text.hasPrefix(goalsHeading + " (") == true }
    }

    /// What passing the shown step means, kept in the notes until the learner moves on: the step
    /// to go to, or, with the lesson done, the lesson to take next.
    static func passedBanner(_ state: LessonState) -> String? {
        guard state.passed.contains(state.step) else { return nil }
        if state.isComplete {
            return "✓ Lesson done: every step passes." + (state.context.nextLesson.map { " Next: \($0)." } ?? " It was the last lesson.")
        }
        if state.step + 1 < state.lesson.steps.count { return "✓ Step passed: alt+n goes to step \(state.step + 2)." }
        return "✓ Step passed; step \(state.lastUnlocked + 1) is still open (alt+g goes back)."
    }

    /// The step's text, a short Markdown subset: paragraphs (lines joined until an empty line),
    /// `-` or `*` list items, `code` and **bold**.
    static func text(_ markdown: String, width: Int) -> [TokenLine] {
        var lines: [TokenLine] = []
        // The paragraph or list item being gathered: lines join until an empty line, and an
        // indented line after an item continues it.
        var pending: (text: [String], isItem: Bool) = ([], false)
        func flush() {
            guard !pending.text.isEmpty else { return }
            let joined = inline(pending.text.joined(separator: " "), .base)
            lines += ExplainPane.wrap(pending.isItem ? [Token(.base, "• ")] + joined : joined, width: width, indent: pending.isItem ? 2 : 0)
            pending = ([], false)
        }
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingWhitespace()
            if line.isEmpty {
                flush()
                if lines.last?.isEmpty == false { lines.append([]) }
            } else if line.hasPrefix("- ") || line.hasPrefix("* ") {
                flush()
                pending = ([String(line.dropFirst(2))], true)
            } else if pending.isItem, raw.first == " " || raw.first == "\t" {
                pending.text.append(line)
            } else {
                if pending.isItem { flush() }
                pending.text.append(line)
            }
        }
        flush()
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Inline spans: `code` as a literal, **bold** as a title, the rest as `element`.
    static func inline(_ text: String, _ element: ThemeElement) -> TokenLine {
        var tokens: TokenLine = []
        for (codeIndex, piece) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() where !piece.isEmpty {
            if codeIndex % 2 == 1 {
                tokens.append(Token(.headerValue, String(piece)))
                continue
            }
            for (boldIndex, part) in piece.components(separatedBy: "**").enumerated() where !part.isEmpty {
                tokens.append(Token(boldIndex % 2 == 1 ? .title : element, part))
            }
        }
        return tokens
    }
}
