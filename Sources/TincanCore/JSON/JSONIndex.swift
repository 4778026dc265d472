/// One object or array of a JSON text, as ``JSONIndex`` records it: 8 bytes, so that a body's
/// index stays a small fraction of its size (a 50 MB API response holds about 670,000).
struct JSONContainer: Sendable, Equatable {
    /// The offset of its `}` or `]`.
    var end: UInt32
    /// The index, in the document's container list, of the first container after its subtree.
    var after: UInt32
}

/// The containers of a JSON text in document order, kept in blocks of 32,768 (256 KiB), so that
/// a large list grows without copying itself and holds at most one block it does not use.
struct JSONContainerList: Sendable {
    private static let blockShift = 15
    private static let blockSize = 1 << blockShift
    private var blocks: [[JSONContainer]] = []
    private(set) var count = 0
    /// What the first block is made to hold: a small document's list stays small.
    private let firstBlockCapacity: Int

    /// An empty list for a text of `byteCount` bytes, whose first block is sized to it (a
    /// container takes a few bytes of text at the least; a larger first block grows as it fills).
    init(byteCount: Int) {
        firstBlockCapacity = min(Self.blockSize, byteCount / 16 + 16)
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    mutating func append(_ container: JSONContainer) {
        if count & (Self.blockSize - 1) == 0 { startBlock() }
        blocks[blocks.count - 1].append(container)
        count += 1
    }

    /// The later blocks are made whole at once, as their document is large.
    private mutating func startBlock() {
        var block: [JSONContainer] = []
        block.reserveCapacity(blocks.isEmpty ? firstBlockCapacity : Self.blockSize)
        blocks.append(block)
    }

    subscript(index: Int) -> JSONContainer {
        get { blocks[index >> Self.blockShift][index & (Self.blockSize - 1)] }
        set { blocks[index >> Self.blockShift][index & (Self.blockSize - 1)] = newValue }
    }
}

/// The checking pass of ``JSONDocument``: one walk over a JSON text that accepts exactly what
/// ``JSONParser`` accepts and records every container, in document order, without decoding.
///
/// Strings are stepped over eight bytes at a time until a quote, a backslash or a control
/// character; escapes, numbers, literals, nesting depth and the grammar are checked byte by
/// byte. A number is converted only when it could be out of range (it has an exponent or
/// hundreds of digits), as the parser would refuse it then. What is refused is read again by
/// ``JSONParser``, which says where and why.
enum JSONIndex {
    /// The containers of `bytes` and the offset of its value, or nil when `bytes` is not one
    /// JSON value (or is 4 GiB or more, past what the offsets hold).
    static func containers(of bytes: [UInt8]) -> (containers: JSONContainerList, root: Int)? {
        guard bytes.count < Int(UInt32.max) else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var walker = Walker(base: base, count: buffer.count)
            return walker.walk()
        }
    }

    /// The offset just past the string whose opening quote is at `start`, or nil when it is not
    /// a well-formed string (unterminated, a control character, a bad escape or surrogate).
    @inline(__always)
    static func stringEnd(_ base: UnsafePointer<UInt8>, _ count: Int, from start: Int) -> Int? {
        var index = start + 1
        while true {
            // Eight bytes at a time while none is a quote, a backslash or below 0x20. The lowest
            // flagged byte is exact (a borrow only carries upwards), so it is where to look.
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let quote = word ^ 0x2222_2222_2222_2222
                let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
                let flagged = (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                    | ((word &- 0x2020_2020_2020_2020) & ~word)) & highBits
                if flagged == 0 {
                    index += 8
                } else {
                    index += flagged.trailingZeroBitCount >> 3
                    break
                }
            }
            guard index < count else { return nil }
            switch base[index] {
            case UInt8(ascii: "\""):
                return index + 1
            case UInt8(ascii: "\\"):
                guard let next = escapeEnd(base, count, from: index) else { return nil }
                index = next
            case 0..<0x20:
                return nil
            default:
                index += 1
            }
        }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The offset past the escape whose backslash is at `start`, with a high surrogate's low
    /// one after it, or nil when it is not one the parser takes.
    private static func escapeEnd(_ base: UnsafePointer<UInt8>, _ count: Int, from start: Int) -> Int? {
        guard start + 1 < count else { return nil }
        switch base[start + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return start + 2
        case UInt8(ascii: "u"):
            guard let unit = hex4(base, count, at: start + 2) else { return nil }
            switch unit {
            case 0xD800...0xDBFF:
                guard start + 7 < count, base[start + 6] == UInt8(ascii: "\\"), base[start + 7] == UInt8(ascii: "u"),
                      let low = hex4(base, count, at: start + 8), (0xDC00...0xDFFF).contains(low)
                else { return nil }
                return start + 12
            case 0xDC00...0xDFFF:
                return nil
            default:
                return start + 6
            }
        default:
            return nil
        }
    }

    private static func hex4(_ base: UnsafePointer<UInt8>, _ count: Int, at start: Int) -> UInt32? {
        guard start + 4 <= count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = base[start + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The offset past the number that starts at `start`, or nil when it breaks the grammar or
    /// (as ``JSONParser`` reads it) is out of a double's range.
    static func numberEnd(_ base: UnsafePointer<UInt8>, _ count: Int, from start: Int) -> Int? {
        var index = start
        if base[index] == UInt8(ascii: "-") { index += 1 }
        guard index < count, isDigit(base[index]) else { return nil }
        if base[index] == UInt8(ascii: "0") {
            index += 1
            if index < count, isDigit(base[index]) { return nil }
        } else {
            while index < count, isDigit(base[index]) { index += 1 }
        }
        let integerDigits = index - start
        var isInteger = true
        if index < count, base[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < count, isDigit(base[index]) else { return nil }
            while index < count, isDigit(base[index]) { index += 1 }
        }
        var hasExponent = false
        if index < count, base[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            hasExponent = true
            index += 1
            if index < count, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") { index += 1 }
            guard index < count, isDigit(base[index]) else { return nil }
            while index < count, isDigit(base[index]) { index += 1 }
        }
        // Without an exponent, only an integer part of 309 digits or more can overflow a double.
        if hasExponent || integerDigits > 300 {
            let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
            if !(isInteger && Int64(text) != nil) {
                guard let double = Double(text), double.isFinite else { return nil }
            }
        }
        return index
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always)
    static func skipSpace(_ base: UnsafePointer<UInt8>, _ count: Int, from start: Int) -> Int {
        var index = start
        while index < count, isSpace(base[index]) { index += 1 }
        return index
    }

    /// The deepest nesting the parser takes.
    static let maximumDepth = 512

    /// The walk itself: an explicit stack of the open containers, so depth costs no recursion.
    private struct Walker {
        let base: UnsafePointer<UInt8>
        let count: Int
        var containers: JSONContainerList
        /// The open containers: where each is in `containers`, and its closer.
        var open: [(container: Int, closer: UInt8)] = []

        init(base: UnsafePointer<UInt8>, count: Int) {
            self.base = base
            self.count = count
            containers = JSONContainerList(byteCount: count)
            open.reserveCapacity(JSONIndex.maximumDepth)
        }

        mutating func walk() -> (containers: JSONContainerList, root: Int)? {
            var index = skipSpace(base, count, from: 0)
            let root = index
            value: while true {
                guard index < count else { return nil }
                switch base[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard open.count < JSONIndex.maximumDepth else { return nil }
                    let closer = base[index] + 2 // `{` + 2 is `}`, `[` + 2 is `]`
                    containers.append(JSONContainer(end: 0, after: 0))
                    open.append((containers.count - 1, closer))
                    index = skipSpace(base, count, from: index + 1)
                    guard index < count else { return nil }
                    if base[index] == closer {
                        close(at: index)
                        index += 1
                    } else if closer == UInt8(ascii: "}") {
                        guard let next = memberValueStart(from: index) else { return nil }
                        index = next
                        continue value
                    } else {
                        continue value
                    }
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(base, count, from: index) else { return nil }
                    index = end
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard let end = numberEnd(base, count, from: index) else { return nil }
                    index = end
                case UInt8(ascii: "t"):
                    guard literal(0x6575_7274, at: index) else { return nil } // "true"
                    index += 4
                case UInt8(ascii: "f"):
                    guard index + 5 <= count, literal(0x6573_6C61, at: index + 1) else { return nil } // "alse"
                    index += 5
                case UInt8(ascii: "n"):
                    guard literal(0x6C6C_756E, at: index) else { return nil } // "null"
                    index += 4
                default:
                    return nil
                }
                // After a value: a comma and the next, or the closer (and so on outwards).
                while let top = open.last {
                    index = skipSpace(base, count, from: index)
                    guard index < count else { return nil }
                    if base[index] == UInt8(ascii: ",") {
                        index = skipSpace(base, count, from: index + 1)
                        if top.closer == UInt8(ascii: "}") {
                            guard let next = memberValueStart(from: index) else { return nil }
                            index = next
                        }
                        continue value
                    }
                    guard base[index] == top.closer else { return nil }
                    close(at: index)
                    index += 1
                }
                return skipSpace(base, count, from: index) == count ? (containers, root) : nil
            }
        }

        /// Records the end of the innermost open container, whose closer is at `index`.
        private mutating func close(at index: Int) {
            let top = open.removeLast()
            containers[top.container] = JSONContainer(end: UInt32(index), after: UInt32(containers.count))
        }

        /// Past a member's key, colon and spaces, from the key's opening quote at `index`.
        private func memberValueStart(from index: Int) -> Int? {
            guard index < count, base[index] == UInt8(ascii: "\""), let keyEnd = stringEnd(base, count, from: index) else { return nil }
            let colon = skipSpace(base, count, from: keyEnd)
            guard colon < count, base[colon] == UInt8(ascii: ":") else { return nil }
            return skipSpace(base, count, from: colon + 1)
        }

        /// Whether the four bytes at `index` are `word` (little-endian).
        private func literal(_ word: UInt32, at index: Int) -> Bool {
            index + 4 <= count && UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self).littleEndian == word
        }
    }
}
