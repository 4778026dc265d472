import Testing
import TincanCore

@Suite("TerminalText: what reaches a terminal")
struct TerminalTextTests {
    @Test("printable ASCII, tabs and kept line feeds come back as they are")
    func plainTextIsUnchanged() {
        #expect(TerminalText.text("GET /get?n=1 → 200\tok\nnext") == "GET /get?n=1 → 200\tok\nnext")
        #expect(TerminalText.text("ascii only\tline\n") == "ascii only\tline\n")
        #expect(TerminalText.line("ascii only\tline") == "ascii only\tline")
    }

    @Test("a line feed is shown as a mark in a line, and kept in a text")
    func lineFeedsDependOnTheReading() {
        #expect(TerminalText.line("one\ntwo") == "one·two")
        #expect(TerminalText.text("one\ntwo") == "one\ntwo")
    }

    @Test("escapes, DEL, a lone carriage return and C1 controls are marks in ASCII and in other text")
    func controlsAreMarks() {
        #expect(TerminalText.text("a\u{1B}[2Jb") == "a·[2Jb")
        #expect(TerminalText.text("del\u{7F}") == "del·")
        #expect(TerminalText.text("over\rwrite") == "over·write")
        #expect(TerminalText.text("crlf\r\nkept") == "crlf\r\nkept")
        #expect(TerminalText.line("crlf\r\n") == "crlf··")
        #expect(TerminalText.text("é\u{9B}31m") == "é·31m")
    }
}
