import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
@testable import TincanTUI

/// Long lines in the preview and response boxes (issue 17 §1): wrapped by display width, or cut
/// and scrolled sideways.
@Suite("Long lines: wrapping and sideways scrolling")
struct LongLineTests {
    static let longLine = "start-" + String(repeating: "abcdefghij", count: 20) + "-END"

    private func texts(_ rows: [[Span]]) -> [String] { rows.map(\.plainText) }

    // MARK: - LineWrap

    @Test("wrapping counts display columns: a wide character takes two and is never split")
    func wrapsByDisplayWidth() {
        let rows = LineWrap.rows([Span("ab日本語cd")], width: 5)
        #expect(texts(rows) == ["ab日", "本語c", "d"])
        for row in rows { #expect(LineWrap.width(of: row) <= 5) }
    }

    @Test("a tab runs to the next stop of four columns, counted over the whole line")
    func tabsRunToTheirStop() {
        #expect(texts(LineWrap.rows([Span("a\tb")], width: 20)) == ["a   b"])
        #expect(LineWrap.width(of: [Span("ab\tc\td")]) == 9)
        // A tab that does not fit starts the next row, where it runs to its stop.
        #expect(texts(LineWrap.rows([Span("abcd\tef")], width: 5)) == ["abcd", "    e", "f"])
    }

    @Test("styles stay with their text across a row break")
    func stylesFollowTheirText() {
        let bold = Style().adding(.bold)
        let rows = LineWrap.rows([Span("abc"), Span("defg", bold)], width: 4)
        #expect(rows == [[Span("abc"), Span("d", bold)], [Span("efg", bold)]])
        #expect(LineWrap.rows([Span]([]), width: 4) == [[]])
    }

    @Test("sideways, the columns before the start are dropped, and a wide character cut in half becomes a space")
    func droppingColumns() {
        #expect(LineWrap.dropping(columns: 1, of: [Span("日本語")]).plainText == " 本語")
        #expect(LineWrap.dropping(columns: 2, of: [Span("日本語")]).plainText == "本語")
        #expect(LineWrap.dropping(columns: 3, of: [Span("ab"), Span("cdef")]).plainText == "def")
        #expect(LineWrap.dropping(columns: 2, of: [Span("a\tb")]).plainText == "  b")
    }

    @Test("a wrapped list keeps the selected row in view by the lines rows take, measuring only rows near it")
    func wrappedListKeepsTheSelectionInView() {
        var list = ListState(selected: 0)
        var measured = Set<Int>()
        let heights = { (row: Int) -> Int in
            measured.insert(row)
            return row % 2 == 0 ? 3 : 1
        }
        // Rows of 3, 1, 3, 1 and 3 lines: the fifth shows in part.
        #expect(list.visibleRange(count: 1_000_000, viewport: 10, lines: heights) == 0..<5)
        list.select(999_999, count: 1_000_000)
        let range = list.visibleRange(count: 1_000_000, viewport: 10, lines: heights)
        #expect(range.upperBound == 1_000_000)
        #expect(range.contains(999_999))
        #expect(measured.count < 40)
    }

    // MARK: - The response box

    private func sentText(_ body: String, width: Int = 80, height: Int = 24) -> AppState {
        var state = Fixtures.welcome(width: width, height: height)
        Fixtures.send(&state, contentType: "text/plain", body: body)
        state.setFocus(.response)
        return state
    }

    private func screen(_ state: inout AppState) -> String {
        Renderer.render(&state).lines.joined(separator: "\n")
    }

    /// The text inside the response box, row after row, with the spaces taken out (a wrapped
    /// line's rows then read as the line).
    private func responseText(_ state: inout AppState) -> String {
        let buffer = Renderer.render(&state)
        guard let box = ScreenLayout(state).responseBox else { return "" }
        var text = ""
        for row in (box.y + 1)..<(box.maxY - 1) {
            for column in (box.x + 1)..<(box.maxX - 1) { text += buffer[column, row].text }
        }
        return text.replacingOccurrences(of: " ", with: "")
    }

    @Test("a long line of the body is cut at the edge, alt+z wraps it whole, and alt+z again cuts it")
    func wrapToggleShowsTheWholeLine() {
        var state = sentText(Self.longLine + "\nsecond line")
        #expect(!screen(&state).contains("-END"))
        Fixtures.press([.key(.alt("z"))], into: &state)
        #expect(state.lineView.wraps)
        let wrapped = screen(&state)
        #expect(wrapped.contains("-END"))
        #expect(wrapped.contains("second line"))
        // The rows hold the whole line, in order.
        #expect(responseText(&state).contains(Self.longLine))
        Fixtures.press([.key(.alt("z"))], into: &state)
        #expect(!screen(&state).contains("-END"))
    }

    @Test("> scrolls the response sideways to the end of the longest line in view, < back; the border shows the column")
    func sidewaysScrolling() {
        var state = sentText(Self.longLine)
        var presses = 0
        while !screen(&state).contains("-END"), presses < 40 {
            Fixtures.press([.key(.char(">"))], into: &state)
            presses += 1
        }
        #expect(screen(&state).contains("-END"))
        #expect(state.lineView.responseColumn > 0)
        #expect(screen(&state).contains("◀ col \(state.lineView.responseColumn + 1)"))
        // It goes no further than the end.
        let column = state.lineView.responseColumn
        Fixtures.press([.key(.char(">")), .key(.char(">"))], into: &state)
        #expect(state.lineView.responseColumn == column)
        Fixtures.press(Array(repeating: .key(.char("<")), count: presses + 2), into: &state)
        #expect(state.lineView.responseColumn == 0)
        #expect(screen(&state).contains("start-abc"))
    }

    @Test("a line of wide characters wraps without splitting one, and every row stays the screen's width")
    func wideCharactersWrap() {
        let line = String(repeating: "日本語テキスト", count: 12)
        var state = sentText(line)
        Fixtures.press([.key(.alt("z"))], into: &state)
        let buffer = Renderer.render(&state)
        let rows = buffer.lines.filter { $0.contains { "日本語テキスト".contains($0) } }
        #expect(rows.count == 4)
        for row in 0..<buffer.height {
            let columns = (0..<buffer.width).reduce(0) { total, column in
                buffer[column, row].isContinuation ? total : total + max(1, TextWidth.of(buffer[column, row].text))
            }
            #expect(columns == buffer.width)
        }
        // Every character of the body is drawn once, in order: none lost at a row's edge.
        #expect(responseText(&state).contains(line))
    }

    @Test("the selection moves over wrapped rows and stays in view at the end of a long body")
    func selectionStaysInViewWhenWrapped() {
        let body = (1...200).map { "line \($0) " + String(repeating: "x", count: 150) }.joined(separator: "\n")
        var state = sentText(body)
        Fixtures.press([.key(.alt("z")), .key(KeyEvent(.end))], into: &state)
        #expect(state.bodyList.selected == 199)
        #expect(screen(&state).contains("line 200 "))
    }

    @Test("toggling wrap keeps the preview on the line it showed at its top")
    func previewKeepsItsLineWhenToggling() {
        var state = Fixtures.welcome()
        state.urlField = TextField("http://127.0.0.1:8080/" + String(repeating: "segment/", count: 30))
        state.headers.append(HeaderRow(name: "X-Long", value: String(repeating: "v", count: 80)))
        state.headers.append(HeaderRow(name: "X-After", value: "last"))
        for index in 1...10 { state.headers.append(HeaderRow(name: "X-Pad-\(index)", value: "\(index)")) }
        state.refreshPreview()
        state.setFocus(.preview)
        let lines = state.previewBoxLines(width: ScreenLayout(state).previewBox?.width ?? state.width)
        let long = lines.firstIndex { $0.map(\.text).joined().hasPrefix("X-Long") } ?? 0
        state.previewScroll = ScrollState(offset: long)
        let top = state.previewScroll.offset
        #expect(top > 0)
        Fixtures.press([.key(.alt("z"))], into: &state)
        let rows = state.previewBoxRows(width: ScreenLayout(state).previewBox?.width ?? state.width)
        // The top row is the first row of the same line, which now wraps.
        #expect(rows[state.previewScroll.offset].map(\.text).joined() == String(lines[top].map(\.text).joined().prefix(state.previewTextWidth)))
        #expect(screen(&state).contains("X-After: last"))
        Fixtures.press([.key(.alt("z"))], into: &state)
        #expect(state.previewScroll.offset == top)
    }

    @Test("the error chain wraps in the response box's fixed top")
    func errorChainWraps() {
        var state = Fixtures.welcome()
        state.responseSerializer = .json
        Fixtures.send(&state, status: 404, contentType: "text/html", body: "<h1>Not found</h1>")
        state.setFocus(.response)
        // Zoomed, as one reads a long chain.
        Fixtures.press([.key(KeyEvent(.function(12)))], into: &state)
        let cut = screen(&state)
        Fixtures.press([.key(.alt("z"))], into: &state)
        let wrapped = screen(&state)
        let chain = state.responseHeaderLines.map { $0.map(\.text).joined() }
        let longest = chain.max { $0.count < $1.count } ?? ""
        #expect(longest.count > state.responseTextWidth)
        #expect(!cut.contains(longest))
        #expect(!wrapped.contains(longest))
        #expect(responseText(&state).contains(longest.replacingOccurrences(of: " ", with: "")))
    }

    @Test("ten wrapped frames of a 20 MB body page down within 5 seconds, a bound that wrapping the whole body every frame breaks")
    func largeBodyWrapsLazily() {
        // 20 MB of text, in lines of 4 KB (each cut into rows of 1 KiB by the text index).
        let line = String(repeating: "0123456789abcdef", count: 256)
        let body = Array(repeating: line, count: 5_000).joined(separator: "\n")
        var state = sentText(body)
        Fixtures.press([.key(.alt("z"))], into: &state)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<10 {
                Fixtures.press([.key(KeyEvent(.pageDown))], into: &state)
                _ = Renderer.render(&state)
            }
        }
        #expect(elapsed < .seconds(5), "10 wrapped frames of a 20 MB body took \(elapsed)")
    }

    // MARK: - Snapshots

    enum Scene: String, CaseIterable, CustomTestStringConvertible {
        case longLineCut, longLineWrapped, longLineScrolled, wideLineWrapped
        var testDescription: String { rawValue }
    }

    @Test("long-line scenes match their golden files", arguments: Scene.allCases, [(80, 24), (120, 40)])
    func snapshots(_ scene: Scene, size: (Int, Int)) {
        let body = scene == .wideLineWrapped
            ? "名前: " + String(repeating: "日本語🙂", count: 40) + "\nend"
            : Self.longLine + "\nshort line\n\tindented by a tab"
        var state = sentText(body, width: size.0, height: size.1)
        switch scene {
        case .longLineCut: break
        case .longLineWrapped, .wideLineWrapped: Fixtures.press([.key(.alt("z"))], into: &state)
        case .longLineScrolled: Fixtures.press([.key(.char(">")), .key(.char(">")), .key(.char(">"))], into: &state)
        }
        let buffer = Renderer.render(&state)
        if let problem = Snapshot.verify(buffer, named: "\(scene.rawValue)-\(size.0)x\(size.1)") {
            Issue.record(Comment(rawValue: problem))
        }
    }
}

extension LongLineTests {
    @Test("toggling wrap keeps the Headers view on the header it showed at its top")
    func headersViewKeepsItsLineWhenToggling() {
        var state = Fixtures.welcome()
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, _)? = effects.first else {
            Issue.record("no send")
            return
        }
        var headers: [(String, String)] = (1...20).map { ("X-Header-\($0)", String(repeating: "\($0 % 10)", count: 90)) }
        headers.append(("X-Last", "end"))
        let response = HTTPResponse(url: request.url, statusCode: 200, headers: HTTPHeaders(headers))
        _ = state.update(.task(exchange: id, .completed(TaskResult(request: request, response: response, data: [], serialization: nil, metrics: TaskMetrics(connect: .zero, firstByte: .zero, total: .zero, requestCount: 1))), at: 0.1))
        state.setFocus(.response)
        state.responseView = .headers
        state.responseScroll = ScrollState(offset: 5)
        Fixtures.press([.key(.alt("z"))], into: &state)
        let rows = state.responseShownLines(width: state.responseTextWidth)
        #expect(rows[state.responseScroll.offset].map(\.text).joined().hasPrefix("X-Header-5: 5555"))
        Fixtures.press([.key(.alt("z"))], into: &state)
        #expect(state.responseScroll.offset == 5)
    }
}
