import Foundation
import TerminalUI
import TincanCore

/// Draws the whole screen from the state. It changes nothing in the state but where its
/// scrolling views start (``StatefulWidgets``), written back in ``render(_:)`` alone.
public enum Renderer {
    /// Renders a frame, and keeps the scroll positions it settled on in the state, so a list
    /// scrolls only when its selection leaves the view: the one write-back of drawing.
    public static func render(_ state: inout AppState) -> ScreenBuffer {
        var widgets = state.statefulWidgets
        let frame = draw(state, &widgets)
        state.statefulWidgets = widgets
        return frame
    }

    /// Draws a frame from a state it cannot change, settling the scroll positions of `widgets`.
    private static func draw(_ state: AppState, _ widgets: inout StatefulWidgets) -> ScreenBuffer {
        let theme = state.theme
        var buffer = ScreenBuffer(width: state.width, height: state.height, style: theme.style(.base))
        guard state.width >= 40, state.height >= 12 else {
            for (row, line) in tooSmall(width: state.width, height: state.height).enumerated() {
                buffer.write(line, x: 0, y: row, style: theme.style(.warning), limit: state.width)
            }
            return buffer
        }
        let layout = ScreenLayout(state)
        drawTitle(&buffer, layout.title, state)
        drawFields(&buffer, layout, state, &widgets)
        if let box = layout.collectionBox { CollectionPane.draw(&buffer, box, state, &widgets.collection) }
        if let box = layout.notesBox, let lesson = state.lesson { NotesPane.draw(&buffer, box, lesson, theme: theme) }
        if let box = layout.requestBox { RequestPanes.draw(&buffer, box, state, &widgets) }
        if let box = layout.previewBox { PreviewPane.draw(&buffer, box, state, &widgets.preview) }
        if let box = layout.responseBox { ResponsePane.draw(&buffer, box, state, &widgets) }
        ProgressPane.draw(&buffer, layout.progressRows, state)
        drawStatus(&buffer, layout.status, state, &widgets.mode)
        if state.searchField != nil {
            buffer.fill(layout.footer, style: theme.style(.base))
            Footer.render([("enter", "find"), ("esc", "close"), ("n/N", "next/previous after")], into: &buffer, at: layout.footer, keyStyle: theme.style(.footerKey), labelStyle: theme.style(.footerLabel))
        } else if let line = state.commandLine {
            // Under the command line: why the last line failed, Tab's candidates, or the keys.
            buffer.fill(layout.footer, style: theme.style(.base))
            if let error = line.error {
                buffer.write(" ✗ " + error, x: layout.footer.x, y: layout.footer.y, style: theme.style(.error), limit: layout.footer.width)
            } else if !line.completions.isEmpty {
                buffer.write(" " + line.completions.joined(separator: "  "), x: layout.footer.x, y: layout.footer.y, style: theme.style(.muted), limit: layout.footer.width)
            } else {
                Footer.render([("enter", "run"), ("tab", "complete"), ("↑↓", "history"), ("esc", "close")], into: &buffer, at: layout.footer, keyStyle: theme.style(.footerKey), labelStyle: theme.style(.footerLabel))
            }
        } else if state.mode == .jump {
            buffer.fill(layout.footer, style: theme.style(.base))
            Footer.render([("key", "go there"), ("esc", "stay")], into: &buffer, at: layout.footer, keyStyle: theme.style(.footerKey), labelStyle: theme.style(.footerLabel))
        } else {
            let hints = state.keymap.footer(in: state.activeScopes).map { (key: $0.keys[0].description, label: $0.label) }
            Footer.render(hints, into: &buffer, at: layout.footer, keyStyle: theme.style(.footerKey), labelStyle: theme.style(.footerLabel))
        }
        if state.mode == .jump {
            // Each target's key, highlighted in its name or just before it, as Posting's jump mode labels them.
            for label in JumpTarget.labels(layout, state) {
                buffer.write(String(label.shown), x: label.x, y: label.y, style: theme.style(.footerKey).adding(.bold), limit: 1)
            }
        }
        ModalPane.draw(&buffer, theme, &widgets.mode)
        return buffer
    }

    /// What a screen below the minimum says, in words that fit it (issue 34 §9): the whole
    /// sentence wrapped, else a shorter one, else the size alone.
    static func tooSmall(width: Int, height: Int) -> [String] {
        let candidates = [
            "Tincan needs at least 40×12 cells (now \(width)×\(height)).",
            "Needs 40×12 (now \(width)×\(height)).",
            "40×12 needed",
            "40×12",
        ]
        for text in candidates {
            let lines = wrapWords(text, width: max(1, width))
            if lines.count <= max(1, height), lines.allSatisfy({ TextWidth.of($0) <= width }) { return lines }
        }
        return [String(TextWidth.prefix("40×12", fitting: max(0, width)))]
    }

    /// Words laid out in lines of at most `width` columns (a longer word on a line of its own).
    private static func wrapWords(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if TextWidth.of(candidate) <= width || line.isEmpty {
                line = candidate
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private static func drawTitle(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState) {
        let theme = state.theme
        buffer.fill(rect, style: theme.style(.statusBar))
        var x = buffer.write(" tincan ", x: rect.x, y: rect.y, style: theme.style(.footerKey))
        // While a session's weaker TLS trust applies, the title says so before anything else.
        if state.weakensTrust {
            x += buffer.write(" ⚠ weaker TLS trust ", x: x, y: rect.y, style: theme.style(.error).adding(.bold).adding(.reverse))
        }
        x += buffer.write(" \(state.sessionName)", x: x, y: rect.y, style: theme.style(.statusBar).adding(.bold))
        var right = "theme \(state.theme.name) "
        if let exchange = state.exchange, exchange.phase == .sending {
            let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"][Int(state.now * 10) % 10]
            if let at = exchange.flow.sendsAt {
                right = "\(spinner) next send in \(DecimalText.fixed(max(0, at - state.now), decimals: 1)) s · " + right
            } else {
                right = "\(spinner) sending \(DecimalText.fixed(exchange.elapsed(now: state.now), decimals: 1)) s · " + right
            }
        }
        if state.showsZoomed { right = "zoomed · " + right }
        if let environment = state.workspace.environment { right = "env \(environment) · " + right }
        if state.showsModified { right = "● modified · " + right }
        let width = TextWidth.of(right)
        if rect.width - width > x { buffer.write(right, x: rect.maxX - width, y: rect.y, style: theme.style(.statusBar)) }
    }

    private static func drawFields(_ buffer: inout ScreenBuffer, _ layout: ScreenLayout, _ state: AppState, _ widgets: inout StatefulWidgets) {
        let theme = state.theme
        func label(_ text: String, _ rect: Rect, focused: Bool) {
            buffer.write(text, x: rect.x, y: rect.y, style: focused ? theme.style(.title) : theme.style(.label))
        }
        func picker(_ value: String, _ rect: Rect, focused: Bool, element: ThemeElement) {
            let style = focused ? theme.style(.selection) : theme.style(element)
            buffer.fill(rect, style: style)
            buffer.write(" \(value) ▾", x: rect.x, y: rect.y, style: style, limit: rect.width)
        }
        let row1 = Rect(x: 0, y: layout.methodField.y, width: state.width, height: 1)
        label(" Method", row1, focused: state.focus == .method)
        picker(state.method, layout.methodField, focused: state.focus == .method, element: .method)
        label(" Serializer", Rect(x: layout.methodField.maxX, y: row1.y, width: 12, height: 1), focused: state.focus == .serializer)
        picker(state.serializer.rawValue, layout.serializerField, focused: state.focus == .serializer, element: .field)
        let info = "  response: \(state.responseSerializer.rawValue), accepts \(state.acceptableStatusCodes)"
        buffer.write(info, x: layout.responseInfo.x, y: row1.y, style: theme.style(.muted), limit: layout.responseInfo.width)

        label(" Base", Rect(x: 0, y: layout.baseField.y, width: ScreenLayout.labelWidth, height: 1), focused: state.focus == .baseURL)
        widgets.baseField.render(into: &buffer, at: layout.baseField, style: theme.style(state.focus == .baseURL ? .fieldFocused : .field),
                               placeholder: "base URL (optional): http://127.0.0.1:8080/v1/", placeholderStyle: theme.style(.placeholder), focused: state.focus == .baseURL && state.modal == nil)
        label(" URL", Rect(x: 0, y: layout.urlField.y, width: ScreenLayout.labelWidth, height: 1), focused: state.focus == .url)
        widgets.urlField.render(into: &buffer, at: layout.urlField, style: theme.style(state.focus == .url ? .fieldFocused : .field),
                              placeholder: "path, relative to the base, or an absolute URL", placeholderStyle: theme.style(.placeholder), focused: state.focus == .url && state.modal == nil)
    }

    private static func drawStatus(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ mode: inout InputMode) {
        let theme = state.theme
        buffer.fill(rect, style: theme.style(.base))
        if case var .commandLine(line) = mode {
            buffer.write(":", x: rect.x, y: rect.y, style: theme.style(.title))
            line.field.render(into: &buffer, at: Rect(x: rect.x + 1, y: rect.y, width: rect.width - 1, height: 1), style: theme.style(.fieldFocused),
                              placeholder: "get /users page==2 · header Accept: application/json · send · help", placeholderStyle: theme.style(.placeholder), focused: true)
            mode = .commandLine(line)
            return
        }
        if case var .search(field) = mode {
            buffer.write("/", x: rect.x, y: rect.y, style: theme.style(.title))
            field.render(into: &buffer, at: Rect(x: rect.x + 1, y: rect.y, width: rect.width - 1, height: 1), style: theme.style(.fieldFocused),
                         placeholder: "search the body (a capital letter makes it case-sensitive)", placeholderStyle: theme.style(.placeholder), focused: true)
            mode = .search(field)
            return
        }
        guard let status = state.status else { return }
        let element: ThemeElement = switch status.kind {
        case .info: .muted
        case .success: .success
        case .warning: .warning
        case .error: .error
        }
        buffer.write(" " + status.text, x: rect.x, y: rect.y, style: theme.style(element), limit: rect.width)
    }

    /// Draws a box whose border shows focus, with tabs or a title in its top edge.
    static func box(_ buffer: inout ScreenBuffer, _ rect: Rect, titles: [String], active: Int?, focused: Bool, theme: Theme) -> Rect {
        let border = theme.style(focused ? .borderFocused : .border)
        let inside = buffer.drawBox(rect, style: border)
        guard rect.width > 6 else { return inside }
        let title = Rect(x: rect.x + 2, y: rect.y, width: rect.width - 4, height: 1)
        if let active {
            Tabs(Tabs.fitted(titles, active: active, width: title.width), active: active)
                .render(into: &buffer, at: title, active: theme.style(.tabActive), inactive: theme.style(.tabInactive), separator: border)
        } else {
            buffer.write(titles.joined(separator: " "), x: title.x, y: title.y, style: theme.style(focused ? .title : .label), limit: title.width)
        }
        return inside
    }

    /// Draws the lines from a scroll position into a rectangle, one column in from its left.
    static func drawLines(_ buffer: inout ScreenBuffer, _ lines: [TokenLine], in rect: Rect, scroll: inout ScrollState, theme: Theme) {
        scroll.clamp(contentHeight: lines.count, viewport: rect.height)
        for row in 0..<rect.height {
            let index = scroll.offset + row
            guard index < lines.count else { break }
            buffer.write(spans(lines[index], theme), x: rect.x + 1, y: rect.y + row, limit: rect.width - 1)
        }
    }

    /// Marks a box scrolled sideways with the first column it shows, in its bottom-left border.
    static func drawColumnMark(_ buffer: inout ScreenBuffer, _ rect: Rect, column: Int, theme: Theme) {
        guard column > 0, rect.width > 12 else { return }
        buffer.write(" ◀ col \(column + 1) ", x: rect.x + 2, y: rect.maxY - 1, style: theme.style(.border))
    }

    /// Token lines styled by the theme.
    static func spans(_ line: TokenLine, _ theme: Theme) -> [Span] {
        line.map { Span($0.text, theme.style($0.element)) }
    }
}
