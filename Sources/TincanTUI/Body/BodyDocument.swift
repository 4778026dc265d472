import TerminalUI
import TincanCore

/// A search match: its display row, and how many matches come before it in the whole body (so
/// it is match `before + 1` of ``BodyDocument/matchCount(_:)``).
public struct BodyMatch: Sendable, Equatable {
    public var row: Int
    public var before: Int

    public init(row: Int, before: Int) {
        self.row = row
        self.before = before
    }
}

/// A response body laid out for the Pretty or Raw view, at any size: rows are built only when
/// drawn, and search runs over the bytes.
public struct BodyDocument: Sendable {
    enum Layout: Sendable {
        /// Lines built in advance (small decoded bodies: XML, property lists, image facts).
        case lines([TokenLine])
        case text(TextIndex)
        case json(JSONOutline)
        case hex(HexDump)
    }

    var layout: Layout
    /// The body path of each row, for a document laid out from selected values (the JSON
    /// filter's), whose rows are not an outline of the body.
    var rowPaths: [String]?

    /// An empty document.
    public init(lines: [TokenLine] = []) {
        layout = .lines(lines)
    }

    init(_ layout: Layout) {
        self.layout = layout
    }

    /// Rows shown.
    public var rowCount: Int {
        switch layout {
        case let .lines(lines): lines.count
        case let .text(index): index.rowCount
        case let .json(outline): outline.rowCount
        case let .hex(dump): dump.rowCount
        }
    }

    /// The row at `display`, highlighted.
    public func line(_ display: Int) -> TokenLine {
        switch layout {
        case let .lines(lines): lines[display]
        case let .text(index): [Token(.base, index.text(of: display))]
        case let .json(outline): outline.line(display)
        case let .hex(dump): dump.line(display)
        }
    }

    /// The row's text as drawn.
    public func text(_ display: Int) -> String {
        line(display).map(\.text).joined()
    }

    /// Whether the document is a JSON body's outline.
    var outlinesJSON: Bool {
        if case .json = layout { true } else { false }
    }

    /// Marks the members a serializer's null removal dropped, on a JSON outline.
    mutating func marksRemovedNulls(_ marks: Bool) {
        guard case var .json(outline) = layout else { return }
        outline.marksRemovedNulls = marks
        layout = .json(outline)
    }

    /// Whether rows fold (a JSON outline).
    public var folds: Bool {
        if case .json = layout { return true }
        return false
    }

    /// Which kind of view this is, for the status line.
    public var kindName: String {
        switch layout {
        case .lines: "decoded"
        case .text: "text"
        case .json: "JSON outline"
        case .hex: "hex"
        }
    }

    // MARK: - Search

    /// The next match at or after (or before) `display`, searching the body's bytes (so rows
    /// are not built for the search) and unfolding what hides the match.
    ///
    /// - Parameters:
    ///   - from: The display row the search starts on; `forward` searches after its first byte.
    ///   - skipCurrent: Whether a match on the `from` row itself is passed over.
    /// - Returns: The display row of the match and how many matches come before it in the body,
    ///   or nil when there is none (the search wraps).
    public mutating func find(_ query: SearchQuery, from: Int, forward: Bool, skipCurrent: Bool) -> BodyMatch? {
        switch layout {
        case let .lines(lines):
            guard !lines.isEmpty else { return nil }
            for step in 0..<lines.count {
                let offset = skipCurrent ? step + 1 : step
                let row = ((from + (forward ? offset : -offset)) % lines.count + lines.count) % lines.count
                let onRow = query.ranges(in: lines[row].map(\.text).joined()).count
                guard onRow > 0 else { continue }
                let before = lines[..<row].reduce(0) { $0 + query.ranges(in: $1.map(\.text).joined()).count }
                return BodyMatch(row: row, before: before + (forward ? 0 : onRow - 1))
            }
            return nil
        case let .text(index):
            let range = index.range(of: from)
            guard let offset = Self.search(query, in: index.bytes, rowStart: Int(range.lowerBound), rowEnd: range.upperBound, forward: forward, skipCurrent: skipCurrent) else { return nil }
            return BodyMatch(row: index.row(containing: offset), before: Self.count(query, in: index.bytes, before: offset))
        case var .json(outline):
            let row = outline.row(at: from)
            let start = outline.byteRange(of: row)
            guard let offset = Self.search(query, in: outline.bytes, rowStart: start.lowerBound, rowEnd: start.upperBound, forward: forward, skipCurrent: skipCurrent) else { return nil }
            let found = outline.row(containing: offset)
            outline.reveal(found)
            layout = .json(outline)
            return BodyMatch(row: outline.display(of: found), before: Self.count(query, in: outline.bytes, before: offset))
        case let .hex(dump):
            let start = from * HexDump.rowBytes
            guard let offset = Self.search(query, in: dump.bytes, rowStart: start, rowEnd: start + HexDump.rowBytes, forward: forward, skipCurrent: skipCurrent) else { return nil }
            return BodyMatch(row: offset / HexDump.rowBytes, before: Self.count(query, in: dump.bytes, before: offset))
        }
    }

    /// How many times the query occurs in the whole body.
    public func matchCount(_ query: SearchQuery) -> Int {
        switch layout {
        case let .lines(lines): lines.reduce(0) { $0 + query.ranges(in: $1.map(\.text).joined()).count }
        case let .text(index): Self.count(query, in: index.bytes)
        case let .json(outline): Self.count(query, in: outline.bytes)
        case let .hex(dump): Self.count(query, in: dump.bytes)
        }
    }

    /// How many matches start before `before` (all of them by default).
    private static func count(_ query: SearchQuery, in bytes: [UInt8], before: Int = .max) -> Int {
        bytes.withUnsafeBufferPointer { ByteSearch.count(query.needle, in: $0, before: before, ignoringCase: !query.isCaseSensitive) }
    }

    /// A byte search that starts on a row and wraps around the end (or the start).
    private static func search(_ query: SearchQuery, in bytes: [UInt8], rowStart: Int, rowEnd: Int, forward: Bool, skipCurrent: Bool) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            let ignoring = !query.isCaseSensitive
            if forward {
                let from = skipCurrent ? max(rowEnd, rowStart + 1) : rowStart
                return ByteSearch.first(query.needle, in: buffer, from: from, ignoringCase: ignoring)
                    ?? ByteSearch.first(query.needle, in: buffer, from: 0, ignoringCase: ignoring)
            }
            return ByteSearch.last(query.needle, in: buffer, before: rowStart, ignoringCase: ignoring)
                ?? ByteSearch.last(query.needle, in: buffer, before: buffer.count, ignoringCase: ignoring)
        }
    }

    // MARK: - Folding and paths

    /// Folds or unfolds the container at (or closed at) `display`; returns the display row of its
    /// opening bracket, or nil when the row is not a container.
    public mutating func toggleFold(at display: Int) -> Int? {
        guard case var .json(outline) = layout, let row = outline.container(at: display) else { return nil }
        outline.setFolded(row, !outline.isFolded(row))
        layout = .json(outline)
        return outline.display(of: row)
    }

    /// Folds (or unfolds) the container at `display`; when it is not a container or is already
    /// folded, moves to its parent instead. Returns the display row to select.
    public mutating func fold(at display: Int, _ fold: Bool) -> Int {
        guard case var .json(outline) = layout else { return display }
        defer { layout = .json(outline) }
        if let row = outline.container(at: display), outline.isFolded(row) != fold {
            outline.setFolded(row, fold)
            return outline.display(of: row)
        }
        if fold, let parent = outline.parent(of: outline.row(at: display)) {
            outline.setFolded(parent, true)
            return outline.display(of: parent)
        }
        return display
    }

    /// Folds every top-level member, or unfolds everything.
    public mutating func foldTopLevel(_ fold: Bool) {
        guard case var .json(outline) = layout else { return }
        outline.foldTopLevel(fold)
        layout = .json(outline)
    }

    /// The body path of the value at `display` (`$.tags[0]`), or nil when the view has no paths.
    public func path(at display: Int) -> String? {
        if let rowPaths { return rowPaths.indices.contains(display) ? rowPaths[display] : nil }
        guard case let .json(outline) = layout, display < outline.rowCount else { return nil }
        return outline.path(at: display)
    }

    /// The value at `display` as the body holds it (the container a closing bracket ends), or
    /// nil when the view has no paths.
    public func value(at display: Int) -> ParameterValue? {
        guard case let .json(outline) = layout, display < outline.rowCount else { return nil }
        return outline.value(at: display)
    }
}
