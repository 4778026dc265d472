import Testing
import TerminalUI
import TincanCore
import TincanSessions
@testable import TincanTUI

/// The response body at any size: the JSON outline, folding, paths, search, text rows and hex.
@Suite("Body views: outline, folds, search, hex")
struct BodyViewTests {
    static let sample = #"{"id": 7, "name": "Zoë", "tags": ["a", "b"], "empty": {}, "nested": {"deep": [1, {"x": null}]}, "odd key": true}"#

    private func document(_ json: String = sample) throws -> BodyDocument {
        BodyDocument(.json(try #require(JSONOutline(Array(json.utf8)))))
    }

    private func texts(_ document: BodyDocument) -> [String] {
        (0..<document.rowCount).map(document.text)
    }

    @Test func theOutlineIsWhatAPrettyPrinterWouldWriteFromTheBytes() throws {
        #expect(texts(try document()) == [
            "{",
            "  \"id\": 7,",
            "  \"name\": \"Zoë\",",
            "  \"tags\": [",
            "    \"a\",",
            "    \"b\"",
            "  ],",
            "  \"empty\": {},",
            "  \"nested\": {",
            "    \"deep\": [",
            "      1,",
            "      {",
            "        \"x\": null",
            "      }",
            "    ]",
            "  },",
            "  \"odd key\": true",
            "}",
        ])
    }

    @Test func bytesThatAreNotOneJSONValueHaveNoOutline() {
        #expect(JSONOutline(Array("{\"a\": 1".utf8)) == nil)
        #expect(JSONOutline(Array("[1] [2]".utf8)) == nil)
        #expect(JSONOutline(Array("\"unterminated".utf8)) == nil)
    }

    @Test func foldingHidesAContainerAndCountsItsChildrenAndUnfoldingBringsThemBack() throws {
        var document = try document()
        #expect(document.toggleFold(at: 3) == 3)
        #expect(document.text(3) == "  \"tags\": […] 2 items,")
        #expect(document.rowCount == 15)
        #expect(document.text(4) == "  \"empty\": {},")
        // Folding from the closing bracket folds its container too.
        #expect(document.toggleFold(at: 3) == 3)
        #expect(document.toggleFold(at: 6) == 3)
        #expect(document.text(3).hasPrefix("  \"tags\": […]"))
        // left on a scalar folds its parent and selects it.
        var other = try self.document()
        #expect(other.fold(at: 12, true) == 11)
        #expect(other.text(11) == "      {…} 1 key")
        other.foldTopLevel(true)
        #expect(texts(other) == ["{", "  \"id\": 7,", "  \"name\": \"Zoë\",", "  \"tags\": […] 2 items,", "  \"empty\": {},", "  \"nested\": {…} 1 key,", "  \"odd key\": true", "}"])
        other.foldTopLevel(false)
        #expect(other.rowCount == 18)
    }

    @Test func aPathIsWrittenAsCapturesAndAssertionsReadIt() throws {
        let document = try document()
        #expect(document.path(at: 0) == "$")
        #expect(document.path(at: 4) == "$.tags[0]")
        #expect(document.path(at: 12) == "$.nested.deep[1].x")
        #expect(document.path(at: 14) == "$.nested.deep")
        #expect(document.path(at: 16) == #"$["odd key"]"#)
        // Every path reads its value back through the body paths captures use.
        let value = try JSONParser.parse(Self.sample)
        #expect(try BodyPath(parsing: #"$["odd key"]"#).value(in: value) == .bool(true))
        #expect(try BodyPath(parsing: "$.nested.deep[1].x").value(in: value) == .null)
        for row in 0..<document.rowCount {
            #expect(try BodyPath(parsing: try #require(document.path(at: row))).value(in: value) != nil, "row \(row)")
        }
    }

    @Test("a long, deeply nested outline is indented, written out and walked up to its parents as the value is")
    func depthsAcrossManyRows() throws {
        func record(_ index: Int) -> ParameterValue {
            var nested: ParameterValue = .array([.integer(Int64(index)), [:], []])
            for level in 0..<(index % 7) { nested = ["level\(level)": nested, "n": .integer(Int64(level))] }
            return ["id": .integer(Int64(index)), "nested": nested, "tags": .array((0..<(index % 4)).map { .string("t\($0)") })]
        }
        let value: ParameterValue = ["records": .array((0..<60).map(record)), "last": .null]
        let pretty = JSONWriter.string(value, indent: 2)
        // Compact bytes, and bytes with spaces and newlines of their own between the tokens.
        for body in [JSONWriter.bytes(value), JSONWriter.bytes(value, indent: 3)] {
            let outline = try #require(JSONOutline(body))
            #expect(outline.totalRows > 1_000, "many checkpoints of depth are crossed")
            var document = BodyDocument(.json(outline))
            #expect(texts(document) == pretty.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            #expect(String(decoding: outline.prettyBytes(), as: UTF8.self) == pretty + "\n")
            try expectPathsReadTheirValues(document, in: value)
            // Folded here and there inside the records (a row folds the container it is in, so
            // the top-level ones are left open), so that rows shown and rows of the outline differ.
            for display in stride(from: document.rowCount - 2, through: 1, by: -9) where display < document.rowCount {
                guard let path = document.path(at: display), path.hasPrefix("$.records["), path.filter({ $0 == "." || $0 == "[" }).count >= 4 else { continue }
                _ = document.fold(at: display, true)
            }
            #expect(document.rowCount < outline.totalRows * 3 / 4)
            #expect(document.rowCount > 60, "the records themselves stay open")
            try expectPathsReadTheirValues(document, in: value)
        }
    }

    /// Every row shown reads, through its body path, the value the row shows (a row offers no
    /// value for a container over 16 KiB, which only the top-level ones are here).
    private func expectPathsReadTheirValues(_ document: BodyDocument, in value: ParameterValue) throws {
        var compared = 0
        for display in 0..<document.rowCount {
            let path = try BodyPath(parsing: try #require(document.path(at: display)))
            guard let found = path.value(in: value) else {
                Issue.record("row \(display): \(path) reads nothing")
                continue
            }
            guard let shown = document.value(at: display) else { continue }
            #expect(shown == found, "row \(display): \(path)")
            compared += 1
        }
        #expect(compared >= document.rowCount - 4, "every row but the top-level containers' is compared")
    }

    @Test("every row's bytes, parent and matching bracket agree with the pretty-printed text, across many blocks of rows")
    func rowsAgreeWithThePrettyTextAcrossBlocks() throws {
        // Deep nesting (its rows cross many blocks), a container of a thousand rows whose end is
        // found by skipping blocks, empty containers with space inside, and a byte order mark.
        var deep: ParameterValue = .array([.integer(0), [:], []])
        for level in 0..<40 { deep = ["l\(level)": deep, "n": .integer(Int64(level))] }
        let value: ParameterValue = ["deep": deep, "many": .array((0..<1_000).map { .string("item \($0)") }), "last": ["x": .null]]
        let bodies = [
            JSONWriter.bytes(value),
            JSONWriter.bytes(value, indent: 3),
            [0xEF, 0xBB, 0xBF] + Array(#"{ "a" : { }, "b": [ ], "c": [ [ ] , { "d" : [ 1 , "x" ] } ] }"#.utf8),
        ]
        for body in bodies {
            let outline = try #require(JSONOutline(body))
            let lines = String(decoding: outline.prettyBytes(), as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(lines.count == outline.totalRows)
            let depths = lines.map { $0.prefix { $0 == " " }.count / 2 }
            let closes = lines.map { line in line.drop { $0 == " " }.first.map { $0 == "}" || $0 == "]" } ?? false }
            var covered = outline.byteRange(of: 0).lowerBound
            for row in 0..<outline.totalRows {
                // Rows cover the body in order, and each offset finds the row that covers it.
                let range = outline.byteRange(of: row)
                #expect(range.lowerBound == covered, "row \(row) starts where the last ended")
                covered = range.upperBound
                #expect(outline.row(containing: range.lowerBound) == row)
                #expect(outline.row(containing: range.upperBound - 1) == row)
                // The parent is the last row before that is less deep; a closing row's
                // container is the last row before at its own depth.
                let target = closes[row] ? (0..<row).last { depths[$0] == depths[row] } : row
                let parent = target.flatMap { target in (0..<target).last { depths[$0] < depths[target] } }
                #expect(outline.parent(of: row) == parent, "row \(row)")
                if closes[row] { #expect(outline.container(at: row) == target, "row \(row)") }
            }
            #expect(covered == body.count || body[covered...].allSatisfy { [0x20, 0x0A, 0x0D, 0x09].contains($0) })

            // Folds, nested and side by side: display rows map to outline rows as a list of the
            // rows left visible says.
            var folded = outline
            let opens = (0..<lines.count).filter { row in
                !closes[row] && row + 1 < lines.count && depths[row + 1] > depths[row]
            }
            let chosen = opens.enumerated().filter { $0.offset % 3 == 1 }.map(\.element)
            for row in chosen { folded.setFolded(row, true) }
            func closing(_ open: Int) -> Int { (open + 1..<lines.count).first { closes[$0] && depths[$0] == depths[open] }! }
            var visible: [Int] = []
            var row = 0
            while row < lines.count {
                visible.append(row)
                row = chosen.contains(row) ? closing(row) + 1 : row + 1
            }
            #expect(folded.rowCount == visible.count)
            #expect((0..<folded.rowCount).map(folded.row(at:)) == visible)
            for row in 0..<lines.count {
                let shownAt = visible.lastIndex { $0 <= row }!
                #expect(folded.display(of: row) == shownAt, "row \(row)")
            }
        }
    }

    @Test func searchIsSmartCaseWrapsAndUnfoldsWhatHidesTheMatch() throws {
        var document = try document()
        document.foldTopLevel(true)
        let query = try #require(SearchQuery("NULL".lowercased()))
        #expect(!query.isCaseSensitive)
        let match = document.find(query, from: 0, forward: true, skipCurrent: false)
        let found = try #require(match)
        #expect(document.text(found.row) == "        \"x\": null")
        #expect(found.before == 0)
        #expect(document.rowCount == 15, "the fold around the match opened; tags stays folded")
        #expect(document.text(3).hasPrefix("  \"tags\": […]"))
        // Wraps from the end back to the start, and backwards from the start to the end.
        var fresh = try self.document()
        let a = try #require(SearchQuery("a"))
        #expect(fresh.matchCount(a) == 3)
        #expect(fresh.find(a, from: 16, forward: true, skipCurrent: true) == BodyMatch(row: 2, before: 0))
        #expect(fresh.find(a, from: 2, forward: false, skipCurrent: true) == BodyMatch(row: 4, before: 2))
        #expect(fresh.find(a, from: 4, forward: false, skipCurrent: true) == BodyMatch(row: 3, before: 1))
        let capital = try #require(SearchQuery("Zo"))
        #expect(capital.isCaseSensitive)
        let upper = try #require(SearchQuery("ZO"))
        #expect(document.find(upper, from: 0, forward: true, skipCurrent: false) == nil)
    }

    @Test func backwardSearchFindsTheLastMatchBeforeAnOffsetAcrossItsBlocks() {
        var bytes = [UInt8](repeating: 0x2E, count: 300_000)
        let positions = [10, 65_533, 131_070, 234_460, 299_994]
        for position in positions { bytes.replaceSubrange(position..<(position + 6), with: Array("NeeDle".utf8)) }
        let needle = Array("needle".utf8)
        /// A plain backward scan, the reference.
        func reference(_ before: Int) -> Int? {
            positions.last { $0 < before }
        }
        let befores = Set(positions.flatMap { [$0, $0 + 1, $0 + 5, $0 + 6, $0 + 7] } + [0, 1, 11, 65_536, 131_072, 200_000, 299_995, 300_000, 400_000])
        bytes.withUnsafeBufferPointer { buffer in
            for before in befores.sorted() {
                #expect(ByteSearch.last(needle, in: buffer, before: before, ignoringCase: true) == reference(before), "before \(before)")
                #expect(ByteSearch.last(needle, in: buffer, before: before, ignoringCase: false) == nil, "case-sensitive, before \(before)")
            }
            #expect(ByteSearch.count(needle, in: buffer, before: 131_071, ignoringCase: true) == 3)
        }
    }

    @Test func textBodiesBreakLongLinesIntoRowsAtCharacterBoundaries() {
        let long = String(repeating: "é", count: 800) // 1,600 bytes on one line
        let document = BodyFormatter.raw(Array("first\r\n\(long)\nlast\ttab".utf8))
        #expect(document.kindName == "text")
        #expect(document.rowCount == 4)
        #expect(document.text(0) == "first")
        #expect(document.text(1) == String(repeating: "é", count: 512))
        #expect(document.text(2) == String(repeating: "é", count: 288))
        #expect(document.text(3) == "last    tab")
        var searchable = document
        let tab = SearchQuery("tab")!
        #expect(searchable.find(tab, from: 0, forward: true, skipCurrent: false) == BodyMatch(row: 3, before: 0))
    }

    @Test("text rows across many blocks start where a line-by-line reading says, and every offset finds its row")
    func textRowsAcrossBlocksMatchALineByLineReading() {
        // Short lines, empty lines, CRLF, lines of exactly 1,024 and 1,025 bytes, and long lines
        // of multi-byte characters, repeated across many blocks of rows; with and without a
        // final newline.
        let pieces = ["a", "", "crlf\r", String(repeating: "x", count: 1_024), String(repeating: "y", count: 1_025), String(repeating: "é", count: 1_500), "last"]
        for ending in ["", "\n"] {
            let text = (0..<40).map { pieces[$0 % pieces.count] + " \($0)" }.joined(separator: "\n") + ending
            let bytes = Array(text.utf8)
            // The rows read line by line: each line cut at 1,024 bytes, back to a character's start.
            var expected: [Range<Int>] = []
            var lineStart = 0
            while lineStart < bytes.count {
                let newline = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
                var rowStart = lineStart
                while newline - rowStart > TextIndex.rowBytes {
                    var cut = rowStart + TextIndex.rowBytes
                    while bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
                    expected.append(rowStart..<cut)
                    rowStart = cut
                }
                expected.append(rowStart..<(newline > rowStart && bytes[newline - 1] == 0x0D ? newline - 1 : newline))
                lineStart = newline + 1
            }
            let index = TextIndex(bytes)
            #expect(index.rowCount == expected.count)
            #expect(index.rowCount > 3 * 16, "many blocks of rows")
            for (row, range) in expected.enumerated() where row < index.rowCount {
                #expect(index.range(of: row) == range, "row \(row)")
                #expect(index.row(containing: range.lowerBound) == row, "row \(row)")
                if !range.isEmpty { #expect(index.row(containing: range.upperBound - 1) == row, "row \(row)") }
            }
        }
    }

    @Test func binaryBodiesShowAsAHexDump() {
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0xFF]
        let document = BodyFormatter.raw(bytes)
        #expect(document.kindName == "hex")
        #expect(document.rowCount == 2)
        #expect(document.text(0) == "00000000  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  |.PNG........IHDR|")
        #expect(document.text(1) == "00000010  ff                                                |.|")
        var searchable = document
        let header = SearchQuery("IHDR")!
        #expect(searchable.find(header, from: 0, forward: true, skipCurrent: false) == BodyMatch(row: 0, before: 0))
    }

    @Test func matchesAreMarkedInTheRowWithoutChangingItsText() throws {
        var state = Fixtures.welcome()
        state.search.query = SearchQuery("ad")
        let line: TokenLine = [Token(.jsonKey, "\"name\""), Token(.jsonPunctuation, ": "), Token(.jsonString, "\"Ada Lovelace, ADA\"")]
        let marked = state.highlighted(line, row: 0)
        #expect(marked.map(\.text).joined() == line.map(\.text).joined())
        #expect(marked.filter { $0.element == .match }.map(\.text) == ["Ad", "AD"])
        // The current match, and only it, is marked brighter.
        state.search.current = SearchMatch(row: 0, ordinal: 1, number: 2)
        let current = state.highlighted(line, row: 0)
        #expect(current.filter { $0.element == .match }.map(\.text) == ["Ad"])
        #expect(current.filter { $0.element == .matchCurrent }.map(\.text) == ["AD"])
        #expect(state.highlighted(line, row: 1).filter { $0.element == .matchCurrent }.isEmpty)
    }

    // MARK: - Keys

    @Test func slashSearchesNAndCapitalNMoveAndYCopiesThePath() throws {
        var state = Fixtures.welcome()
        Fixtures.send(&state, body: Fixtures.userJSON)
        state.setFocus(.response)
        Fixtures.press([.key(.char("/"))] + Fixtures.typing("city") + [.key(KeyEvent(.enter))], into: &state)
        #expect(state.search.query?.text == "city")
        #expect(state.bodyList.selected == 11)
        #expect(state.status?.text == "/city: match 1 of 1")
        // y offers copying the path first (or an assertion on it: ChecksTabTests).
        let effects = Fixtures.press([.key(.char("y")), .key(KeyEvent(.enter))], into: &state)
        guard case .copyToClipboard("$.address.city")? = effects.first, effects.count == 1 else {
            Issue.record("y gave \(effects)")
            return
        }
        Fixtures.press([.key(.char("/"))] + Fixtures.typing("a") + [.key(KeyEvent(.enter))], into: &state)
        let first = try #require(state.search.current)
        Fixtures.press([.key(.char("n"))], into: &state)
        #expect(state.search.current?.number == first.number + 1)
        Fixtures.press([.key(.char("N"))], into: &state)
        #expect(state.search.current == first)
        #expect(state.bodyList.selected == first.row)
        // A fold moves rows under the current match, so it is let go; n goes on from the cursor.
        Fixtures.press([.key(.char("-"))], into: &state)
        #expect(state.search.current == nil)
        Fixtures.press([.key(.char("n"))], into: &state)
        #expect(state.search.current != nil)
        #expect(state.bodyList.selected == state.search.current?.row)
        // Escape closes the field and keeps the last query.
        Fixtures.press([.key(.char("/")), .key(.char("x")), .key(KeyEvent(.escape))], into: &state)
        #expect(state.searchField == nil)
        #expect(state.search.query?.text == "a")
    }

    @Test func nAndCapitalNStepThroughEveryMatchOfARowBeforeLeavingIt() throws {
        var state = Fixtures.welcome()
        // Row 1 holds three matches, row 2 one, row 3 two: six in all.
        Fixtures.send(&state, contentType: "text/plain", body: "intro\nab ab ab\nno\nab\nzz ab ab\n")
        state.setFocus(.response)
        state.responseView = .raw
        state.bodyList = ListState()
        Fixtures.press([.key(.char("/"))] + Fixtures.typing("ab") + [.key(KeyEvent(.enter))], into: &state)
        var visited: [SearchMatch?] = [state.search.current]
        for _ in 0..<6 {
            Fixtures.press([.key(.char("n"))], into: &state)
            visited.append(state.search.current)
        }
        #expect(visited.map { $0.map { [$0.row, $0.ordinal, $0.number] } } == [
            [1, 0, 1], [1, 1, 2], [1, 2, 3], [3, 0, 4], [4, 0, 5], [4, 1, 6], [1, 0, 1],
        ])
        #expect(state.status?.text == "/ab: match 1 of 6 · wrapped around")
        // Backwards: wraps to the last row's last match, then through that row's first.
        Fixtures.press([.key(.char("N"))], into: &state)
        #expect(state.search.current == SearchMatch(row: 4, ordinal: 1, number: 6))
        Fixtures.press([.key(.char("N"))], into: &state)
        #expect(state.search.current == SearchMatch(row: 4, ordinal: 0, number: 5))
        Fixtures.press([.key(.char("N"))], into: &state)
        #expect(state.search.current == SearchMatch(row: 3, ordinal: 0, number: 4))
        Fixtures.press([.key(.char("N"))], into: &state)
        #expect(state.search.current == SearchMatch(row: 1, ordinal: 2, number: 3))
        #expect(state.bodyList.selected == 1)
        // Moving away and pressing n searches on from the row the cursor is on.
        Fixtures.press([.key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(.char("n"))], into: &state)
        #expect(state.search.current == SearchMatch(row: 4, ordinal: 0, number: 5))
    }

    @Test func membersTheSerializerRemovesAreMarkedInThePrettyView() throws {
        var session = Session()
        session.base = "http://127.0.0.1:9/"
        var request = SavedRequest(url: "user")
        request.response.serializer = .json
        request.response.removesNulls = true
        session.requests = [request]
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: session))
        Fixtures.send(&state, body: #"{"a": null, "b": [null, {"c": null}], "d": 1}"#)
        let document = try #require(state.bodyDocument)
        let removed = "  ← removed by the serializer (remove-nulls)"
        #expect((0..<document.rowCount).map(document.text) == [
            "{", "  \"a\": null," + removed, "  \"b\": [", "    null,", "    {", "      \"c\": null" + removed, "    }", "  ],", "  \"d\": 1", "}",
        ])
        // An array's null holds a position and stays; without the option nothing is marked.
        var plain = Fixtures.welcome()
        Fixtures.send(&plain, body: #"{"a": null}"#)
        #expect(try #require(plain.bodyDocument).text(1) == "  \"a\": null")
    }

    @Test func enterAndArrowsFoldTheResponseAndPageDownTurnsThePage() throws {
        var state = Fixtures.welcome()
        Fixtures.send(&state, body: Fixtures.userJSON)
        state.setFocus(.response)
        Fixtures.press([.key(.char("-"))], into: &state)
        let folded = try #require(state.bodyDocument)
        #expect((0..<folded.rowCount).map(folded.text).contains("  \"address\": {…} 2 keys"))
        Fixtures.press([.key(.char("+")), .key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(KeyEvent(.down))], into: &state)
        #expect(try #require(state.bodyDocument).text(state.bodyList.selected) == "    \"math\",")
        Fixtures.press([.key(KeyEvent(.left))], into: &state)
        #expect(try #require(state.bodyDocument).text(state.bodyList.selected) == "  \"tags\": […] 2 items,")
        Fixtures.press([.key(KeyEvent(.enter))], into: &state)
        #expect(try #require(state.bodyDocument).text(state.bodyList.selected) == "  \"tags\": [")
        state.bodyList = ListState()
        Fixtures.press([.key(KeyEvent(.pageDown))], into: &state)
        #expect(state.bodyList.selected == state.responseViewport - 1)
        #expect(state.bodyList.offset == min(state.responseViewport - 1, try #require(state.bodyDocument).rowCount - state.responseViewport))
    }

    @Test func aPropertyListIsOutlinedLikeJSONWithFoldsAndPaths() throws {
        var state = Fixtures.welcome()
        let plist = #"<?xml version="1.0"?><plist version="1.0"><dict><key>name</key><string>Ada</string><key>tags</key><array><string>math</string></array></dict></plist>"#
        Fixtures.send(&state, contentType: "application/x-plist", body: plist)
        let document = try #require(state.bodyDocument)
        #expect(document.folds)
        #expect((0..<document.rowCount).map(document.text) == ["{", "  \"name\": \"Ada\",", "  \"tags\": [", "    \"math\"", "  ]", "}"])
        #expect(document.path(at: 3) == "$.tags[0]")
    }

    @Test func aLargeBodyKeepsItsBytesAndOutlineButNotTheDecodedTree() throws {
        var state = Fixtures.welcome()
        let items = (0..<40_000).map { #"{"id": \#($0), "name": "user \#($0)"}"# }.joined(separator: ",")
        Fixtures.send(&state, body: "[\(items)]")
        let result = try #require(state.exchange?.result)
        #expect(result.data.count > BodyFormatter.decodedTreeLimit)
        #expect(result.serialization?.body == DecodedBody.none)
        #expect(result.serialization?.isValid == true)
        let document = try #require(state.bodyDocument)
        #expect(document.rowCount == 40_000 * 4 + 2)
        #expect(document.text(159_999) == "    \"name\": \"user 39999\"")
    }
}

/// A large body is laid out as soon as it has arrived, while the serializer decodes it.
@Suite("Bodies shown while they are decoded")
struct EarlyBodyTests {
    private func headerText(_ state: AppState) -> String {
        state.responseHeaderLines.map { $0.map(\.text).joined() }.joined(separator: "\n")
    }

    /// 40,000 small records: a JSON body past ``TaskEvent/earlyBodyBytes``.
    static let records = "[" + (0..<40_000).map { #"{"id": \#($0), "note": null}"# }.joined(separator: ",") + "]"

    /// A send pressed in the TUI.
    private struct Sent {
        var id: Int
        var request: HTTPRequest
        var plan: SendPlan

        /// The result `body` gets, and the same as `.bodyReceived` posts it, before its decoding.
        func results(status: Int = 200, contentType: String = "application/json", body: String = records) -> (final: TaskResult, early: TaskResult) {
            let final = Fixtures.result(for: request, status: status, contentType: contentType, body: body, serializer: plan.options.responseSerializer)
            var early = final
            early.serialization = nil
            return (final, early)
        }
    }

    private func sent(_ state: inout AppState) throws -> Sent {
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, plan)? = effects.first else { throw BodyTestFailure("send produced \(effects)") }
        return Sent(id: id, request: request, plan: plan)
    }

    @Test("a large JSON body is outlined before it is decoded, the outline is kept once it is, and the status says which stage it is at")
    func jsonWhileDecoding() throws {
        var state = Fixtures.welcome(width: 120, height: 40)
        let send = try sent(&state)
        let id = send.id
        #expect(Self.records.utf8.count > TaskEvent.earlyBodyBytes)
        let (final, early) = send.results()
        _ = state.update(.task(exchange: id, .bodyReceived(early), at: 0.5))
        #expect(state.exchange?.result == nil)
        #expect(state.bodyDocument?.kindName == "JSON outline")
        #expect(state.bodyDocument?.text(1) == "  {")
        #expect(headerText(state).contains("200 OK"))
        #expect(headerText(state).contains("validating and decoding the body"))
        #expect(!headerText(state).contains("✓ valid"))
        let milestone = state.exchange?.milestones.last?.event ?? ""
        #expect(milestone.hasPrefix("body received: ") && milestone.hasSuffix("; validating and decoding"), "\(milestone)")
        let rows = state.bodyDocument?.rowCount

        _ = state.update(.task(exchange: id, .completed(final), at: 0.9))
        #expect(state.exchange?.decoding == nil)
        #expect(state.exchange?.result != nil)
        #expect(headerText(state).contains("✓ valid"))
        #expect(!headerText(state).contains("validating and decoding"))
        #expect(state.bodyDocument?.kindName == "JSON outline")
        #expect(state.bodyDocument?.rowCount == rows)
        #expect(state.bodyDocument?.rowCount == BodyFormatter.pretty(final).rowCount)
    }

    @Test("a large body the serializer will not decode as JSON is shown as text from the start, not outlined and then unfolded")
    func otherBodiesStayText() throws {
        var state = Fixtures.welcome(width: 120, height: 40)
        let send = try sent(&state)
        let id = send.id
        // JSON bytes sent as plain text: the compound serializer takes them as data.
        let (final, early) = send.results(contentType: "text/plain")
        guard case .data? = final.serialization?.body else { throw BodyTestFailure("expected data, got \(String(describing: final.serialization?.body))") }
        _ = state.update(.task(exchange: id, .bodyReceived(early), at: 0.5))
        #expect(state.bodyDocument?.kindName == "text")
        _ = state.update(.task(exchange: id, .completed(final), at: 0.9))
        #expect(state.bodyDocument?.kindName == "text")
        #expect(state.exchange?.keptEarlyLayout == false)
    }

    @Test("the views start at the top of the new body, and a place taken while it decodes is kept once it has")
    func placeKeptAcrossTheDecoding() throws {
        var state = Fixtures.welcome(width: 120, height: 40)
        let send = try sent(&state)
        let id = send.id
        let (final, early) = send.results()
        state.bodyList.selected = 500
        _ = state.update(.task(exchange: id, .bodyReceived(early), at: 0.5))
        #expect(state.bodyList.selected == 0)
        #expect(state.responseView == .pretty)
        state.bodyList.selected = 120
        _ = state.update(.task(exchange: id, .completed(final), at: 0.9))
        #expect(state.exchange?.keptEarlyLayout == true)
        #expect(state.bodyList.selected == 120)
    }

    @Test("a body is outlined early only when its serializer decodes its content type as JSON")
    func whichBodiesAreOutlinedEarly() {
        func response(_ type: String) -> HTTPResponse {
            HTTPResponse(url: URLReference(parsing: "http://127.0.0.1/x"), statusCode: 200, headers: HTTPHeaders([("Content-Type", type)]))
        }
        var anyType = JSONResponseSerializer()
        anyType.acceptableContentTypes = nil
        #expect(BodyFormatter.decodesJSON(response("application/json; charset=utf-8"), with: JSONResponseSerializer()))
        #expect(!BodyFormatter.decodesJSON(response("text/plain"), with: JSONResponseSerializer()))
        #expect(BodyFormatter.decodesJSON(response("text/plain"), with: anyType))
        #expect(BodyFormatter.decodesJSON(response("text/json"), with: CompoundResponseSerializer()))
        #expect(!BodyFormatter.decodesJSON(response("application/xml"), with: CompoundResponseSerializer()))
        #expect(!BodyFormatter.decodesJSON(response("application/json"), with: CompoundResponseSerializer(serializers: [XMLResponseSerializer()])))
        #expect(!BodyFormatter.decodesJSON(response("application/json"), with: HTTPResponseSerializer()))
        #expect(!BodyFormatter.decodesJSON(response("application/json"), with: nil))
    }

    @Test("a flow's next run shows its own status while its body decodes, not the last run's")
    func nextRunShowsItsOwnHead() throws {
        var state = Fixtures.welcome(width: 120, height: 40)
        let send = try sent(&state)
        let id = send.id
        _ = state.update(.task(exchange: id, .completed(send.results().final), at: 0.5))
        #expect(headerText(state).contains("200 OK"))
        // The same exchange's next run: its body arrives while the first run's result is kept.
        _ = state.update(.task(exchange: id, .bodyReceived(send.results(status: 201).early), at: 1.0))
        #expect(headerText(state).contains("201 Created"))
        #expect(headerText(state).contains("validating and decoding the body"))
        #expect(!headerText(state).contains("200 OK"))
    }
}

struct BodyTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
