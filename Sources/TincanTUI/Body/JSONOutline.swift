import TerminalUI
import TincanCore
import TincanSessions

/// A JSON body as an outline of rows read straight from its bytes: one row per scalar, per
/// opening bracket and per closing bracket, as a pretty printer would write them.
///
/// The outline keeps 9 bytes a row (kind, offset, extent) and no decoded values, so a 50 MB body
/// costs less than its size; each row's text, and its depth, are worked out when it is drawn.
/// Containers fold; a fold hides its rows through a map of the visible rows, built only while
/// something is folded.
struct JSONOutline: Sendable {
    /// What a row holds. `keyed` is or-ed in when the row starts with an object key.
    enum Kind: UInt8 {
        case objectOpen, arrayOpen, objectClose, arrayClose, string, number, literal
        static let keyed: UInt8 = 0x80
    }

    let bytes: [UInt8]
    private var kinds: [UInt8] = []
    /// The depth of every ``depthStride``th row; a row's own is counted on from the one before it.
    private var depthMarks: [UInt32] = []
    private static let depthStride = 64
    /// Where the row starts in the body: its key, its value, or its bracket.
    private var starts: [UInt32] = []
    /// For a scalar, where its value ends; for an opening bracket, its closing row (itself when
    /// the container is empty); for a closing bracket, its opening row.
    private var extents: [UInt32] = []
    /// Opening rows that are folded.
    private(set) var folded: Set<Int32> = []
    /// The visible rows in order, or nil when nothing is folded (every row is visible).
    private var visible: [Int32]?
    /// Whether object members that are null are marked as removed: the response serializer
    /// removed them (`removesKeysWithNullValues`), so the decoded value has no such keys.
    var marksRemovedNulls = false

    /// Reads the outline; nil when the bytes are not one JSON value.
    init?(_ bytes: [UInt8]) {
        self.bytes = bytes
        let estimate = bytes.count / 12 + 16
        kinds.reserveCapacity(estimate)
        starts.reserveCapacity(estimate)
        extents.reserveCapacity(estimate)
        let ok = bytes.withUnsafeBufferPointer { scan($0) }
        guard ok, !kinds.isEmpty else { return nil }
    }

    private mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var stack: [Int] = []
        var isObject: [Bool] = []
        var key: Int?
        var index = 0
        let count = buffer.count
        var roots = 0
        func append(_ kind: Kind, start: Int, extent: Int) {
            if kinds.count % Self.depthStride == 0 { depthMarks.append(UInt32(stack.count)) }
            kinds.append(kind.rawValue | (key == nil ? 0 : Kind.keyed))
            starts.append(UInt32(truncatingIfNeeded: key ?? start))
            extents.append(UInt32(truncatingIfNeeded: extent))
            key = nil
            if stack.isEmpty, kind != .objectClose, kind != .arrayClose { roots += 1 }
        }
        while index < count {
            let byte = buffer[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x3A, 0xEF, 0xBB, 0xBF: // whitespace , : and a BOM
                index += 1
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
                append(.string, start: start, extent: index)
            case 0x7B, 0x5B: // { [
                append(byte == 0x7B ? .objectOpen : .arrayOpen, start: index, extent: 0)
                stack.append(kinds.count - 1)
                isObject.append(byte == 0x7B)
                index += 1
            case 0x7D, 0x5D: // } ]
                guard let open = stack.popLast() else { return false }
                isObject.removeLast()
                if open == kinds.count - 1 {
                    extents[open] = UInt32(open) // empty: no closing row
                } else {
                    let close = kinds.count
                    extents[open] = UInt32(close)
                    append(byte == 0x7D ? .objectClose : .arrayClose, start: index, extent: open)
                }
                index += 1
            default:
                let start = index
                while index < count, ![0x2C, 0x5D, 0x7D, 0x20, 0x09, 0x0A, 0x0D].contains(buffer[index]) { index += 1 }
                let first = buffer[start]
                append(first == 0x2D || (0x30...0x39).contains(first) ? .number : .literal, start: start, extent: index)
            }
        }
        return stack.isEmpty && roots == 1
    }

    // MARK: - Rows

    /// Rows in the outline, folded or not.
    var totalRows: Int { kinds.count }

    /// Rows shown.
    var rowCount: Int { visible?.count ?? kinds.count }

    /// The outline row shown at `display`.
    func row(at display: Int) -> Int {
        visible.map { Int($0[display]) } ?? display
    }

    /// The display position of an outline row that is visible (or of the nearest visible row before it).
    func display(of row: Int) -> Int {
        guard let visible else { return row }
        return TextIndex.lastIndex(in: visible, atMost: row)
    }

    private func kind(_ row: Int) -> Kind { Kind(rawValue: kinds[row] & ~Kind.keyed)! }
    private func isKeyed(_ row: Int) -> Bool { kinds[row] & Kind.keyed != 0 }
    private func isOpen(_ row: Int) -> Bool { kind(row) == .objectOpen || kind(row) == .arrayOpen }
    private func isClose(_ row: Int) -> Bool { kind(row) == .objectClose || kind(row) == .arrayClose }
    private func isEmptyContainer(_ row: Int) -> Bool { isOpen(row) && Int(extents[row]) == row }

    /// How deep `row` is: 0 for the top level, and a closing row as deep as its opening one.
    private func depth(of row: Int) -> Int {
        var current = row - row % Self.depthStride
        var depth = Int(depthMarks[current / Self.depthStride])
        while current < row {
            if isOpen(current), !isEmptyContainer(current) { depth += 1 }
            current += 1
            if isClose(current) { depth -= 1 }
        }
        return depth
    }

    /// The row after `row` and everything inside it.
    private func next(after row: Int) -> Int {
        isOpen(row) && !isEmptyContainer(row) ? Int(extents[row]) + 1 : row + 1
    }

    /// The byte range of a string literal starting at `start`, quotes included.
    private func stringEnd(from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count, bytes[index] != 0x22 { index += bytes[index] == 0x5C ? 2 : 1 }
        return min(bytes.count, index + 1)
    }

    /// Where the value of a keyed row starts.
    private func valueStart(_ row: Int) -> Int {
        var index = Int(starts[row])
        guard isKeyed(row) else { return index }
        index = stringEnd(from: index)
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x3A].contains(bytes[index]) { index += 1 }
        return index
    }

    /// The most bytes of one value drawn; the rest is counted.
    static let valueBytes = 2_048

    /// The row shown at `display`, highlighted: indentation, key, value or bracket, and a comma.
    func line(_ display: Int) -> TokenLine {
        let row = row(at: display)
        // Indented as deep as 65,535 levels at most: deeper rows are not worth a wider row.
        var tokens = [Token(.base, String(repeating: "  ", count: min(depth(of: row), Int(UInt16.max))))]
        if isKeyed(row) {
            let start = Int(starts[row])
            tokens.append(Token(.jsonKey, Self.text(bytes[start..<stringEnd(from: start)])))
            tokens.append(Token(.jsonPunctuation, ": "))
        }
        switch kind(row) {
        case .objectOpen, .arrayOpen:
            let isObject = kind(row) == .objectOpen
            if isEmptyContainer(row) {
                tokens.append(Token(.jsonPunctuation, isObject ? "{}" : "[]"))
            } else if folded.contains(Int32(row)) {
                let children = childCount(row)
                tokens.append(Token(.jsonPunctuation, isObject ? "{…}" : "[…]"))
                tokens.append(Token(.muted, " \(children) \(isObject ? (children == 1 ? "key" : "keys") : (children == 1 ? "item" : "items"))"))
            } else {
                tokens.append(Token(.jsonPunctuation, isObject ? "{" : "["))
            }
        case .objectClose: tokens.append(Token(.jsonPunctuation, "}"))
        case .arrayClose: tokens.append(Token(.jsonPunctuation, "]"))
        case .string, .number, .literal:
            let start = valueStart(row)
            let end = Int(extents[row])
            let element: ThemeElement = switch kind(row) {
            case .string: .jsonString
            case .number: .jsonNumber
            default: bytes[start] == 0x6E ? .jsonNull : .jsonBool
            }
            if end - start > Self.valueBytes {
                var cut = start + Self.valueBytes
                while cut > start + 1, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
                tokens.append(Token(element, Self.text(bytes[start..<cut])))
                tokens.append(Token(.muted, "… (\(end - cut) more bytes)"))
            } else {
                tokens.append(Token(element, Self.text(bytes[start..<end])))
            }
        }
        // An open container's comma goes on its closing row; a folded one's on its own row.
        let isOpenAndShown = isOpen(row) && !isEmptyContainer(row) && !folded.contains(Int32(row))
        let after = isClose(row) ? row + 1 : next(after: row)
        if !isOpenAndShown, after < kinds.count, !isClose(after) { tokens.append(Token(.jsonPunctuation, ",")) }
        if marksRemovedNulls, isKeyed(row), kind(row) == .literal, bytes[valueStart(row)] == 0x6E {
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
        for row in 0..<kinds.count {
            if isClose(row) { depth -= 1 }
            output += repeatElement(0x20, count: 2 * depth)
            if isOpen(row), !isEmptyContainer(row) { depth += 1 }
            if isKeyed(row) {
                let start = Int(starts[row])
                output += bytes[start..<stringEnd(from: start)]
                output += [0x3A, 0x20]
            }
            switch kind(row) {
            case .objectOpen: output += isEmptyContainer(row) ? [0x7B, 0x7D] : [0x7B]
            case .arrayOpen: output += isEmptyContainer(row) ? [0x5B, 0x5D] : [0x5B]
            case .objectClose: output.append(0x7D)
            case .arrayClose: output.append(0x5D)
            case .string, .number, .literal: output += bytes[valueStart(row)..<Int(extents[row])]
            }
            let after = isClose(row) ? row + 1 : next(after: row)
            if !(isOpen(row) && !isEmptyContainer(row)), after < kinds.count, !isClose(after) { output.append(0x2C) }
            output.append(0x0A)
        }
        return output
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        TextIndex.displayText(bytes)
    }

    /// How many members or elements a container has.
    func childCount(_ row: Int) -> Int {
        guard isOpen(row), !isEmptyContainer(row) else { return 0 }
        var count = 0
        var child = row + 1
        let close = Int(extents[row])
        while child < close {
            count += 1
            child = next(after: child)
        }
        return count
    }

    // MARK: - Folding

    /// Whether the row shown at `display` is a container that can fold (or the closing bracket of one).
    func container(at display: Int) -> Int? {
        let row = row(at: display)
        if isOpen(row), !isEmptyContainer(row) { return row }
        if isClose(row) { return Int(extents[row]) }
        return nil
    }

    /// Folds or unfolds a container's opening row.
    mutating func setFolded(_ row: Int, _ fold: Bool) {
        guard isOpen(row), !isEmptyContainer(row) else { return }
        if fold { folded.insert(Int32(row)) } else { folded.remove(Int32(row)) }
        rebuildVisible()
    }

    /// Folds every member of the top-level container, for an overview; or unfolds everything.
    mutating func foldTopLevel(_ fold: Bool) {
        folded = []
        if fold, isOpen(0) {
            var child = 1
            let close = isEmptyContainer(0) ? 0 : Int(extents[0])
            while child < close {
                if isOpen(child), !isEmptyContainer(child) { folded.insert(Int32(child)) }
                child = next(after: child)
            }
        }
        rebuildVisible()
    }

    /// Unfolds every container around `row`, so that it shows.
    mutating func reveal(_ row: Int) {
        var changed = false
        var current = row
        while let parent = parent(of: current) {
            if folded.remove(Int32(parent)) != nil { changed = true }
            current = parent
        }
        if changed { rebuildVisible() }
    }

    private mutating func rebuildVisible() {
        guard !folded.isEmpty else {
            visible = nil
            return
        }
        var rows: [Int32] = []
        var row = 0
        while row < kinds.count {
            rows.append(Int32(row))
            row = folded.contains(Int32(row)) ? Int(extents[row]) + 1 : row + 1
        }
        visible = rows
    }

    // MARK: - Paths

    /// The container that holds `row`, or nil for the top level.
    func parent(of row: Int) -> Int? {
        // Backwards over the siblings before it, a container in one step (from its closing row
        // to its opening one): the first opening row met is not a sibling's, so it is the parent.
        let target = isClose(row) ? Int(extents[row]) : row
        var candidate = target - 1
        while candidate >= 0 {
            if isClose(candidate) {
                candidate = Int(extents[candidate]) - 1
            } else if isOpen(candidate), !isEmptyContainer(candidate) {
                return candidate
            } else {
                candidate -= 1
            }
        }
        return nil
    }

    /// The body path of the row shown at `display`, as session captures and assertions write it:
    /// `$.address.city`, `$.tags[0]`, `$["odd key"]`.
    func path(at display: Int) -> String {
        var row = row(at: display)
        if isClose(row) { row = Int(extents[row]) }
        var components: [String] = []
        while let parent = parent(of: row) {
            if isKeyed(row) {
                let start = Int(starts[row])
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
        if isClose(row) { row = Int(extents[row]) }
        let start = valueStart(row)
        let end: Int
        if isOpen(row) {
            // A container ends at its closing bracket, an empty one at the bracket after its opening one.
            end = isEmptyContainer(row) ? (bytes[start...].firstIndex { $0 == 0x5D || $0 == 0x7D } ?? bytes.count - 1) + 1 : Int(starts[Int(extents[row])]) + 1
        } else {
            end = Int(extents[row])
        }
        // A large container is not worth writing out as an expected value.
        guard start < end, end <= bytes.count, end - start <= Self.valueBytes * 8 else { return nil }
        return try? JSONParser.parse(bytes: Array(bytes[start..<end]))
    }

    // MARK: - Search

    /// The outline row that holds byte `offset`.
    func row(containing offset: Int) -> Int {
        TextIndex.lastIndex(in: starts, atMost: offset)
    }
}


extension JSONOutline {
    /// The bytes a row covers: from its start to the next row's start.
    func byteRange(of row: Int) -> Range<Int> {
        let start = Int(starts[row])
        return start..<(row + 1 < totalRows ? Int(starts[row + 1]) : bytes.count)
    }
}
