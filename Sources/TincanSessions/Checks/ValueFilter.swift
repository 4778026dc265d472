import Foundation
import TincanCore

/// A step that turns a captured or checked value into another before it is captured or checked
/// (Hurl's filters): a `filters:` list on a capture or a check, applied in order.
public enum ValueFilter: Sendable, Equatable {
    /// The number of elements of an array or members of an object.
    case count
    /// The element at an index of an array (`-1` the last).
    case nth(Int)
    case first
    case last
    /// Text split at every occurrence of a separator, into an array of text.
    case split(String)
    /// A whole number from text or a number.
    case toInt
    /// A number from text or a number.
    case toFloat
    /// The first group of a regular expression's first match in the text (the whole match
    /// without a group).
    case regex(String)
    /// `%XX` escapes decoded (a `+` stays a `+`).
    case urlDecode
    /// Base64 decoded into UTF-8 text.
    case base64Decode

    /// The filter's key in a session file.
    public var key: SessionKey.Filter {
        switch self {
        case .count: .count
        case .nth: .nth
        case .first: .first
        case .last: .last
        case .split: .split
        case .toInt: .toInt
        case .toFloat: .toFloat
        case .regex: .regex
        case .urlDecode: .urlDecode
        case .base64Decode: .base64Decode
        }
    }

    /// The filter as failures name it: `nth 2`, `split ","`, `to-int`.
    public var name: String {
        switch self {
        case .nth(let index): "nth \(index)"
        case .split(let separator): "split \(Predicate.show(.string(separator)))"
        case .regex(let pattern): "regex /\(pattern)/"
        default: key.rawValue
        }
    }

    /// `value` through `filters` in order, or the first filter that could not apply.
    public static func apply(_ filters: [ValueFilter], to value: ParameterValue) -> Result<ParameterValue, ValueFilterFailure> {
        var current = value
        for filter in filters {
            switch filter.transform(current) {
            case .success(let next): current = next
            case .failure(let reason): return .failure(ValueFilterFailure(filter: filter.name, value: current, reason: reason))
            }
        }
        return .success(current)
    }

    private func transform(_ value: ParameterValue) -> Result<ParameterValue, ValueFilterFailure.Reason> {
        switch (self, value) {
        case (.count, .array(let items)): return .success(.integer(Int64(items.count)))
        case (.count, .dictionary(let members)): return .success(.integer(Int64(members.count)))
        case (.count, .set(let members)): return .success(.integer(Int64(members.count)))
        case (.count, _): return .failure(.expected("an array or an object"))
        case (.nth(let index), .array(let items)):
            let position = index < 0 ? items.count + index : index
            return items.indices.contains(position) ? .success(items[position]) : .failure(.noElement(items.count))
        case (.first, .array(let items)): return items.first.map { .success($0) } ?? .failure(.noElement(0))
        case (.last, .array(let items)): return items.last.map { .success($0) } ?? .failure(.noElement(0))
        case (.nth, _), (.first, _), (.last, _): return .failure(.expected("an array"))
        case (.split(let separator), .string(let text)):
            return .success(.array(text.components(separatedBy: separator).map(ParameterValue.string)))
        case (.toInt, .integer): return .success(value)
        case (.toInt, .double(let double)):
            guard double == double.rounded(), let integer = Int64(exactly: double) else { return .failure(.expected("a whole number")) }
            return .success(.integer(integer))
        case (.toInt, .string(let text)):
            guard let integer = Int64(text.trimmingWhitespace()) else { return .failure(.expected("text of a whole number between -9223372036854775808 and 9223372036854775807")) }
            return .success(.integer(integer))
        case (.toFloat, .integer(let integer)): return .success(.double(Double(integer)))
        case (.toFloat, .double): return .success(value)
        case (.toFloat, .string(let text)):
            guard let double = Double(text.trimmingWhitespace()), double.isFinite else { return .failure(.expected("text of a finite number")) }
            return .success(.double(double))
        case (.toInt, _), (.toFloat, _): return .failure(.expected("a number or text"))
        case (.regex(let pattern), .string(let text)):
            switch Self.firstGroup(of: pattern, in: text) {
            case .invalidPattern: return .failure(.expected("a regular expression as the pattern"))
            case .noMatch, .emptyGroup: return .failure(.noMatch)
            case .found(let found): return .success(.string(found))
            }
        case (.urlDecode, .string(let text)):
            guard let decoded = text.removingPercentEncoding else { return .failure(.expected("text whose %XX escapes are UTF-8")) }
            return .success(.string(decoded))
        case (.base64Decode, .string(let text)):
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { return .failure(.expected("base64 text")) }
            guard let decoded = String(validating: data, as: UTF8.self) else { return .failure(.expected("base64 of UTF-8 text")) }
            return .success(.string(decoded))
        case (.split, _), (.regex, _), (.urlDecode, _), (.base64Decode, _): return .failure(.expected("text"))
        }
    }
}

extension ValueFilter {
    /// What a regular expression finds in text.
    enum RegexOutcome: Equatable {
        case invalidPattern, noMatch
        /// It matched, but its first group took no part in the match.
        case emptyGroup
        /// The first group of the first match (the whole match without a group).
        case found(String)
    }

    /// The first group of `pattern`'s first match in `text`: the regex capture and the regex filter.
    static func firstGroup(of pattern: String, in text: String) -> RegexOutcome {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return .invalidPattern }
        guard let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return .noMatch }
        let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        guard let found = Range(range, in: text) else { return .emptyGroup }
        return .found(String(text[found]))
    }
}

/// A filter that could not apply to its value.
public struct ValueFilterFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Error, Sendable, Equatable {
        /// The value is not what the filter takes.
        case expected(String)
        /// The index is outside an array of this many elements.
        case noElement(Int)
        /// The pattern does not match.
        case noMatch
    }

    /// The filter as written (`nth 3`).
    public var filter: String
    /// The value it was given.
    public var value: ParameterValue
    public var reason: Reason

    public var description: String {
        let shown = Predicate.show(value)
        return switch reason {
        case .expected(let expected): "filter \(filter): \(shown) is \(value.kindName), expected \(expected)"
        case .noElement(let count): "filter \(filter): \(shown) has \(count) element\(count == 1 ? "" : "s"), so no such element"
        case .noMatch: "filter \(filter): \(shown) does not match"
        }
    }
}

extension NumericRange {
    /// The index of the `nth` filter (`-1` the last).
    static let filterIndex = NumericRange(name: "nth", minimum: -2_147_483_648, maximum: 2_147_483_647, isInteger: true)
}
