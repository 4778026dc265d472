import TerminalUI
import TincanCore

/// The request preview: the exact request line, headers and body that will be sent.
enum PreviewPane {
    static func draw(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ scroll: inout ScrollState) {
        let theme = state.theme
        let inside = Renderer.box(&buffer, rect, titles: state.previewViews.map(\.rawValue), active: state.previewViews.firstIndex(of: state.shownPreviewView), focused: state.focus == .preview, theme: theme)
        guard !inside.isEmpty else { return }
        let lines = state.previewBoxRows(width: rect.width)
        Renderer.drawLines(&buffer, lines, in: inside, scroll: &scroll, theme: theme)
        if lines.count > inside.height, inside.height > 0 {
            var position = "\(scroll.offset + 1)-\(min(lines.count, scroll.offset + inside.height))/\(lines.count)"
            // A lesson's goals follow its instructions: say so while they are out of sight.
            // The way to them is named from the key table: jump to the notes, then scroll.
            if state.shownPreviewView == .notes, let goals = NotesPane.goalsLine(in: lines), goals >= scroll.offset + inside.height {
                let jump = state.keymap.binding(for: .jump)?.keys.first.map { "\($0.description) \(JumpTarget.previewView(.notes).key), pgdn" }
                position += jump.map { " goals below: " + $0 } ?? " goals below ↓"
            }
            buffer.write(" \(position) ", x: rect.maxX - TextWidth.of(position) - 4, y: rect.maxY - 1, style: theme.style(.border))
        }
        Renderer.drawColumnMark(&buffer, rect, column: state.lineView.previewColumn, theme: theme)
    }
}

extension PreviewPane {
    /// The preview as highlighted lines: the request line, each header, then the body.
    static func lines(_ preview: PreviewState) -> [TokenLine] {
        switch preview {
        case let .error(reason):
            return [[Token(.error, "✗ The request cannot be built:")], [Token(.error, "  " + reason)]]
        case let .reading(paths, _):
            // The runner reads them off the UI thread; the preview is built again with its answer.
            return [[Token(.muted, "… Reading the \(paths.count == 1 ? "file" : "files") the request names:")]] + paths.map { [Token(.base, "  \($0)  reading…")] }
        case let .request(_, text):
            var lines: [TokenLine] = []
            var inBody = false
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                if index == 0 {
                    let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                    lines.append([Token(.method, parts[0]), Token(.base, parts.count > 1 ? " " + parts[1] : "")])
                } else if !inBody, line.isEmpty {
                    inBody = true
                    lines.append([])
                } else if !inBody, let colon = line.firstIndex(of: ":") {
                    lines.append([Token(.headerName, String(line[..<colon])), Token(.headerValue, String(line[colon...]))])
                } else {
                    lines.append([Token(.base, line)])
                }
            }
            while lines.last?.isEmpty == true { lines.removeLast() }
            return lines
        }
    }
}
