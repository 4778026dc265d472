import OrderedCollections

/// A request parameter: the tree a serializer turns into a query string, a JSON body or a property list.
///
/// It mirrors the values AFNetworking accepts (`NSDictionary`, `NSArray`, `NSSet`, `NSString`,
/// `NSNumber`, `NSNull`) but keeps integers, floating-point numbers and booleans apart, so that
/// no Foundation `description` decides how a number is written. Dictionaries keep their insertion
/// order, which the JSON body preserves; the query string sorts keys as AFNetworking does.
public enum ParameterValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case null
    case array([ParameterValue])
    case dictionary(OrderedDictionary<String, ParameterValue>)
    /// An unordered collection: encoded in sorted order under its key, without `[]`.
    case set(Set<ParameterValue>)

    /// The scalar's text as it appears in a query string or a multipart part, or nil for null and collections.
    ///
    /// Booleans are `1`/`0` and whole numbers have no fraction, as AFNetworking's `NSNumber`
    /// descriptions are on Apple platforms (Linux's Foundation would write `1.0`).
    public var scalarText: String? {
        switch self {
        case .string(let string): string
        case .integer(let integer): String(integer)
        case .double(let double): Self.format(double)
        case .bool(let bool): bool ? "1" : "0"
        case .null, .array, .dictionary, .set: nil
        }
    }

    /// Formats a floating-point number the way `NSNumber.description` does on Apple platforms:
    /// whole numbers without a fraction, anything else in its shortest round-tripping form.
    public static func format(_ double: Double) -> String {
        if double.isFinite, double == double.rounded(.towardZero), abs(double) < 1e15 {
            return String(Int64(double))
        }
        return double.description
    }

    /// The dictionary's entries, or nil when this is not a dictionary.
    public var dictionaryValue: OrderedDictionary<String, ParameterValue>? {
        if case .dictionary(let dictionary) = self { return dictionary }
        return nil
    }

    /// A short name for the kind of value, for error messages.
    public var kindName: String {
        switch self {
        case .string: "a string"
        case .integer, .double: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .dictionary: "an object"
        case .set: "a set"
        }
    }
}

// MARK: - Literals

extension ParameterValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension ParameterValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension ParameterValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension ParameterValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension ParameterValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: ParameterValue...) { self = .array(elements) }
}

extension ParameterValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, ParameterValue)...) {
        self = .dictionary(OrderedDictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
