import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A text body as display rows, found in one pass over its bytes and decoded only when drawn.
///
/// Rows break at newlines, and a line longer than ``rowBytes`` is cut into several rows (at a
/// character boundary), so a minified body of many megabytes still scrolls row by row. The
/// index keeps where every ``blockSize``th row starts (a quarter of a byte a row) and finds the
/// rows between by stepping over them, a line at a time.
struct TextIndex: Sendable {
    /// The most bytes in one row.
    static let rowBytes = 1_024
    private static let blockShift = 4
    private static let blockSize = 1 << blockShift

    let bytes: [UInt8]
    /// The byte offset where every ``blockSize``th row starts.
    private var blockStarts: [UInt32] = [0]
    /// Rows in all (one for an empty body).
    private(set) var rowCount = 1

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var rows = 1
        var starts: [UInt32] = [0]
        starts.reserveCapacity(bytes.count / (40 * Self.blockSize) + 1)
        var start = 0
        while true {
            start = Self.nextRowStart(in: bytes, after: start)
            guard start < bytes.count else { break }
            if rows & (Self.blockSize - 1) == 0 { starts.append(UInt32(truncatingIfNeeded: start)) }
            rows += 1
        }
        blockStarts = starts
        rowCount = rows
    }

    /// Where the row after the one starting at `start` starts (past the end when it is the
    /// last): after its newline, or at the cut of a line longer than ``rowBytes``, moved back
    /// to the start of a UTF-8 sequence.
    private static func nextRowStart(in bytes: [UInt8], after start: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress, start < buffer.count else { return buffer.count + 1 }
            // A newline further than a row's length away does not end this row.
            let window = min(buffer.count - start, Self.rowBytes + 1)
            if let newline = memchr(base + start, 0x0A, window) {
                return base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            }
            guard buffer.count - start > Self.rowBytes else { return buffer.count + 1 }
            var cut = start + Self.rowBytes
            while cut > start + 1, buffer[cut] & 0xC0 == 0x80 { cut -= 1 }
            return cut
        }
    }

    /// Where `row` starts.
    private func start(of row: Int) -> Int {
        var start = Int(blockStarts[row >> Self.blockShift])
        for _ in 0..<(row & (Self.blockSize - 1)) { start = Self.nextRowStart(in: bytes, after: start) }
        return start
    }

    /// The byte range of a row, without its newline or carriage return.
    func range(of row: Int) -> Range<Int> {
        let start = start(of: row)
        var end = row + 1 < rowCount ? Self.nextRowStart(in: bytes, after: start) : bytes.count
        if end > start, bytes[end - 1] == 0x0A { end -= 1 }
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    /// A row's text, tabs expanded (the screen buffer shows other control characters as `·`).
    func text(of row: Int) -> String {
        Self.displayText(bytes[range(of: row)])
    }

    /// The row that holds byte `offset`.
    func row(containing offset: Int) -> Int {
        var row = Self.lastIndex(in: blockStarts, atMost: offset) << Self.blockShift
        var start = Int(blockStarts[row >> Self.blockShift])
        while row + 1 < rowCount {
            let next = Self.nextRowStart(in: bytes, after: start)
            guard next <= offset else { break }
            row += 1
            start = next
        }
        return row
    }

    /// Text for the screen: tabs become four spaces; other control characters are left to
    /// ``ScreenBuffer/write(_:x:y:style:limit:)``, which marks them.
    static func displayText(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return bytes.contains(0x09) ? text.replacingOccurrences(of: "\t", with: "    ") : text
    }

    /// The index of the last element of a sorted array that is at most `value` (0 when none is).
    static func lastIndex<Element: BinaryInteger>(in sorted: [Element], atMost value: Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if Int(sorted[middle]) <= value { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }
}
