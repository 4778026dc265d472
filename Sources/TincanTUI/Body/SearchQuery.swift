import TincanCore

/// What `/` looks for: the text typed, case-insensitive unless it has a capital letter (smart
/// case, as in vim and less).
public struct SearchQuery: Sendable, Hashable {
    public var text: String
    /// Whether letters must match in case.
    public var isCaseSensitive: Bool
    /// The needle as bytes, lower-cased (ASCII) when the search ignores case.
    let needle: [UInt8]

    /// Creates a query; nil for the empty string.
    public init?(_ text: String) {
        guard !text.isEmpty else { return nil }
        self.text = text
        isCaseSensitive = text.contains { $0.isUppercase }
        needle = isCaseSensitive ? Array(text.utf8) : Array(text.utf8).map(ByteSearch.lower)
    }

    /// Where the query occurs in `text`, as ranges of its characters' UTF-8 offsets.
    func ranges(in text: String) -> [Range<Int>] {
        let bytes = Array(text.utf8)
        var result: [Range<Int>] = []
        var from = 0
        bytes.withUnsafeBufferPointer { buffer in
            while let found = ByteSearch.first(needle, in: buffer, from: from, ignoringCase: !isCaseSensitive) {
                result.append(found..<(found + needle.count))
                from = found + needle.count
            }
        }
        return result
    }
}
