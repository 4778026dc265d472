#if canImport(Glibc)
import Glibc
#endif

/// Finding bytes in a buffer: `memchr` to each candidate, then a comparison (folded when case
/// does not matter). The TUI's search runs it over whole bodies; the redaction of secret names
/// over each header and query field name.
public enum ByteSearch {
    @inline(__always)
    public static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// The first offset at or after `from` where `needle` starts, or nil.
    public static func first(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from: Int, ignoringCase: Bool) -> Int? {
        let count = haystack.count
        guard !needle.isEmpty, from >= 0, count - from >= needle.count, let base = haystack.baseAddress else { return nil }
        if !ignoringCase {
            // memchr to each candidate first byte, then memcmp for the rest.
            let last = count - needle.count
            var position = from
            return needle.withUnsafeBufferPointer { pattern -> Int? in
                while position <= last {
                    guard let hit = memchr(base + position, Int32(pattern[0]), last - position + 1) else { return nil }
                    let candidate = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + candidate, pattern.baseAddress!, pattern.count) == 0 { return candidate }
                    position = candidate + 1
                }
                return nil
            }
        }
        // Case-insensitive: jump between candidates for the first byte with memchr (once for each
        // case of a letter), then compare the rest folded.
        let first = needle[0]
        let upper = first >= 0x61 && first <= 0x7A ? first & ~0x20 : first
        let last = count - needle.count
        // The next hit of each case of the first byte, found again only once passed, so a case
        // that never occurs is scanned for once, not once per candidate.
        func next(_ byte: UInt8, from position: Int) -> Int {
            memchr(base + position, Int32(byte), last - position + 1).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? Int.max
        }
        var lowerHit = next(first, from: from)
        var upperHit = upper == first ? Int.max : next(upper, from: from)
        while true {
            let candidate = min(lowerHit, upperHit)
            guard candidate <= last else { return nil }
            var matched = true
            for index in 1..<needle.count where lower(haystack[candidate + index]) != needle[index] {
                matched = false
                break
            }
            if matched { return candidate }
            if candidate == lowerHit { lowerHit = candidate < last ? next(first, from: candidate + 1) : Int.max }
            if candidate == upperHit { upperHit = candidate < last ? next(upper, from: candidate + 1) : Int.max }
        }
    }

    /// The last offset before `before` where `needle` starts, or nil.
    ///
    /// Searches blocks forward with ``first`` (memchr to each candidate), from the block just
    /// before `before` towards the start, the blocks doubling: a byte-by-byte backward loop took
    /// 50 ms to cross 50 MB.
    public static func last(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, before: Int, ignoringCase: Bool) -> Int? {
        guard !needle.isEmpty else { return nil }
        // A match may start at any offset up to here (and run past `before`, as a row's match can).
        var end = min(before, haystack.count - needle.count + 1)
        var block = 64 * 1024
        while end > 0 {
            let start = max(0, end - block)
            // Only matches that start in [start, end): the slice stops where such a match ends.
            let slice = UnsafeBufferPointer(rebasing: haystack[..<(end - 1 + needle.count)])
            var found: Int?
            var from = start
            while let hit = first(needle, in: slice, from: from, ignoringCase: ignoringCase) {
                found = hit
                from = hit + 1
            }
            if let found { return found }
            end = start
            block = min(block * 2, 16 * 1024 * 1024)
        }
        return nil
    }

    /// How many times `needle` starts before `before` (anywhere by default), without overlaps.
    public static func count(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, before: Int = .max, ignoringCase: Bool) -> Int {
        // Scan only as far as a match that starts before `before` can reach.
        let end = before >= haystack.count ? haystack.count : max(0, min(haystack.count, before + needle.count - 1))
        let scanned = UnsafeBufferPointer(rebasing: haystack[..<end])
        var total = 0
        var from = 0
        while let found = first(needle, in: scanned, from: from, ignoringCase: ignoringCase) {
            total += 1
            from = found + needle.count
        }
        return total
    }
}
