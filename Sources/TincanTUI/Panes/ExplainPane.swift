import Foundation
import TerminalUI
import TincanCore
import TincanSessions

/// The Explain view in the preview box: the request's explanation, then the response's.
enum ExplainPane {
    /// An explanation as highlighted lines, wrapped to `width` columns.
    ///
    /// Each step has a title; literals (between backticks) are highlighted; verdicts carry ✓ or ✗.
    /// The steps about `highlighted` topics (a slow-motion send's current stage) are marked ▶.
    static func lines(_ explanation: Explanation, width: Int, highlighted: [Explanation.Topic] = []) -> [TokenLine] {
        var lines: [TokenLine] = []
        for step in explanation.steps {
            if !lines.isEmpty { lines.append([]) }
            lines.append(highlighted.contains(step.topic) ? [Token(.warning, "▶ "), Token(.title, step.title), Token(.warning, "  ◀ now")] : [Token(.title, step.title)])
            for line in step.lines {
                let element: ThemeElement = switch line.tone {
                case .statement: .base
                case .detail: .muted
                case .passed: .success
                case .failed: .error
                }
                var tokens = [Token(element, line.tone.lead)]
                for (index, piece) in line.text.split(separator: "`", omittingEmptySubsequences: false).enumerated() where !piece.isEmpty {
                    tokens.append(Token(index % 2 == 1 ? .headerValue : element, String(piece)))
                }
                lines += wrap(tokens, width: width, indent: 2)
            }
        }
        return lines
    }

    /// Breaks a line into rows of at most `width` columns, at spaces where it can; rows after the
    /// first are indented by `indent`. A break comes only at a space, never where one token meets
    /// the next, so the full stop after a `code` span stays on its row.
    static func wrap(_ line: TokenLine, width: Int, indent: Int) -> [TokenLine] {
        guard width > indent + 4 else { return [line] }
        var rows: [TokenLine] = []
        var row: TokenLine = []
        var used = 0
        func finish() {
            rows.append(row)
            row = [Token(.base, String(repeating: " ", count: indent))]
            used = indent
        }
        func append(_ text: Substring, _ element: ThemeElement) {
            guard !text.isEmpty else { return }
            if let last = row.last, last.element == element {
                row[row.count - 1].text += text
            } else {
                row.append(Token(element, String(text)))
            }
            used += TextWidth.of(String(text))
        }
        for word in words(of: line) {
            let columns = word.reduce(0) { $0 + TextWidth.of(String($1.text)) }
            if columns > width - used, used > indent { finish() }
            if columns <= width - used {
                for piece in word { append(piece.text, piece.element) }
                continue
            }
            // A word longer than a row is cut.
            for piece in word {
                var text = piece.text
                while TextWidth.of(String(text)) > width - used {
                    if used > indent {
                        finish()
                        continue
                    }
                    let cut = prefix(of: text, columns: width - used)
                    append(cut, piece.element)
                    text = text[cut.endIndex...]
                    finish()
                }
                append(text, piece.element)
            }
        }
        if row.contains(where: { !$0.text.trimmingWhitespace().isEmpty }) { rows.append(row) }
        return rows
    }

    /// The line's words, each with its trailing space (so joining them gives the text back), and
    /// each made of the pieces of the tokens it spans.
    private static func words(of line: TokenLine) -> [[(element: ThemeElement, text: Substring)]] {
        var words: [[(element: ThemeElement, text: Substring)]] = [[]]
        for token in line {
            var start = token.text.startIndex
            for index in token.text.indices where token.text[index] == " " {
                words[words.count - 1].append((token.element, token.text[start...index]))
                words.append([])
                start = token.text.index(after: index)
            }
            if start < token.text.endIndex { words[words.count - 1].append((token.element, token.text[start...])) }
        }
        return words.filter { !$0.isEmpty }
    }

    private static func prefix(of text: Substring, columns: Int) -> Substring {
        var end = text.startIndex
        var used = 0
        while end < text.endIndex {
            let next = TextWidth.of(String(text[end]))
            if used + next > columns { break }
            used += next
            end = text.index(after: end)
        }
        return text[..<max(end, text.index(after: text.startIndex))]
    }
}

extension AppState {
    /// What the preview box shows at `width` columns (its border included): the wire preview, or
    /// the explanation of the request and of the last response.
    func previewBoxLines(width: Int) -> [TokenLine] {
        if shownPreviewView == .notes, let lesson { return NotesPane.lines(lesson, width: max(10, width - 3)) }
        if shownPreviewView == .received { return hidingSecrets(in: receivedLines()) }
        guard previewView == .explain else { return previewLines }
        return hidingSecrets(in: explainLines(width: width))
    }

    /// The Explain view's lines, secrets as they are.
    private func explainLines(width: Int) -> [TokenLine] {
        let inner = max(10, width - 3)
        guard let explanation else {
            return PreviewPane.lines(preview)
        }
        let stage = slowMotion?.waiting?.topics ?? []
        let request = ExplainPane.lines(explanation, width: inner, highlighted: stage)
        // After a send, the response's validation comes first: it is what one asks about then.
        guard let validation = exchange?.validation else {
            return request + [[], [Token(.muted, "Send the request (ctrl+r) to see how the response is validated.")]]
        }
        return [[Token(.label, "── Response ──")]] + ExplainPane.lines(validation, width: inner, highlighted: stage)
            + [[], [Token(.label, "── Request ──")]] + request
    }

    /// The preview box's lines and the rows that show them, as the screen lays the box out now:
    /// what its scroll position is kept within, for the wire preview and the Explain view alike.
    func previewScrollBounds() -> (contentHeight: Int, viewport: Int) {
        let box = ScreenLayout(self).previewBox
        // The box's border takes a row above and below.
        return (previewBoxRows(width: box?.width ?? width).count, max(1, (box?.height ?? height / 3 + 2) - 2))
    }

    /// Names (lower case) of the headers the selected request takes from the session's defaults.
    func sessionHeaderNames(in session: Session) -> Set<String> {
        let own = Set(session.requests[workspace.selected].headers.filter(\.isEnabled).map { $0.name.lowercased() })
        return Set(session.defaults.headers.filter(\.isEnabled).map { $0.name.lowercased() }).subtracting(own)
    }
}
