import Testing
import TerminalUI

@Suite("Text width and the screen buffer")
struct ScreenBufferTests {
    @Test func measuresWideAndZeroWidthCharacters() {
        #expect(TextWidth.of("abc") == 3)
        #expect(TextWidth.of("日本") == 4)
        #expect(TextWidth.of("🙂") == 2)
        #expect(TextWidth.of("e\u{301}") == 1)
        #expect(TextWidth.of("👩‍💻") == 2)
        // A one-column base with VS16 stays one column, and the selector is dropped for display.
        #expect(TextWidth.of(Character("✔\u{FE0F}")) == 1)
        #expect(TextWidth.displayForm(of: "✔\u{FE0F}") == "✔")
    }

    @Test func writesWideCharactersAsACellAndAContinuation() {
        var buffer = ScreenBuffer(width: 6, height: 1)
        let used = buffer.write("a日b", x: 0, y: 0, style: .plain)
        #expect(used == 4)
        #expect(buffer[1, 0].text == "日")
        #expect(buffer[2, 0].isContinuation)
        #expect(buffer.lines == ["a日b"])
    }

    @Test func replacesAWideCharacterCutAtTheEdgeWithASpace() {
        var buffer = ScreenBuffer(width: 3, height: 1)
        buffer.write("ab日", x: 0, y: 0, style: .plain)
        #expect(buffer.lines == ["ab"])
        #expect(!buffer[2, 0].isContinuation)
    }

    @Test func overwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
        var buffer = ScreenBuffer(width: 4, height: 1)
        buffer.write("日本", x: 0, y: 0, style: .plain)
        buffer.write("x", x: 1, y: 0, style: .plain)
        #expect(buffer.lines == [" x本"])
    }

    @Test func showsControlCharactersAsDots() {
        var buffer = ScreenBuffer(width: 5, height: 1)
        buffer.write("a\tb", x: 0, y: 0, style: .plain)
        #expect(buffer.lines == ["a·b"])
    }

    @Test func diffReportsOnlyChangedRuns() {
        var old = ScreenBuffer(width: 20, height: 2)
        old.write("hello world", x: 0, y: 0, style: .plain)
        var new = old
        new.write("W", x: 6, y: 0, style: .plain)
        new.write("z", x: 19, y: 1, style: .plain)
        let changes = new.diff(from: old)
        #expect(changes.count == 2)
        #expect(changes[0].x == 6 && changes[0].y == 0 && changes[0].cells.map(\.text) == ["W"])
        #expect(changes[1].x == 19 && changes[1].y == 1)
        #expect(new.diff(from: new).isEmpty)
    }

    @Test func diffFoldsSmallGapsAndRedrawsEverythingWithoutAPreviousFrame() {
        var old = ScreenBuffer(width: 10, height: 1)
        old.write("abcdefghij", x: 0, y: 0, style: .plain)
        var new = old
        new.write("X", x: 1, y: 0, style: .plain)
        new.write("Y", x: 3, y: 0, style: .plain)
        #expect(new.diff(from: old).map(\.cells.count) == [3])
        #expect(new.diff(from: nil).map(\.cells.count) == [10])
    }

    @Test func diffNeverStartsOnTheRightHalfOfAWideCharacter() {
        var old = ScreenBuffer(width: 4, height: 1)
        old.write("日", x: 0, y: 0, style: .plain)
        var new = old
        new.write("日", x: 0, y: 0, style: Style(attributes: .bold))
        let changes = new.diff(from: old)
        #expect(changes.first?.x == 0)
        #expect(changes.first?.cells.first?.text == "日")
    }
}

@Suite("Layout and focus")
struct LayoutTests {
    @Test func splitsFixedPercentAndFillParts() {
        let parts = Rect(x: 0, y: 0, width: 100, height: 10).split(.horizontal, [.fixed(10), .percent(30), .fill, .fill])
        #expect(parts.map(\.width) == [10, 30, 30, 30])
        #expect(parts.map(\.x) == [0, 10, 40, 70])
    }

    @Test func shrinksFromTheEndWhenPartsDoNotFit() {
        let parts = Rect(x: 0, y: 0, width: 10, height: 10).split(.vertical, [.fixed(4), .fixed(4), .fixed(4)])
        #expect(parts.map(\.height) == [4, 4, 2])
    }

    @Test func focusRingWrapsBothWays() {
        var ring = FocusRing(["a", "b", "c"])
        ring.previous()
        #expect(ring.current == "c")
        ring.next()
        ring.next()
        #expect(ring.current == "b")
        ring.focus("zzz")
        #expect(ring.current == "b")
    }

    @Test func hitMapReturnsTheTopmostRegion() {
        var hits = HitMap<String>()
        hits.add(Rect(x: 0, y: 0, width: 10, height: 10), "pane")
        hits.add(Rect(x: 2, y: 0, width: 3, height: 1), "tab")
        #expect(hits.target(x: 3, y: 0) == "tab")
        #expect(hits.target(x: 8, y: 5) == "pane")
        #expect(hits.target(x: 20, y: 5) == nil)
    }
}

@Suite("Keys and keymaps")
struct KeyTests {
    @Test func parsesAndPrintsKeySpecs() throws {
        #expect(try KeyEvent(parsing: "ctrl+r") == .ctrl("r"))
        #expect(try KeyEvent(parsing: "Ctrl+R") == .ctrl("r"))
        #expect(try KeyEvent(parsing: "f5") == KeyEvent(.function(5)))
        #expect(try KeyEvent(parsing: "shift+tab") == KeyEvent(.tab, .shift))
        #expect(try KeyEvent(parsing: "alt+enter") == KeyEvent(.enter, .alt))
        #expect(try KeyEvent(parsing: "?") == .char("?"))
        #expect(try KeyEvent(parsing: "space") == .char(" "))
        #expect(try KeyEvent(parsing: "ctrl++") == KeyEvent(.character("+"), .control))
        for spec in ["ctrl+r", "f5", "shift+tab", "alt+enter", "pgdn", "?", "space"] {
            #expect(try KeyEvent(parsing: spec).description == spec)
        }
    }

    @Test func refusesUnknownKeysModifiersAndTheTmuxPrefix() {
        #expect(throws: KeySpecError.self) { try KeyEvent(parsing: "hyper+x") }
        #expect(throws: KeySpecError.self) { try KeyEvent(parsing: "ctrl+banana") }
        #expect(throws: KeySpecError.self) { try KeyEvent(parsing: "f99") }
        do {
            _ = try KeyEvent(parsing: "ctrl+b")
            Issue.record("ctrl+b was accepted")
        } catch {
            #expect("\(error)".contains("tmux"))
        }
    }

    enum TestAction: String, Hashable, Sendable { case send, quit, add }

    let table: [KeyBinding<TestAction>] = [
        KeyBinding([.ctrl("r")], .send, label: "send", help: "Send", inFooter: true),
        KeyBinding([.ctrl("c")], .quit, label: "quit", help: "Quit"),
        KeyBinding([.char("a")], .add, label: "add", help: "Add", scope: "list", inFooter: true),
    ]

    @Test func dispatchesByScopeInnermostFirst() {
        let keymap = Keymap(table)
        #expect(keymap.action(for: .char("a"), in: ["list", "global"]) == .add)
        #expect(keymap.action(for: .char("a"), in: ["global"]) == nil)
        #expect(keymap.action(for: .ctrl("r"), in: ["list", "global"]) == .send)
        #expect(keymap.footer(in: ["list", "global"]).map(\.action) == [.add, .send])
    }

    @Test func overridesReplaceTheKeysOfNamedActions() throws {
        var keymap = Keymap(table)
        try keymap.override(with: [(action: "send", keys: ["f9", "alt+s"])], naming: \.rawValue)
        #expect(keymap.action(for: KeyEvent(.function(9)), in: ["global"]) == .send)
        #expect(keymap.action(for: .ctrl("r"), in: ["global"]) == nil)
        #expect(keymap.binding(for: .quit)?.keys == [.ctrl("c")])
    }

    @Test func overridesRefuseUnknownActionsAndClashes() {
        var keymap = Keymap(table)
        #expect(throws: KeymapError.unknownAction("fly", known: "send, quit, add")) {
            try keymap.override(with: [(action: "fly", keys: ["f9"])], naming: \.rawValue)
        }
        var clashing = Keymap(table)
        #expect(throws: KeymapError.self) {
            try clashing.override(with: [(action: "send", keys: ["ctrl+c"])], naming: \.rawValue)
        }
    }
}

@Suite("Text field")
struct TextFieldTests {
    private func type(_ text: String, into field: inout TextField) {
        for character in text { field.handle(.key(.char(character))) }
    }

    @Test func typesMovesAndDeletes() {
        var field = TextField()
        type("hello world", into: &field)
        field.handle(.key(.ctrl("a")))
        field.handle(.key(KeyEvent(.delete)))
        #expect(field.text == "ello world")
        field.handle(.key(KeyEvent(.end)))
        field.handle(.key(KeyEvent(.backspace)))
        #expect(field.text == "ello worl")
        #expect(field.cursor == 9)
    }

    @Test func jumpsByWords() {
        var field = TextField("http://example.com/path")
        field.handle(.key(.alt("b")))
        #expect(field.cursor == 19)
        field.handle(.key(KeyEvent(.left, .control)))
        #expect(field.cursor == 15)
        field.handle(.key(.ctrl("a")))
        field.handle(.key(.alt("f")))
        #expect(field.cursor == 4)
    }

    @Test func killsAndYanks() {
        var field = TextField("GET /users/42")
        field.handle(.key(.ctrl("w")))
        #expect(field.text == "GET /users/")
        #expect(field.killBuffer == "42")
        field.handle(.key(.ctrl("a")))
        field.handle(.key(.ctrl("k")))
        #expect(field.text == "")
        field.handle(.key(.ctrl("y")))
        #expect(field.text == "GET /users/")
        field.handle(.key(.ctrl("u")))
        #expect(field.text == "")
    }

    @Test func undoesTypingAsOneStepAndEditsOneAtATime() {
        var field = TextField("a")
        type("bcd", into: &field)
        field.handle(.key(.ctrl("w")))
        #expect(field.text == "")
        field.handle(.key(.ctrl("_")))
        #expect(field.text == "abcd")
        field.handle(.key(.ctrl("_")))
        #expect(field.text == "a")
    }

    @Test func pastesAsTextOnOneLine() {
        var field = TextField()
        field.handle(.paste("line one\nline two"))
        #expect(field.text == "line one line two")
        field.handle(.key(.ctrl("_")))
        #expect(field.text == "")
    }

    @Test func leavesUnknownKeysToTheCaller() {
        var field = TextField("x")
        let usedCtrlR = field.handle(.key(.ctrl("r")))
        let usedTab = field.handle(.key(KeyEvent(.tab)))
        #expect(!usedCtrlR && !usedTab)
        #expect(field.text == "x")
    }

    @Test func scrollsToKeepTheCursorVisible() {
        var field = TextField("0123456789abcdef")
        var buffer = ScreenBuffer(width: 8, height: 1)
        field.render(into: &buffer, at: Rect(x: 0, y: 0, width: 8, height: 1), style: .plain, focused: true)
        #expect(buffer.lines == ["9abcdef"])
        #expect(buffer.cursor == Point(x: 7, y: 0))
    }
}

@Suite("Multi-line editor")
struct TextAreaTests {
    @Test func splitsAndJoinsLines() {
        var area = TextArea("{}")
        area.handle(.key(KeyEvent(.right)))
        area.handle(.key(KeyEvent(.enter)))
        #expect(area.text == "{\n}")
        area.handle(.key(KeyEvent(.backspace)))
        #expect(area.text == "{}")
        area.handle(.paste("\n  \"a\": 1\n"))
        #expect(area.text == "{\n  \"a\": 1\n}")
        #expect(area.row == 2 && area.column == 0)
        area.handle(.key(.ctrl("_")))
        #expect(area.text == "{}")
    }

    @Test("typing past the right edge scrolls the view sideways: the cursor and the last characters typed stay in view")
    func longLinesScrollSideways() {
        var area = TextArea()
        let text = String(repeating: "abcdefghij", count: 6) + "XYZ"
        for character in text { area.handle(.key(.char(character))) }
        var buffer = ScreenBuffer(width: 30, height: 3)
        let rect = Rect(x: 0, y: 0, width: 30, height: 3)
        area.render(into: &buffer, at: rect, style: Style(), gutterStyle: Style(), focused: true)
        let cursor = buffer.cursor!
        #expect(cursor.x < rect.maxX, "the cursor sits inside the box, not on its border")
        #expect(buffer.lines[0].hasSuffix("XYZ"), "\(buffer.lines[0])")
        // Home brings the start of the line back.
        area.handle(.key(KeyEvent(.home)))
        area.render(into: &buffer, at: rect, style: Style(), gutterStyle: Style(), focused: true)
        #expect(buffer.lines[0].hasPrefix(" 1 abcdefghij"), "\(buffer.lines[0])")
    }

    @Test("alt+a selects everything and backspace clears it: two keys for any body; typing replaces a selection")
    func selectAllThenClear() {
        var area = TextArea((1...17).map { "line \($0)" }.joined(separator: "\n"))
        area.handle(.key(.alt("a")))
        #expect(area.selection != nil)
        area.handle(.key(KeyEvent(.backspace)))
        #expect(area.text == "")
        area.handle(.key(.ctrl("_")))
        #expect(area.text.hasPrefix("line 1\nline 2"))
        area.handle(.key(.alt("a")))
        area.handle(.key(.char("x")))
        #expect(area.text == "x")
    }

    @Test("ctrl+k kills to the end of the line, and at its end joins the next (readline's rule); ctrl+y yanks it back")
    func ctrlKJoinsLinesAtTheirEnd() {
        var area = TextArea("one two\nthree\nfour")
        area.handle(.key(.alt("f")))
        area.handle(.key(.ctrl("k")))
        #expect(area.text == "one\nthree\nfour")
        area.handle(.key(.ctrl("k")))
        #expect(area.text == "onethree\nfour")
        area.handle(.key(.ctrl("k")))
        #expect(area.text == "one\nfour")
        area.handle(.key(.ctrl("y")))
        #expect(area.text == "onethree\nfour")
    }

    @Test("shift with the arrows selects across lines; ctrl+w and alt+d kill words; the revision counts edits, not moves")
    func shiftArrowsSelectAndWordKills() {
        var area = TextArea("alpha beta\ngamma")
        let start = area.revision
        area.handle(.key(KeyEvent(.right, .shift)))
        area.handle(.key(KeyEvent(.down, .shift)))
        #expect(area.revision == start, "moving is not an edit")
        area.handle(.key(KeyEvent(.delete)))
        #expect(area.text == "amma")
        #expect(area.revision > start)
        area.text = "alpha beta gamma"
        area.handle(.key(KeyEvent(.end)))
        area.handle(.key(.ctrl("w")))
        #expect(area.text == "alpha beta ")
        area.handle(.key(KeyEvent(.home)))
        area.handle(.key(.alt("d")))
        #expect(area.text == " beta ")
    }
}

@Suite("Tree editor")
struct TreeEditorTests {
    private func sample() -> TreeEditor {
        TreeEditor(root: TreeNode(key: "", value: .object, children: [
            TreeNode(key: "name", value: .string("x")),
            TreeNode(key: "tags", value: .array, children: [TreeNode(key: "0", value: .string("a"))]),
        ]))
    }

    @Test func addsInsideContainersAndAfterLeaves() throws {
        var tree = sample()
        try tree.add(key: "page", value: .number("2"))
        #expect(tree.root.children.map(\.key) == ["name", "tags", "page"])
        tree.select(path: [1])
        try tree.add(key: "ignored")
        #expect(tree.root.children[1].children.map(\.key) == ["0", "1"])
        tree.select(path: [0])
        try tree.add(key: "after")
        #expect(tree.root.children.map(\.key) == ["name", "after", "tags", "page"])
    }

    @Test func refusesDuplicateAndEmptyKeysInObjects() {
        var tree = sample()
        #expect(throws: TreeEditError.duplicateKey("name")) { try tree.add(key: "name") }
        #expect(throws: TreeEditError.emptyKey) { try tree.add(key: "") }
    }

    @Test func removesAndRenumbersArrays() throws {
        var tree = sample()
        tree.select(path: [1])
        try tree.add(key: "", value: .string("b"))
        tree.select(path: [1, 0])
        try tree.removeSelected()
        #expect(tree.root.children[1].children == [TreeNode(key: "0", value: .string("b"))])
        tree.select(path: [])
        #expect(throws: TreeEditError.cannotRemoveRoot) { try tree.removeSelected() }
    }

    @Test func renamesObjectKeysButNotArrayElements() throws {
        var tree = sample()
        tree.select(path: [0])
        try tree.renameSelected(to: "title")
        #expect(tree.root.children[0].key == "title")
        tree.select(path: [1, 0])
        #expect(throws: TreeEditError.arrayElementsHaveNoNames) { try tree.renameSelected(to: "x") }
    }

    @Test func typesValuesAndRefusesBadNumbers() throws {
        var tree = sample()
        tree.select(path: [0])
        try tree.setSelectedValue(.number, text: "-1.5e3")
        #expect(tree.selectedNode.value == .number("-1.5e3"))
        #expect(throws: TreeEditError.notANumber("1.2.3")) { try tree.setSelectedValue(.number, text: "1.2.3") }
        try tree.setSelectedValue(.bool, text: "false")
        #expect(tree.selectedNode.value == .bool(false))
        tree.cycleSelectedType()
        #expect(tree.selectedNode.value == .null)
        tree.cycleSelectedType()
        #expect(tree.selectedNode.value == .array)
    }

    @Test func collapsingHidesChildrenAndLeftGoesToTheParent() {
        var tree = sample()
        tree.select(path: [1])
        tree.collapseOrSelectParent()
        #expect(tree.rows.count == 3)
        tree.collapseOrSelectParent()
        #expect(tree.selectedPath == [])
        tree.select(path: [1])
        tree.setExpanded(true)
        #expect(tree.rows.count == 4)
    }
}

@Suite("Progress bars and colours")
struct ProgressAndColorTests {
    @Test func fillsWithEighthBlocks() {
        #expect(ProgressBar(fraction: 0.5).text(width: 10) == ("█████", "░░░░░"))
        #expect(ProgressBar(fraction: 0.55).text(width: 10) == ("█████▌", "░░░░"))
        #expect(ProgressBar(fraction: 1).text(width: 4) == ("████", ""))
        let moving = ProgressBar(fraction: nil, phase: 3).text(width: 10)
        #expect(moving.filled.contains("█") && TextWidth.of(moving.filled + moving.empty) == 10)
    }

    @Test func mapsColoursDownTo256And8() {
        #expect(Color.rgb(0, 0, 0).nearest256 == .indexed(16))
        #expect(Color.rgb(255, 255, 255).nearest256 == .indexed(231))
        #expect(Color.rgb(128, 128, 128).nearest256 == .indexed(244))
        #expect(Color.rgb(230, 20, 20).nearest8 == .red)
        #expect(Color.indexed(12).nearest8 == .blue)
        #expect(Color(parsing: "#abc") == .rgb(0xAA, 0xBB, 0xCC))
        #expect(Color(parsing: "bright-blue") == .indexed(12))
        #expect(Color(parsing: "mauve") == nil)
    }

    @Test func partialThemesMergeOverTheBase() {
        let base = Theme(name: "base", palette: Palette(primary: .blue, accent: .magenta, success: .green, warning: .yellow, error: .red, info: .cyan, text: .default, muted: .brightBlack, background: .default, surface: .black, border: .white, selection: .blue))
        let merged = base.merging(PartialTheme(name: "mine", palette: ["primary": .red], styles: [.jsonKey: StyleSpec(foreground: .palette("accent"), attributes: .bold)]))
        #expect(merged.name == "mine")
        #expect(merged.style(.title).foreground == .red)
        #expect(merged.style(.jsonKey) == Style(foreground: .magenta, background: .default, attributes: .bold))
        #expect(merged.style(.error) == base.style(.error))
    }
}
