import OrderedCollections

/// One field of a query string before escaping: `field=value`, or a bare `field` for null.
public struct QueryStringPair: Sendable, Hashable, CustomStringConvertible {
    /// The field, with its bracketed path (`user[name]`, `tags[]`).
    public var field: String
    /// The value's text, or nil for a bare key.
    public var value: String?

    /// Creates a pair.
    public init(field: String, value: String?) {
        self.field = field
        self.value = value
    }

    /// The escaped form, as it appears on the wire.
    public var escaped: String {
        guard let value else { return PercentEscaping.escape(field) }
        return PercentEscaping.escape(field) + "=" + PercentEscaping.escape(value)
    }

    public var description: String { escaped }
}

/// AFNetworking's query-string serialization (`AFQueryStringFromParameters`).
///
/// - Dictionaries become `key[sub]=…`, with keys sorted by their string form, case-sensitively.
/// - Arrays become `key[]=…`, in order.
/// - Sets become `key=…` for each member, sorted, without `[]`.
/// - Null becomes the bare key; booleans are `1`/`0`; whole numbers have no fraction.
public enum QueryString {
    /// Serializes `parameters`, a dictionary, into an escaped query string.
    ///
    /// The string is built in one pass into a byte buffer: escaping works byte by byte on UTF-8,
    /// so the escaped form of `key[sub]` is the escaped key, `%5B`, the escaped sub-key and `%5D`,
    /// and each prefix is escaped once however many values sit under it.
    public static func encode(_ parameters: OrderedDictionary<String, ParameterValue>) -> String {
        var writer = Writer()
        writer.writeDictionary(parameters, isTopLevel: true)
        return String(decoding: writer.output, as: UTF8.self)
    }

    /// The unescaped pairs that ``encode(_:)`` writes, in the same order.
    public static func pairs(_ parameters: OrderedDictionary<String, ParameterValue>) -> [QueryStringPair] {
        var result: [QueryStringPair] = []
        for key in sortedKeys(parameters) {
            collectPairs(key: key, value: parameters[key]!, into: &result)
        }
        return result
    }

    /// The unescaped pairs for one key and value (`AFQueryStringPairsFromKeyAndValue`).
    public static func pairs(key: String, value: ParameterValue) -> [QueryStringPair] {
        var result: [QueryStringPair] = []
        collectPairs(key: key, value: value, into: &result)
        return result
    }

    // MARK: - Ordering

    static func sortedKeys(_ dictionary: OrderedDictionary<String, ParameterValue>) -> [String] {
        dictionary.keys.sorted(by: isOrderedBefore)
    }

    /// Orders strings by their UTF-16 code units, as `-[NSString compare:]` orders distinct keys.
    static func isOrderedBefore(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }

    static func sortedMembers(_ set: Set<ParameterValue>) -> [ParameterValue] {
        set.sorted { isOrderedBefore(sortKey($0), sortKey($1)) }
    }

    /// The string a set member sorts by: its text, as `NSSet` members sort by `description`.
    private static func sortKey(_ value: ParameterValue) -> String {
        if let text = value.scalarText { return text }
        if case .null = value { return "" }
        return String(describing: value)
    }

    // MARK: - Pairs

    private static func collectPairs(key: String, value: ParameterValue, into result: inout [QueryStringPair]) {
        switch value {
        case .dictionary(let dictionary):
            for nestedKey in sortedKeys(dictionary) {
                collectPairs(key: "\(key)[\(nestedKey)]", value: dictionary[nestedKey]!, into: &result)
            }
        case .array(let array):
            for element in array {
                collectPairs(key: "\(key)[]", value: element, into: &result)
            }
        case .set(let set):
            for member in sortedMembers(set) {
                collectPairs(key: key, value: member, into: &result)
            }
        case .null:
            result.append(QueryStringPair(field: key, value: nil))
        case .string, .integer, .double, .bool:
            result.append(QueryStringPair(field: key, value: value.scalarText))
        }
    }

    // MARK: - Direct encoding

    /// Writes pairs straight into a byte buffer, keeping the escaped field prefix as it descends.
    private struct Writer {
        var output: [UInt8] = []
        var prefix: [UInt8] = []
        var pairCount = 0

        static let openBracket: [UInt8] = Array("%5B".utf8)
        static let closeBracket: [UInt8] = Array("%5D".utf8)
        static let emptyBrackets: [UInt8] = Array("%5B%5D".utf8)

        mutating func writeDictionary(_ dictionary: OrderedDictionary<String, ParameterValue>, isTopLevel: Bool) {
            let mark = prefix.count
            for key in QueryString.sortedKeys(dictionary) {
                if isTopLevel {
                    PercentEscaping.append(key, to: &prefix)
                } else {
                    prefix.append(contentsOf: Self.openBracket)
                    PercentEscaping.append(key, to: &prefix)
                    prefix.append(contentsOf: Self.closeBracket)
                }
                writeValue(dictionary[key]!)
                prefix.removeSubrange(mark...)
            }
        }

        mutating func writeValue(_ value: ParameterValue) {
            switch value {
            case .dictionary(let dictionary):
                writeDictionary(dictionary, isTopLevel: false)
            case .array(let array):
                let mark = prefix.count
                prefix.append(contentsOf: Self.emptyBrackets)
                for element in array {
                    writeValue(element)
                }
                prefix.removeSubrange(mark...)
            case .set(let set):
                for member in QueryString.sortedMembers(set) {
                    writeValue(member)
                }
            case .null:
                startPair()
            case .string(let string):
                startPair()
                output.append(UInt8(ascii: "="))
                PercentEscaping.append(string, to: &output)
            case .integer, .double, .bool:
                startPair()
                output.append(UInt8(ascii: "="))
                PercentEscaping.append(value.scalarText!, to: &output)
            }
        }

        private mutating func startPair() {
            if pairCount > 0 { output.append(UInt8(ascii: "&")) }
            pairCount += 1
            output.append(contentsOf: prefix)
        }
    }
}
