import TerminalUI
import TincanCore
import TincanSessions

/// A JSON body as an outline of rows read straight from its bytes: one row per scalar, per
/// opening bracket and per closing bracket, as a pretty printer would write them.
///
/// The outline keeps one byte a row (its kind) and, for every block of 64 rows, where the
/// block starts in the body and how deep its rows go: under 1.2 bytes a row, so a 50 MB body
/// of 4 million rows costs 4.7 MB beside its bytes. Everything else is read from the bytes when
/// it is asked for: a row's start by stepping over the rows before it in its block, a
/// container's closing row by skipping the blocks that lie deeper than it, and each row's
/// text and depth when it is drawn. Containers fold; the rows a fold hides are counted by the
/// outermost folds alone, so a fold costs a few bytes however many rows it hides.
struct JSONOutline: Sendable {
    /// What a row holds. `keyed` is or-ed in when the row starts with an object key, `empty`
    /// when an opening row's container has nothing in it (it has no closing row then).
    enum Kind: UInt8 {
        case objectOpen, arrayOpen, objectClose, arrayClose, string, number, literal
        static let keyed: UInt8 = 0x80
        static let empty: UInt8 = 0x40
        static let flags: UInt8 = keyed | empty
    }

    /// 64 rows of the outline: where the first starts in the body, its depth, and the
    /// least depth of any of them (a block deeper than a container's own depth lies inside it).
    private struct Block {
        var start: UInt32
        var depth: UInt32
        var minimumDepth: UInt32
    }

    let bytes: [UInt8]
    private var kinds: [UInt8] = []
    private var blocks: [Block] = []
    private static let blockShift = 6
    private static let blockSize = 1 << blockShift
    /// Folded opening rows, each with its number of members or elements (counted once).
    private var folds: [Int32: Int] = [:]
    /// The outermost folded containers in order (their opening and closing rows), each with the
    /// rows hidden by the folds before it: what maps display rows to outline rows.
    private var hidden: [HiddenRows] = []
    private struct HiddenRows {
        var open: Int
        var close: Int
        var before: Int
    }
    /// Rows hidden by folds.
    private var hiddenCount = 0
    /// Whether object members that are null are marked as removed: the response serializer
    /// removed them (`removesKeysWithNullValues`), so the decoded value has no such keys.
    var marksRemovedNulls = false

    /// Reads the outline; nil when the bytes are not one JSON value, or are 4 GiB or more
    /// (past what the offsets hold).
    init?(_ bytes: [UInt8]) {
        self.bytes = bytes
        guard bytes.count < Int(UInt32.max) else { return nil }
        let estimate = bytes.count / 12 + 16
        kinds.reserveCapacity(estimate)
        blocks.reserveCapacity(estimate / Self.blockSize + 1)
        let ok = bytes.withUnsafeBufferPointer { scan($0) }
        guard ok, !kinds.isEmpty else { return nil }
    }

    /// The bytes between rows: white space, the commas and colons between members (the rows
    /// say where they were), and a byte order mark.
    @inline(__always)
    private static func isSeparator(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x3A, 0xEF, 0xBB, 0xBF: true
        default: false
        }
    }

    /// The bytes that end a number or a literal.
    @inline(__always)
    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x2C, 0x5D, 0x7D, 0x20, 0x09, 0x0A, 0x0D: true
        default: false
        }
    }

    private mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var stack: [Int] = []
        var isObject: [Bool] = []
        var key: Int?
        var index = 0
        let count = buffer.count
        var roots = 0
        func append(_ kind: Kind, start: Int) {
            let depth = UInt32(truncatingIfNeeded: stack.count)
            if kinds.count & (Self.blockSize - 1) == 0 {
                blocks.append(Block(start: UInt32(truncatingIfNeeded: key ?? start), depth: depth, minimumDepth: depth))
            } else if depth < blocks[blocks.count - 1].minimumDepth {
                blocks[blocks.count - 1].minimumDepth = depth
            }
            kinds.append(kind.rawValue | (key == nil ? 0 : Kind.keyed))
            key = nil
            if stack.isEmpty, kind != .objectClose, kind != .arrayClose { roots += 1 }
        }
        while index < count {
            let byte = buffer[index]
            if Self.isSeparator(byte) {
                index += 1
                continue
            }
            switch byte {
            case 0x22: // "
                let start = index
                index += 1
                while index < count, buffer[index] != 0x22 {
                    index += buffer[index] == 0x5C ? 2 : 1
                }
                guard index < count else { return false }
                index += 1
                if isObject.last == true, key == nil {
                    var next = index
                    while next < count, [0x20, 0x09, 0x0A, 0x0D].contains(buffer[next]) { next += 1 }
                    if next < count, buffer[next] == 0x3A {
                        key = start
                        continue
                    }
                }
                append(.string, start: start)
            case 0x7B, 0x5B: // { [
                append(byte == 0x7B ? .objectOpen : .arrayOpen, start: index)
                stack.append(kinds.count - 1)
                isObject.append(byte == 0x7B)
                index += 1
            case 0x7D, 0x5D: // } ]
                guard let open = stack.popLast() else { return false }
                isObject.removeLast()
                if open == kinds.count - 1 {
                    kinds[open] |= Kind.empty // no closing row
                } else {
                    append(byte == 0x7D ? .objectClose : .arrayClose, start: index)
                }
                index += 1
            default:
                let start = index
                while index < count, !Self.endsScalar(buffer[index]) { index += 1 }
                let first = buffer[start]
                append(first == 0x2D || (0x30...0x39).contains(first) ? .number : .literal, start: start)
            }
        }
        return stack.isEmpty && roots == 1
    }

    // MARK: - Rows

    /// Rows in the outline, folded or not.
    var totalRows: Int { kinds.count }

    /// Rows shown.
    var rowCount: Int { kinds.count - hiddenCount }

    /// The outline row shown at `display`.
    func row(at display: Int) -> Int {
        // The last fold shown before `display`: the rows it and the folds before it hide come first.
        var low = 0
        var high = hidden.count
        while low < high {
            let middle = (low + high) / 2
            if hidden[middle].open - hidden[middle].before < display { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return display }
        let fold = hidden[low - 1]
        return display + fold.before + fold.close - fold.open
    }

    /// The display position of an outline row that is visible (or of the nearest visible row before it).
    func display(of row: Int) -> Int {
        // The last fold that opens at or before `row`: a row inside it shows as its opening row.
        var low = 0
        var high = hidden.count
        while low < high {
            let middle = (low + high) / 2
            if hidden[middle].open <= row { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return row }
        let fold = hidden[low - 1]
        return row <= fold.close ? fold.open - fold.before : row - fold.before - (fold.close - fold.open)
    }

    /// Whether the container that opens at `row` is folded.
    func isFolded(_ row: Int) -> Bool { folds[Int32(row)] != nil }

    private func kind(_ row: Int) -> Kind { Kind(rawValue: kinds[row] & ~Kind.flags)! }
    private func isKeyed(_ row: Int) -> Bool { kinds[row] & Kind.keyed != 0 }
    // On the raw kinds, as the walks over many rows ask these: the opening kinds are 0 and 1,
    // the closing ones 2 and 3.
    private func isOpen(_ row: Int) -> Bool { kinds[row] & ~Kind.flags < 2 }
    private func isClose(_ row: Int) -> Bool { (kinds[row] & ~Kind.flags) &- 2 < 2 }
    private func isEmptyContainer(_ row: Int) -> Bool { kinds[row] & Kind.empty != 0 }
    /// Whether `row` opens a container with rows inside it (and a closing row).
    private func opensRows(_ row: Int) -> Bool { kinds[row] & ~Kind.keyed < 2 }

    // MARK: Depth, and the rows that match

    /// How deep `row` is: 0 for the top level, and a closing row as deep as its opening one.
    private func depth(of row: Int) -> Int {
        var current = row & ~(Self.blockSize - 1)
        var depth = Int(blocks[row >> Self.blockShift].depth)
        while current < row {
            step(&current, &depth)
        }
        return depth
    }

    /// Moves from a row to the next, and from its depth to the next row's.
    @inline(__always)
    private func step(_ row: inout Int, _ depth: inout Int) {
        if opensRows(row) { depth += 1 }
        row += 1
        if isClose(row) { depth -= 1 }
    }

    /// The first row after `row` that is at most `limit` deep, stepping over every block whose
    /// rows all lie deeper; nil when there is none.
    private func firstRow(after row: Int, depthAtMost limit: Int) -> Int? {
        var current = row
        var depth = depth(of: row)
        var block = row >> Self.blockShift
        while true {
            let end = min(kinds.count, (block + 1) << Self.blockShift)
            while current + 1 < end {
                step(&current, &depth)
                if depth <= limit { return current }
            }
            block += 1
            while block < blocks.count, Int(blocks[block].minimumDepth) > limit { block += 1 }
            guard block < blocks.count else { return nil }
            current = block << Self.blockShift
            depth = Int(blocks[block].depth)
            if depth <= limit { return current }
        }
    }

    /// The last row before `row` that is at most `limit` deep, stepping over every block whose
    /// rows all lie deeper; nil when there is none.
    private func lastRow(before row: Int, depthAtMost limit: Int) -> Int? {
        var block = row >> Self.blockShift
        var end = row
        while block >= 0 {
            if Int(blocks[block].minimumDepth) <= limit {
                var current = block << Self.blockShift
                var depth = Int(blocks[block].depth)
                var found: Int?
                while current < end {
                    if depth <= limit { found = current }
                    step(&current, &depth)
                }
                if let found { return found }
            }
            end = block << Self.blockShift
            block -= 1
        }
        return nil
    }

    /// The closing row of a container that opens at `row` with rows inside it.
    private func closingRow(of row: Int) -> Int {
        firstRow(after: row, depthAtMost: depth(of: row)) ?? kinds.count - 1
    }

    /// The opening row of a closing row.
    private func openingRow(of row: Int) -> Int {
        lastRow(before: row, depthAtMost: depth(of: row)) ?? 0
    }

    /// The row after `row` and everything inside it.
    private func next(after row: Int) -> Int {
        opensRows(row) ? closingRow(of: row) + 1 : row + 1
    }

    // MARK: Where rows are in the bytes

    /// Steps over white space, commas, colons and a byte order mark, as the scan does.
    private func skipSeparators(from start: Int) -> Int {
        var index = start
        while index < bytes.count, Self.isSeparator(bytes[index]) { index += 1 }
        return index
    }

    /// The end of a string literal starting at `start`, past its closing quote.
    private func stringEnd(from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count, bytes[index] != 0x22 { index += bytes[index] == 0x5C ? 2 : 1 }
        return min(bytes.count, index + 1)
    }

    /// Where the value of a row that starts at `start` starts: after its key, when it has one.
    private func valueStart(_ row: Int, at start: Int) -> Int {
        isKeyed(row) ? skipSeparators(from: stringEnd(from: start)) : start
    }

    /// Where a scalar row's value, starting at `start`, ends.
    private func scalarEnd(_ row: Int, from start: Int) -> Int {
        if kind(row) == .string { return stringEnd(from: start) }
        var index = start
        while index < bytes.count, !Self.endsScalar(bytes[index]) { index += 1 }
        return index
    }

    /// Where the row after `row` starts, given where `row` starts.
    private func nextStart(after row: Int, at start: Int) -> Int {
        let value = valueStart(row, at: start)
        let end = switch kind(row) {
        case .objectOpen, .arrayOpen: isEmptyContainer(row) ? skipSeparators(from: value + 1) + 1 : value + 1
        case .objectClose, .arrayClose: value + 1
        case .string, .number, .literal: scalarEnd(row, from: value)
        }
        return skipSeparators(from: end)
    }

    /// Where `row` starts in the body: its key, its value, or its bracket.
    private func start(of row: Int) -> Int {
        var current = row & ~(Self.blockSize - 1)
        var start = Int(blocks[row >> Self.blockShift].start)
        while current < row {
            start = nextStart(after: current, at: start)
            current += 1
        }
        return start
    }

    /// The most bytes of one value drawn; the rest is counted.
    static let valueBytes = 2_048

    /// The row shown at `display`, highlighted: indentation, key, value or bracket, and a comma.
    func line(_ display: Int) -> TokenLine {
        let row = row(at: display)
        let start = start(of: row)
        // Indented as deep as 65,535 levels at most: deeper rows are not worth a wider row.
        var tokens = [Token(.base, String(repeating: "  ", count: min(depth(of: row), Int(UInt16.max))))]
        if isKeyed(row) {
            tokens.append(Token(.jsonKey, Self.text(bytes[start..<stringEnd(from: start)])))
            tokens.append(Token(.jsonPunctuation, ": "))
        }
        let isFolded = isFolded(row)
        switch kind(row) {
        case .objectOpen, .arrayOpen:
            let isObject = kind(row) == .objectOpen
            if isEmptyContainer(row) {
                tokens.append(Token(.jsonPunctuation, isObject ? "{}" : "[]"))
            } else if isFolded {
                let children = childCount(row)
                tokens.append(Token(.jsonPunctuation, isObject ? "{…}" : "[…]"))
                tokens.append(Token(.muted, " \(children) \(isObject ? (children == 1 ? "key" : "keys") : (children == 1 ? "item" : "items"))"))
            } else {
                tokens.append(Token(.jsonPunctuation, isObject ? "{" : "["))
            }
        case .objectClose: tokens.append(Token(.jsonPunctuation, "}"))
        case .arrayClose: tokens.append(Token(.jsonPunctuation, "]"))
        case .string, .number, .literal:
            let value = valueStart(row, at: start)
            let end = scalarEnd(row, from: value)
            let element: ThemeElement = switch kind(row) {
            case .string: .jsonString
            case .number: .jsonNumber
            default: bytes[value] == 0x6E ? .jsonNull : .jsonBool
            }
            if end - value > Self.valueBytes {
                var cut = value + Self.valueBytes
                while cut > value + 1, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
                tokens.append(Token(element, Self.text(bytes[value..<cut])))
                tokens.append(Token(.muted, "… (\(end - cut) more bytes)"))
            } else {
                tokens.append(Token(element, Self.text(bytes[value..<end])))
            }
        }
        // An open container's comma goes on its closing row; a folded one's on its own row.
        if !opensRows(row) || isFolded {
            let after = isClose(row) ? row + 1 : next(after: row)
            if after < kinds.count, !isClose(after) { tokens.append(Token(.jsonPunctuation, ",")) }
        }
        if marksRemovedNulls, isKeyed(row), kind(row) == .literal, bytes[valueStart(row, at: start)] == 0x6E {
            tokens.append(Token(.muted, "  ← removed by the serializer (remove-nulls)"))
        }
        return tokens
    }

    /// The whole body written out as the outline shows it unfolded, values uncut: indented
    /// JSON, two spaces a level, for a pager, an editor or a file.
    func prettyBytes() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        var depth = 0
        var start = Int(blocks[0].start)
        for row in 0..<kinds.count {
            if isClose(row) { depth -= 1 }
            output += repeatElement(0x20, count: 2 * depth)
            if opensRows(row) { depth += 1 }
            if isKeyed(row) {
                output += bytes[start..<stringEnd(from: start)]
                output += [0x3A, 0x20]
            }
            let value = valueStart(row, at: start)
            switch kind(row) {
            case .objectOpen: output += isEmptyContainer(row) ? [0x7B, 0x7D] : [0x7B]
            case .arrayOpen: output += isEmptyContainer(row) ? [0x5B, 0x5D] : [0x5B]
            case .objectClose: output.append(0x7D)
            case .arrayClose: output.append(0x5D)
            case .string, .number, .literal: output += bytes[value..<scalarEnd(row, from: value)]
            }
            // Unfolded, a container's comma is on its closing row: only the next row's kind counts.
            if !opensRows(row), row + 1 < kinds.count, !isClose(row + 1) { output.append(0x2C) }
            output.append(0x0A)
            if row + 1 < kinds.count { start = nextStart(after: row, at: start) }
        }
        return output
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        TextIndex.displayText(bytes)
    }

    /// How many members or elements a container has.
    func childCount(_ row: Int) -> Int {
        if let count = folds[Int32(row)] { return count }
        guard opensRows(row) else { return 0 }
        var count = 0
        var child = row + 1
        // Each step passes a child whole, so the first closing row met is the container's.
        while !isClose(child) {
            count += 1
            child = next(after: child)
        }
        return count
    }

    // MARK: - Folding

    /// Whether the row shown at `display` is a container that can fold (or the closing bracket of one).
    func container(at display: Int) -> Int? {
        let row = row(at: display)
        if opensRows(row) { return row }
        if isClose(row) { return openingRow(of: row) }
        return nil
    }

    /// Folds or unfolds a container's opening row.
    mutating func setFolded(_ row: Int, _ fold: Bool) {
        guard opensRows(row) else { return }
        if fold {
            if folds[Int32(row)] == nil { folds[Int32(row)] = childCount(row) }
        } else {
            folds[Int32(row)] = nil
        }
        rebuildHidden()
    }

    /// Folds every member of the top-level container, for an overview; or unfolds everything.
    mutating func foldTopLevel(_ fold: Bool) {
        folds = [:]
        if fold, opensRows(0) {
            var child = 1
            while !isClose(child) {
                let after = next(after: child)
                if opensRows(child) { folds[Int32(child)] = childCount(child) }
                child = after
            }
        }
        rebuildHidden()
    }

    /// Unfolds every container around `row`, so that it shows.
    mutating func reveal(_ row: Int) {
        var changed = false
        var current = row
        while let parent = parent(of: current) {
            if folds.removeValue(forKey: Int32(parent)) != nil { changed = true }
            current = parent
        }
        if changed { rebuildHidden() }
    }

    /// Lists the outermost folds, and the rows each hides, from the folded opening rows.
    private mutating func rebuildHidden() {
        hidden = []
        hiddenCount = 0
        for open in folds.keys.map(Int.init).sorted() {
            if let last = hidden.last, open <= last.close { continue } // inside a fold already
            let close = closingRow(of: open)
            hidden.append(HiddenRows(open: open, close: close, before: hiddenCount))
            hiddenCount += close - open
        }
    }

    // MARK: - Paths

    /// The container that holds `row`, or nil for the top level.
    func parent(of row: Int) -> Int? {
        // Every row inside a container is deeper than it: the parent is the last row before
        // this one (or before its opening row) that is less deep.
        let target = isClose(row) ? openingRow(of: row) : row
        let depth = depth(of: target)
        guard depth > 0 else { return nil }
        return lastRow(before: target, depthAtMost: depth - 1)
    }

    /// The body path of the row shown at `display`, as session captures and assertions write it:
    /// `$.address.city`, `$.tags[0]`, `$["odd key"]`.
    func path(at display: Int) -> String {
        var row = row(at: display)
        if isClose(row) { row = openingRow(of: row) }
        var components: [String] = []
        while let parent = parent(of: row) {
            if isKeyed(row) {
                let start = start(of: row)
                let literal = String(decoding: bytes[start..<stringEnd(from: start)], as: UTF8.self)
                let name: String
                if case .string(let decoded)? = try? JSONParser.parse(literal) { name = decoded } else { name = String(literal.dropFirst().dropLast()) }
                components.append(BodyPath.stepText(.key(name)))
            } else {
                var index = 0
                var child = parent + 1
                while child < row {
                    index += 1
                    child = next(after: child)
                }
                components.append(BodyPath.stepText(.index(index)))
            }
            row = parent
        }
        return "$" + components.reversed().joined()
    }

    /// The value of the row shown at `display`, read from its bytes; nil for a container of
    /// more than 16 KiB.
    func value(at display: Int) -> ParameterValue? {
        var row = row(at: display)
        if isClose(row) { row = openingRow(of: row) }
        let first = valueStart(row, at: start(of: row))
        let end: Int
        if isOpen(row) {
            // A container ends at its closing bracket, an empty one at the bracket after its opening one.
            end = isEmptyContainer(row) ? skipSeparators(from: first + 1) + 1 : start(of: closingRow(of: row)) + 1
        } else {
            end = scalarEnd(row, from: first)
        }
        // A large container is not worth writing out as an expected value.
        guard first < end, end <= bytes.count, end - first <= Self.valueBytes * 8 else { return nil }
        return try? JSONParser.parse(bytes: Array(bytes[first..<end]))
    }

    // MARK: - Search

    /// The outline row that holds byte `offset`.
    func row(containing offset: Int) -> Int {
        var low = 0
        var high = blocks.count
        while low < high {
            let middle = (low + high) / 2
            if Int(blocks[middle].start) <= offset { low = middle + 1 } else { high = middle }
        }
        var row = max(0, low - 1) << Self.blockShift
        var start = Int(blocks[row >> Self.blockShift].start)
        let end = min(kinds.count, row + Self.blockSize)
        while row + 1 < end {
            let next = nextStart(after: row, at: start)
            guard next <= offset else { break }
            row += 1
            start = next
        }
        return row
    }

    /// The bytes a row covers: from its start to the next row's start.
    func byteRange(of row: Int) -> Range<Int> {
        let start = start(of: row)
        return start..<(row + 1 < totalRows ? nextStart(after: row, at: start) : bytes.count)
    }
}
