import TerminalUI
import Testing
import TincanCore
@testable import TincanTUI

/// The Explain view as a user moves through it, at the smallest screen the TUI draws well.
@Suite("The Explain view")
struct ExplainViewTests {
    /// A sent request whose response failed validation, with the Explain view open at 80x24.
    private static func explainedAfterAFailedSend() -> AppState {
        var state = Fixtures.welcome(width: 80, height: 24)
        state.responseSerializer = .json
        Fixtures.send(&state, status: 404, contentType: "text/html", body: "<h1>Not found</h1>")
        state.setFocus(.preview)
        _ = Fixtures.press([.key(KeyEvent(.function(9)))], into: &state)
        return state
    }

    private static func text(_ line: TokenLine) -> String {
        line.map(\.text).joined().trimmingCharacters(in: .whitespaces)
    }

    @Test("End and page down reach the Explain view's last line, however much longer it is than the wire preview")
    func scrollsToTheEnd() throws {
        var state = Self.explainedAfterAFailedSend()
        let (contentHeight, viewport) = state.previewScrollBounds()
        let lines = state.previewBoxLines(width: try #require(ScreenLayout(state).previewBox).width)
        #expect(contentHeight == lines.count)
        #expect(contentHeight > state.previewLines.count + viewport, "the case this guards: Explain much longer than the wire preview")
        let last = Self.text(try #require(lines.last { !Self.text($0).isEmpty }))

        _ = Fixtures.press([.key(KeyEvent(.end))], into: &state)
        #expect(state.previewScroll.offset == contentHeight - viewport)
        #expect(Renderer.render(&state).lines.contains { $0.contains(last) })

        _ = Fixtures.press([.key(KeyEvent(.home))], into: &state)
        #expect(!Renderer.render(&state).lines.contains { $0.contains(last) })
        _ = Fixtures.press(Array(repeating: .key(KeyEvent(.pageDown)), count: contentHeight), into: &state)
        #expect(Renderer.render(&state).lines.contains { $0.contains(last) })
        // Editing the request (which rebuilds the preview) keeps the place in the Explain view.
        let offset = state.previewScroll.offset
        state.refreshPreview()
        #expect(state.previewScroll.offset == offset)
    }

    @Test("after a send the Explain view starts with the response's validation, then the request")
    func validationComesFirst() {
        let state = Self.explainedAfterAFailedSend()
        let lines = state.previewBoxLines(width: 80).map(Self.text)
        #expect(lines.first == "── Response ──")
        let response = lines.firstIndex(of: "── Response ──")
        let request = lines.firstIndex(of: "── Request ──")
        #expect(response != nil && request != nil && response! < request!)
        #expect(lines.contains { $0.hasPrefix("✗") }, "the failed validation is shown")

        var fresh = Fixtures.welcome(width: 80, height: 24)
        fresh.setFocus(.preview)
        _ = Fixtures.press([.key(KeyEvent(.function(9)))], into: &fresh)
        let unsent = fresh.previewBoxLines(width: 80).map(Self.text)
        #expect(!unsent.contains("── Response ──"))
        #expect(unsent.last == "Send the request (ctrl+r) to see how the response is validated.")
    }
}

/// How the Explain view, the lesson notes and the checks list break text into rows.
@Suite("Wrapping text into rows")
struct TextWrapTests {
    private static func rows(_ line: TokenLine, width: Int, indent: Int = 2) -> [String] {
        ExplainPane.wrap(line, width: width, indent: indent).map { $0.map(\.text).joined() }
    }

    @Test("punctuation right after a code span stays on the span's row: rows break only at spaces")
    func punctuationStaysWithTheSpanBeforeIt() {
        // "Press " and "ctrl+r" fill the 12 columns exactly; the full stop has no space before it.
        let line: TokenLine = [Token(.base, "Press "), Token(.headerValue, "ctrl+r"), Token(.base, ". Then wait.")]
        let rows = Self.rows(line, width: 12)
        #expect(rows == ["Press ", "  ctrl+r. ", "  Then wait."])
        #expect(!rows.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(".") })
    }

    @Test("a word made of several tokens keeps each token's colour when it moves to the next row")
    func aWordOfSeveralTokensKeepsItsColours() {
        let line: TokenLine = [Token(.base, "Send it to "), Token(.headerValue, "/get"), Token(.base, "?")]
        let rows = ExplainPane.wrap(line, width: 14, indent: 2)
        #expect(rows.count == 2)
        #expect(rows[1].map(\.text).joined() == "  /get?")
        #expect(rows[1].contains(Token(.headerValue, "/get")))
        #expect(rows[1].contains(Token(.base, "?")))
    }

    @Test("a word longer than a row is still cut at the row's edge, across the tokens it spans")
    func aLongWordIsCut() {
        let line: TokenLine = [Token(.base, "ab "), Token(.headerValue, "0123456789"), Token(.base, "abcdef")]
        let rows = Self.rows(line, width: 8)
        #expect(rows.allSatisfy { TextWidth.of($0) <= 8 })
        #expect(rows.joined().replacingOccurrences(of: " ", with: "") == "ab0123456789abcdef")
    }
}
