/// The one checked conversion that every number a user gives goes through: the command line,
/// session and config files, the TUI's property prompts and its `:` command line.
///
/// A range names its field, its bounds, whether it takes whole numbers only, its unit, and the
/// unit suffixes its text may carry (`64k`, `500ms`). Bounds are chosen so that the value can be
/// handed on without overflow: a timeout of at most 2,147,483 seconds is still an `Int32` of
/// milliseconds, and a rate of at most 1 TB/s times any file size stays far inside an `Int64`
/// of microseconds. NaN, infinities, a minus sign where the range has no negative numbers
/// (`-0` included) and numbers outside the bounds are refused with an error that names the
/// field, the value as typed and the range.
public struct NumericRange: Sendable, Equatable {
    /// The field's name as the user knows it: `timeout`, `--timeout`, `upload rate`.
    public var name: String
    /// The smallest value allowed.
    public var minimum: Double
    /// The largest value allowed.
    public var maximum: Double
    /// Whether only whole numbers are allowed.
    public var isInteger: Bool
    /// The unit shown after the range (`seconds`), or empty.
    public var unit: String
    /// Suffixes the text may end with, and what they multiply by (`k` → 1,000).
    public var suffixes: [String: Double]
    /// Examples of the text, shown when it is not a number (`50000, 64k or 1.5M`), or empty.
    public var examples: String

    /// Creates a range.
    public init(name: String, minimum: Double, maximum: Double, isInteger: Bool, unit: String = "", suffixes: [String: Double] = [:], examples: String = "") {
        self.name = name
        self.minimum = minimum
        self.maximum = maximum
        self.isInteger = isInteger
        self.unit = unit
        self.suffixes = suffixes
        self.examples = examples
    }

    /// The same range under another name, such as the command-line option that gives it.
    public func named(_ name: String) -> NumericRange {
        var range = self
        range.name = name
        return range
    }

    /// The range as shown in errors and docs: `0.001…2147483 seconds`.
    public var expected: String {
        let bounds = "\(ParameterValue.format(minimum))…\(ParameterValue.format(maximum))"
        return unit.isEmpty ? bounds : "\(bounds) \(unit)"
    }

    // MARK: - Checking

    /// Parses `text` (with one of the range's suffixes, if any) and checks it.
    ///
    /// - Throws: ``NumericRangeError`` naming the field, the text and the range.
    public func value(parsing text: String) throws(NumericRangeError) -> Double {
        let trimmed = text.trimmingWhitespace()
        var digits = Substring(trimmed)
        var multiplier = 1.0
        // The longest suffix first, so `ms` is not read as `m` after a number ending in... `m`.
        for suffix in suffixes.keys.sorted(by: { $0.count > $1.count }) where trimmed.count > suffix.count && trimmed.hasSuffix(suffix) {
            digits = trimmed.dropLast(suffix.count)
            multiplier = suffixes[suffix] ?? 1
            break
        }
        guard let number = Self.decimal(digits) else { throw error(trimmed, .notANumber) }
        return try check(number * multiplier, text: trimmed, rounding: multiplier != 1)
    }

    /// Parses `text` as a whole number in the range.
    ///
    /// - Throws: ``NumericRangeError`` naming the field, the text and the range.
    public func integer(parsing text: String) throws(NumericRangeError) -> Int {
        // The bounds of an integer range are whole and well inside Int, so the conversion is exact.
        Int(try value(parsing: text))
    }

    /// Checks a number already read (from a YAML or JSON number); `text` is how it was written.
    ///
    /// - Parameter rounding: Round to a whole number rather than refusing a fraction (the value
    ///   came through a suffix: `1.1k` is 1100 bytes, not 1100.0000000000002).
    /// - Throws: ``NumericRangeError`` naming the field, the text and the range.
    public func check(_ value: Double, text: String, rounding: Bool = false) throws(NumericRangeError) -> Double {
        guard !value.isNaN else { throw error(text, .notANumber) }
        if minimum >= 0, text.trimmingWhitespace().hasPrefix("-") { throw error(text, .outOfRange) }
        var value = value
        if isInteger, value != value.rounded() {
            guard rounding else { throw error(text, .notWhole) }
            value = value.rounded()
        }
        guard value >= minimum, value <= maximum else { throw error(text, .outOfRange) }
        return value == 0 ? 0 : value
    }

    private func error(_ text: String, _ reason: NumericRangeError.Reason) -> NumericRangeError {
        NumericRangeError(field: name, text: text, reason: reason, expected: expected + (reason == .notANumber && !examples.isEmpty ? ", such as \(examples)" : ""))
    }

    /// A decimal number as people and YAML write it: `5`, `0.5`, `1e3`, `inf`, `.inf`, `nan`.
    public static func decimal(_ text: Substring) -> Double? {
        guard !text.isEmpty, !text.contains(where: \.isWhitespace) else { return nil }
        switch text.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default: return Double(text)
        }
    }
}

// MARK: - The ranges

extension NumericRange {
    /// The request timeout: at least a millisecond, at most what an `Int32` of milliseconds
    /// holds (about 24.8 days).
    public static let timeout = NumericRange(name: "timeout", minimum: 0.001, maximum: 2_147_483, isInteger: false, unit: "seconds", examples: "5 or 0.5")

    /// An upload pace: at least 1 byte per second, at most 1 TB/s; `k`, `M` and `G` are decimal
    /// multipliers as in curl's `--limit-rate`.
    public static let uploadRate = NumericRange(
        name: "rate", minimum: 1, maximum: 1e12, isInteger: true, unit: "bytes per second",
        suffixes: ["k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "g": 1e9, "G": 1e9], examples: "50000, 64k or 1.5M")

    /// The most response-body bytes kept in memory: 0 (no limit) up to 1 TB; `k`, `M` and `G`
    /// are decimal multipliers, as for rates.
    public static let bodySize = NumericRange(
        name: "max-body", minimum: 0, maximum: 1e12, isInteger: true, unit: "bytes",
        suffixes: ["k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "g": 1e9, "G": 1e9], examples: "500k, 256M, 2G, or 0 for no limit")

    /// The most bytes a response's header fields may take: 1 kB up to 1 MB (decimal `k` and
    /// `M`, as for body sizes); the default is 65,536 (``ConnectionOptions/standardMaximumHeaderBytes``).
    public static let headerSize = NumericRange(
        name: "max-header-size", minimum: 1_000, maximum: 1e6, isInteger: true, unit: "bytes",
        suffixes: ["k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6], examples: "64k or 200000")

    /// The longest a request may take in an assertion: 0 up to the timeout's bound; `500ms` and
    /// `2s` are allowed, a plain number is seconds.
    public static let maxDuration = NumericRange(
        name: "max-duration", minimum: 0, maximum: 2_147_483, isInteger: false, unit: "seconds", suffixes: ["ms": 0.001, "s": 1],
        examples: "2s, 500ms or 1.5")

    /// The most redirects a request follows: 0 (none) up to 1000.
    public static let redirects = NumericRange(name: "max-redirects", minimum: 0, maximum: 1_000, isInteger: true)

    /// The longest a whole request may take, redirects and challenges included: the timeout's range.
    public static let deadline = NumericRange(name: "max-time", minimum: 0.001, maximum: 2_147_483, isInteger: false, unit: "seconds", examples: "30 or 2.5")

    /// How many times a retry policy sends a request again: 0 (never) up to 100.
    public static let retries = NumericRange(name: "retry", minimum: 0, maximum: 100, isInteger: true)

    /// A retry policy's delays (the base backoff, the longest wait): 0 up to an hour; `500ms`
    /// and `2s` are allowed, a plain number is seconds.
    public static let retryDelay = NumericRange(
        name: "retry-delay", minimum: 0, maximum: 3_600, isInteger: false, unit: "seconds", suffixes: ["ms": 0.001, "s": 1],
        examples: "0.5, 500ms or 2s")

    /// An HTTP status code.
    public static let statusCode = NumericRange(name: "status", minimum: 100, maximum: 599, isInteger: true)

    /// A TCP port (0 asks for a free one where that makes sense).
    public static let port = NumericRange(name: "port", minimum: 0, maximum: 65_535, isInteger: true)

    /// A count of elements, members or characters in a check.
    public static let count = NumericRange(name: "count", minimum: 0, maximum: 2_147_483_647, isInteger: true)

    /// An error code in an assertion (AFNetworking's codes are negative, NSURLError's too).
    public static let errorCode = NumericRange(name: "code", minimum: -2_147_483_648, maximum: 2_147_483_647, isInteger: true)

    /// A bound that a number is compared with (`less-than`, `greater-than`): any finite number.
    public static let comparison = NumericRange(name: "bound", minimum: -Double.greatestFiniteMagnitude, maximum: .greatestFiniteMagnitude, isInteger: false)

    /// A request's number in a session, from 1.
    public static let requestNumber = NumericRange(name: "request", minimum: 1, maximum: 2_147_483_647, isInteger: true)

    /// An index in a nested parameter name (`list[3]`); see ``ParameterPath/maximumIndex``.
    public static let parameterIndex = NumericRange(name: "index", minimum: 0, maximum: Double(ParameterPath.maximumIndex), isInteger: true)
}

/// A number a user gave that is not in its field's range.
public struct NumericRangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the number was refused.
    public enum Reason: Sendable, Equatable {
        /// The text is not a number, or is NaN.
        case notANumber
        /// The number is outside the bounds, infinite, or negative where only positive ones are allowed.
        case outOfRange
        /// The field takes whole numbers.
        case notWhole
    }

    /// The field, as the user knows it.
    public var field: String
    /// The value as typed.
    public var text: String
    /// Why it was refused.
    public var reason: Reason
    /// The range as shown: `0.001…2147483 seconds`.
    public var expected: String

    /// Creates an error.
    public init(field: String, text: String, reason: Reason, expected: String) {
        self.field = field
        self.text = text
        self.reason = reason
        self.expected = expected
    }

    /// The message without the field's name, for places that already name it.
    public var message: String {
        switch reason {
        case .notANumber: "'\(text)' is not a number; expected \(expected)"
        case .outOfRange: "\(text) is out of range (\(expected))"
        case .notWhole: "\(text) is not a whole number; expected \(expected)"
        }
    }

    public var description: String { "\(field): \(message)" }
}
