import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A text body as display rows, found in one pass over its bytes and decoded only when drawn.
///
/// Rows break at newlines, and a line longer than ``rowBytes`` is cut into several rows (at a
/// character boundary), so a minified body of many megabytes still scrolls row by row.
struct TextIndex: Sendable {
    /// The most bytes in one row.
    static let rowBytes = 1_024

    let bytes: [UInt8]
    /// The byte offset where each row starts.
    private(set) var starts: [UInt32] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts: [UInt32] = [0]
        starts.reserveCapacity(bytes.count / 40 + 1)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var lineStart = 0
            let count = buffer.count
            while lineStart < count {
                let newline = memchr(base + lineStart, 0x0A, count - lineStart).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? count
                // Long lines are cut into rows; a cut never splits a UTF-8 sequence.
                var rowStart = lineStart
                while newline - rowStart > Self.rowBytes {
                    var cut = rowStart + Self.rowBytes
                    while cut > rowStart + 1, buffer[cut] & 0xC0 == 0x80 { cut -= 1 }
                    starts.append(UInt32(cut))
                    rowStart = cut
                }
                lineStart = newline + 1
                if newline < count, lineStart < count { starts.append(UInt32(lineStart)) }
            }
        }
        self.starts = starts
    }

    var rowCount: Int { starts.count }

    /// The byte range of a row, without its newline or carriage return.
    func range(of row: Int) -> Range<Int> {
        let start = Int(starts[row])
        var end = row + 1 < starts.count ? Int(starts[row + 1]) : bytes.count
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
        Self.lastIndex(in: starts, atMost: offset)
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
