import TerminalUI

/// Wrapping long lines, and scrolling the preview and response boxes sideways (issue 17 §1).
extension AppState {
    /// Columns of text the preview box shows in a row (its border and margin taken off).
    var previewTextWidth: Int { max(1, (ScreenLayout(self).previewBox?.width ?? width) - 3) }

    /// Columns of text the response box shows in a row.
    var responseTextWidth: Int { max(1, (ScreenLayout(self).responseBox?.width ?? width) - 3) }

    /// The preview box's rows as drawn at `width` columns (its border included): wrapped, or
    /// from its sideways column on.
    func previewBoxRows(width: Int) -> [TokenLine] {
        LineView.shown(previewBoxLines(width: width), width: max(1, width - 3), wraps: lineView.wraps, column: lineView.previewColumn)
    }

    /// Turns wrapping on or off. The preview stays on the line it showed at its top; the body's
    /// selected row stays selected (its rows are the body's lines either way).
    mutating func toggleWrap() {
        let box = ScreenLayout(self).previewBox?.width ?? width
        let previewLines = previewBoxLines(width: box)
        let headersOrTiming = responseLines
        let wrapping = !lineView.wraps
        previewScroll = Self.keepingTopLine(previewScroll, over: previewLines, width: max(1, box - 3), wrapping: wrapping)
        responseScroll = Self.keepingTopLine(responseScroll, over: headersOrTiming, width: responseTextWidth, wrapping: wrapping)
        lineView.wraps = wrapping
        lineView.previewColumn = 0
        lineView.responseColumn = 0
        let bounds = previewScrollBounds()
        previewScroll.clamp(contentHeight: bounds.contentHeight, viewport: bounds.viewport)
        status = StatusMessage(lineView.wraps
            ? "Long lines wrap. alt+z cuts them again (< and > then scroll sideways)."
            : "Long lines are cut at the edge: < and > scroll sideways, alt+z wraps them.")
    }

    /// A scroll position over `lines` moved to the same line's first row once wrapping is turned
    /// on (`wrapping`) or off.
    private static func keepingTopLine(_ scroll: ScrollState, over lines: [TokenLine], width: Int, wrapping: Bool) -> ScrollState {
        let wrapped = WrappedLines(lines, width: width)
        guard wrapping else { return ScrollState(offset: wrapped.sources.dropFirst(scroll.offset).first ?? 0) }
        return ScrollState(offset: wrapped.firstRow(of: scroll.offset))
    }

    /// Scrolls the focused preview or response box sideways by `steps` steps (negative: left).
    mutating func scrollSideways(by steps: Int) {
        guard !lineView.wraps else {
            status = StatusMessage("Lines wrap, so nothing is cut off: alt+z cuts them again to scroll sideways.")
            return
        }
        switch focus {
        case .preview:
            let limit = LineView.columnLimit(previewBoxLines(width: previewTextWidth + 3), width: previewTextWidth)
            lineView.previewColumn = max(0, min(limit, lineView.previewColumn + steps * LineView.step))
            reportColumn(lineView.previewColumn, limit: limit)
        case .response:
            let limit = LineView.columnLimit(responseVisibleLines, width: responseTextWidth)
            lineView.responseColumn = max(0, min(limit, lineView.responseColumn + steps * LineView.step))
            reportColumn(lineView.responseColumn, limit: limit)
        default:
            status = StatusMessage("< and > scroll the preview and response boxes sideways; tab moves to one.")
        }
    }

    private mutating func reportColumn(_ column: Int, limit: Int) {
        status = StatusMessage(limit == 0 ? "Every line in view fits: nothing to scroll sideways." : "Column \(column + 1) of up to \(limit + 1) (< and > scroll, alt+z wraps).")
    }

    /// The response box's lines in view now: its fixed top, then the body rows or lines shown.
    private var responseVisibleLines: [TokenLine] {
        var lines = responseHeaderLines
        if let document = bodyDocument {
            let start = bodyList.offset
            lines += (start..<min(document.rowCount, start + responseViewport)).map(document.line)
        } else {
            lines += responseLines.dropFirst(responseScroll.offset).prefix(responseViewport)
        }
        return lines
    }
}

extension AppState {
    /// Rows the response box's fixed top takes at `width` columns of text (more when it wraps).
    func responseHeaderRowCount(width: Int) -> Int {
        lineView.wraps ? WrappedLines(responseHeaderLines, width: max(1, width)).rows.count : responseHeaderLines.count
    }

    /// The Headers or Timing view's lines as shown `width` columns wide.
    func responseShownLines(width: Int) -> [TokenLine] {
        LineView.shown(responseLines, width: max(1, width), wraps: lineView.wraps, column: lineView.responseColumn)
    }
}
