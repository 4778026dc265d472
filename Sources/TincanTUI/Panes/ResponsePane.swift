import Foundation
import TerminalUI
import TincanCore

/// The response: status, validation errors with their chain, and the body, headers or timing.
enum ResponsePane {
    static func draw(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ widgets: inout StatefulWidgets) {
        let theme = state.theme
        let inside = Renderer.box(&buffer, rect, titles: ResponseView.allCases.map(\.rawValue), active: ResponseView.allCases.firstIndex(of: state.responseView), focused: state.focus == .response, theme: theme)
        guard !inside.isEmpty else { return }
        if let motion = state.slowMotion {
            SlowMotionPane.draw(&buffer, motion, in: inside, theme: theme)
            return
        }
        let header = LineView.shown(state.hidingSecrets(in: state.responseHeaderLines), width: inside.width - 1, wraps: state.lineView.wraps, column: state.lineView.responseColumn)
        let headerHeight = min(header.count, max(1, inside.height / 2))
        for (row, line) in header.prefix(headerHeight).enumerated() {
            buffer.write(Renderer.spans(line, theme), x: inside.x + 1, y: inside.y + row, limit: inside.width - 1)
        }
        let body = Rect(x: inside.x, y: inside.y + headerHeight, width: inside.width, height: inside.height - headerHeight)
        guard body.height > 0 else { return }
        defer { Renderer.drawColumnMark(&buffer, rect, column: state.lineView.responseColumn, theme: theme) }
        if let document = state.bodyDocument {
            drawDocument(&buffer, document, in: body, frame: rect, state, &widgets.bodyRows)
            return
        }
        let lines = state.responseShownLines(width: body.width - 1)
        Renderer.drawLines(&buffer, lines, in: body, scroll: &widgets.response, theme: theme)
        if lines.count > body.height {
            let position = "\(widgets.response.offset + 1)-\(min(lines.count, widgets.response.offset + body.height))/\(lines.count)"
            buffer.write(" \(position) ", x: rect.maxX - TextWidth.of(position) - 4, y: rect.maxY - 1, style: theme.style(.border))
        }
    }

    /// Draws the rows in view (and only those), the selected row marked while the pane has the
    /// focus, search matches highlighted.
    private static func drawDocument(_ buffer: inout ScreenBuffer, _ document: BodyDocument, in body: Rect, frame rect: Rect, _ state: AppState, _ rows: inout ListState) {
        let theme = state.theme
        let count = document.rowCount
        // Only the rows in view are built, and wrapped: a 50 MB body costs what a screen does.
        var built: [Int: [TokenLine]] = [:]
        func lines(of index: Int) -> [TokenLine] {
            if let known = built[index] { return known }
            let line = state.highlighted(state.hidingSecrets(in: document.line(index)), row: index)
            let shown = state.lineView.wraps ? LineWrap.rows(line, width: body.width - 1) : [LineWrap.dropping(columns: state.lineView.responseColumn, of: line)]
            built[index] = shown
            return shown
        }
        let visible = state.lineView.wraps
            ? rows.visibleRange(count: count, viewport: body.height) { lines(of: $0).count }
            : rows.visibleRange(count: count, viewport: body.height)
        let focused = state.focus == .response
        var y = body.y
        for index in visible {
            for line in lines(of: index) where y < body.maxY {
                drawRow(&buffer, line, at: y, in: body, isSelected: focused && index == rows.selected, theme: theme)
                y += 1
            }
        }
        drawPosition(&buffer, document, viewport: body.height, frame: rect, state, rows)
    }

    /// One row of the body, the selected one on the selection's surface.
    private static func drawRow(_ buffer: inout ScreenBuffer, _ line: TokenLine, at y: Int, in body: Rect, isSelected: Bool, theme: Theme) {
        if isSelected { buffer.fill(Rect(x: body.x, y: y, width: body.width, height: 1), style: theme.style(.selectionUnfocused)) }
        var spans = Renderer.spans(line, theme)
        if isSelected {
            let surface = theme.style(.selectionUnfocused)
            spans = spans.map { span in
                var style = span.style
                if style.background == theme.style(.base).background { style.background = surface.background }
                return Span(span.text, style)
            }
        }
        buffer.write(spans, x: body.x + 1, y: y, limit: body.width - 1)
    }

    /// The selected row's number, and the search's, in the bottom border.
    private static func drawPosition(_ buffer: inout ScreenBuffer, _ document: BodyDocument, viewport: Int, frame rect: Rect, _ state: AppState, _ rows: ListState) {
        let theme = state.theme
        let count = document.rowCount
        if count > viewport || state.search.query != nil {
            var position = "\(rows.selected + 1)/\(count)"
            if let query = state.search.query {
                let place = state.search.current.map { "\($0.number)/\(state.search.matchCount)" } ?? "\(state.search.matchCount)"
                position = "/\(query.text) \(place) · " + position
            }
            buffer.write(" \(position) ", x: rect.maxX - TextWidth.of(position) - 4, y: rect.maxY - 1, style: theme.style(.border))
        }
    }
}

extension AppState {
    /// The fixed top of the response box: the status line and every validation error.
    var responseHeaderLines: [TokenLine] {
        guard let exchange else {
            return [[Token(.muted, "No response yet. Press ctrl+r or F5 to send.")]]
        }
        let stream = exchange.stream.map { [StreamPane.summary($0)] } ?? []
        let listsEvents = responseView == .pretty || (responseView == .raw && exchange.result == nil)
        return responseStatusLines(exchange) + (listsEvents ? stream : [])
    }

    /// The status line and every validation error of an exchange.
    private func responseStatusLines(_ exchange: Exchange) -> [TokenLine] {
        // A flow's next run keeps the last run's result until it completes: the body being
        // decoded is the newer one.
        guard let result = exchange.decoding ?? exchange.result else {
            switch exchange.phase {
            case .cancelled: return [[Token(.warning, "Cancelled.")]]
            default: return [[Token(.muted, "Sending… " + DecimalText.fixed(exchange.elapsed(now: now), decimals: 1) + " s")]]
            }
        }
        var lines: [TokenLine] = []
        if let response = result.response {
            let code = response.statusCode
            let element: ThemeElement = switch code {
            case ..<200: .status1xx
            case ..<300: .status2xx
            case ..<400: .status3xx
            case ..<500: .status4xx
            default: .status5xx
            }
            var facts = [DecimalText.fixed(result.metrics.total.inSeconds * 1000, decimals: 1) + " ms", RequestPreview.byteCount(Int64(result.data.count))]
            if let type = response.mimeType { facts.append(type) }
            lines.append([Token(element, "\(code) \(HTTPResponse.reasonPhrase(forStatusCode: code))"), Token(.muted, "  " + facts.joined(separator: " · "))])
        }
        if let error = result.transportError {
            lines.append([Token(.error, "✗ Transport error: \(error)")])
        }
        if exchange.decoding != nil {
            lines.append([Token(.muted, "… validating and decoding the body (\(responseSerializer.rawValue))")])
        } else if let error = result.serialization?.error {
            for (depth, link) in error.chain.enumerated() {
                let lead = depth == 0 ? "✗ " : String(repeating: "  ", count: depth) + "↳ "
                lines.append([Token(.error, lead + link.message), Token(.muted, "  (\(link.domain) \(link.code))")])
            }
        } else if result.stream?.format == .webSocket {
            // No body to validate: the frames are the answer, and the checks read them.
            if result.transportError == nil { lines.append([Token(.success, "✓ WebSocket closed"), Token(.muted, " (its frames are checked as stream events)")]) }
        } else if result.response != nil {
            lines.append([Token(.success, "✓ valid"), Token(.muted, " for \(responseSerializer.rawValue), status \(acceptableStatusCodes)")])
        }
        return lines
    }

    /// The scrolling part of the response box for the Headers and Timing views.
    var responseLines: [TokenLine] {
        guard let exchange, let result = exchange.result else { return [] }
        switch responseView {
        case .pretty, .raw:
            // Drawn from ``bodyDocument`` row by row, never as a whole.
            return []
        case .headers:
            guard let response = result.response else { return [] }
            return [[Token(.method, response.statusLine)]]
                + response.headers.map { [Token(.headerName, $0.name), Token(.headerValue, ": " + shownHeaderValue(name: $0.name, value: $0.value))] }
        case .timing:
            let metrics = result.metrics
            func ms(_ duration: Duration?) -> String {
                duration.map { DecimalText.fixed($0.inSeconds * 1000, decimals: 1, width: 8) + " ms" } ?? "       — "
            }
            // One clock for the total and the events: when the task emitted each, from its start.
            let origin = exchange.milestones.first { $0.event == "resumed" }?.at ?? exchange.startedAt
            let end = exchange.milestones.last.map(\.at)
            let total = end.map { Duration.seconds(max(0, $0 - origin)) } ?? metrics.total
            var lines: [TokenLine] = [
                [Token(.label, "connect     "), Token(.base, ms(metrics.connect)), Token(.muted, "  DNS, TCP and TLS (about 0 on a reused connection)")],
                [Token(.label, "TLS         "), Token(.base, "       — "), Token(.muted, "  not reported apart by the transport; inside connect")],
                [Token(.label, "first byte  "), Token(.base, ms(metrics.firstByte))],
                [Token(.label, "last byte   "), Token(.base, ms(metrics.total)), Token(.muted, "  the transfer's end; validating and decoding follow")],
                [Token(.label, "total       "), Token(.base, ms(total)), Token(.muted, "  until the task completed, its last event below")],
                [Token(.label, "requests    "), Token(.base, DecimalText.rightAligned(String(metrics.requestCount), width: 8)), Token(.muted, result.redirects.isEmpty ? "" : "  \(result.redirects.count) redirect(s)")],
                [Token(.label, "size        "), Token(.base, RequestPreview.byteCount(Int64(result.data.count)))],
                [],
                [Token(.title, "events")],
            ]
            for milestone in exchange.milestones {
                lines.append([Token(.muted, DecimalText.fixed(max(0, milestone.at - origin) * 1000, decimals: 1, width: 8) + " ms  "), Token(.base, milestone.event)])
            }
            return lines
        }
    }
}
