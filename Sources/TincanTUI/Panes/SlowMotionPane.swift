import Foundation
import TerminalUI
import TincanCore

/// A slow-motion send in the response box: the stages as a timeline (passed ✓, the current one
/// ▶, those to come ·), what the current stop holds back, and the task delegate's callbacks as
/// they fired, the latest at the bottom.
enum SlowMotionPane {
    static func draw(_ buffer: inout ScreenBuffer, _ motion: SlowMotionState, in rect: Rect, theme: Theme) {
        guard !rect.isEmpty else { return }
        let width = rect.width - 1
        let stages = stageLines(motion, width: width)
        let stop = stopLines(motion, width: width)
        let callbacks = callbackLines(motion, width: width)
        // The stages stay; the stop's words come next, leaving two rows for the callbacks' title
        // and the latest one; the callbacks keep their latest rows in what is left.
        let stopRoom = max(0, min(stop.count, rect.height - stages.count - 2))
        let callbackRoom = max(0, rect.height - stages.count - stopRoom)
        let latest = callbackRoom > 0 ? [callbacks[0]] + callbacks.dropFirst().suffix(callbackRoom - 1) : []
        let shown = Array(stages.prefix(rect.height)) + stop.prefix(stopRoom) + latest
        for (row, line) in shown.enumerated() {
            buffer.write(Renderer.spans(line, theme), x: rect.x + 1, y: rect.y + row, limit: width)
        }
    }

    /// The stages on as few rows as fit, then the current stop's words.
    static func stageLines(_ motion: SlowMotionState, width: Int) -> [TokenLine] {
        var lines: [TokenLine] = []
        var row: TokenLine = [Token(.title, "Slow motion  ")]
        var used = TextWidth.of("Slow motion  ")
        for stage in SendStage.allCases {
            let (mark, element): (String, ThemeElement) = switch motion.mark(of: stage) {
            case .passed: ("✓ ", .success)
            case .current: ("▶ ", .warning)
            case .ahead: ("· ", .muted)
            }
            let piece = mark + stage.title + "  "
            if used + TextWidth.of(piece) > width, used > 2 {
                lines.append(row)
                row = [Token(.base, "  ")]
                used = 2
            }
            row.append(Token(element, piece))
            used += TextWidth.of(piece)
        }
        lines.append(row)
        return lines
    }

    /// What the current stop holds back, or where the send is between stops.
    static func stopLines(_ motion: SlowMotionState, width: Int) -> [TokenLine] {
        if let stage = motion.waiting {
            return ExplainPane.wrap([Token(.warning, "▶ "), Token(.base, "Stopped before \(stage.title). \(stage.action) "), Token(.muted, "alt+p goes on, ctrl+g cancels.")], width: width, indent: 2)
        }
        return [[Token(.muted, motion.phase == .finished ? "  Done. alt+p shows the response." : "  Running to the next stop…")]]
    }

    /// The callbacks under a title: time, name and what each carried, a row each (cut at the
    /// edge: the latest stay in view).
    static func callbackLines(_ motion: SlowMotionState, width: Int) -> [TokenLine] {
        var lines: [TokenLine] = [[Token(.label, "Task delegate callbacks")]]
        if motion.callbacks.isEmpty {
            lines.append([Token(.muted, "  none yet: the task has not started")])
        }
        for callback in motion.callbacks {
            var line: TokenLine = [Token(.muted, DecimalText.fixed(callback.at * 1000, decimals: 1, width: 7) + " ms  "), Token(.headerName, callback.name)]
            if !callback.detail.isEmpty { line.append(Token(.base, "  " + callback.detail)) }
            lines.append(line)
        }
        return lines
    }
}
