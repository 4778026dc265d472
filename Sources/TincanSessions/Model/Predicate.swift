import Foundation
import TincanCore

/// A test on a value: equality by default, or any of the named checks, all of which must hold.
public struct Predicate: Sendable, Equatable {
    public enum Check: Sendable, Equatable {
        case equals(ParameterValue)
        case notEquals(ParameterValue)
        case contains(String)
        case matches(String)
        case exists(Bool)
        case type(ValueType)
        case lessThan(Double)
        case greaterThan(Double)
        case count(Int)
        case oneOf([ParameterValue])
    }

    /// The kinds `type:` can require.
    public enum ValueType: String, Sendable, CaseIterable {
        case string, number, integer, boolean, null, array, object
    }

    public var checks: [Check]

    /// Creates a predicate.
    public init(_ checks: [Check]) {
        self.checks = checks
    }

    /// Why `actual` fails, or nil when it passes. `expand` resolves variables in expected text.
    public func failure(for actual: ParameterValue?, expand: (ParameterValue) throws -> ParameterValue) rethrows -> String? {
        for check in checks {
            if let reason = try Self.failure(check, actual, expand) { return reason }
        }
        return nil
    }

    /// Why `actual` fails, or nil when it passes, with expected values taken as written.
    public func failure(for actual: ParameterValue?) -> String? {
        failure(for: actual) { $0 }
    }

    private static func failure(_ check: Check, _ actual: ParameterValue?, _ expand: (ParameterValue) throws -> ParameterValue) rethrows -> String? {
        if case .exists(let expected) = check {
            return (actual != nil) == expected ? nil : (expected ? "is missing" : "exists (\(show(actual!)))")
        }
        guard let actual else { return "is missing" }
        switch check {
        case .exists: return nil
        case .equals(let expected):
            let expected = try expand(expected)
            return same(actual, expected) ? nil : "is \(show(actual)), expected \(show(expected))"
        case .notEquals(let unexpected):
            let unexpected = try expand(unexpected)
            return same(actual, unexpected) ? "is \(show(actual)), expected anything else" : nil
        case .contains(let part):
            let part = try Template.text(expand(.string(part)))
            switch actual {
            case .array(let items): return items.contains { same($0, .string(part)) } ? nil : "is \(show(actual)), expected an element \(show(.string(part)))"
            case .dictionary(let members): return members[part] != nil ? nil : "has no member \(show(.string(part)))"
            default: return Template.text(actual).contains(part) ? nil : "is \(show(actual)), expected it to contain \(show(.string(part)))"
            }
        case .matches(let pattern):
            guard let expression = try? NSRegularExpression(pattern: pattern) else { return "the pattern \(show(.string(pattern))) is not a regular expression" }
            let value = Template.text(actual)
            let found = expression.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
            return found ? nil : "is \(show(actual)), expected it to match /\(pattern)/"
        case .type(let type):
            return kind(actual).contains(type) ? nil : "is \(actual.kindName) (\(show(actual))), expected \(type.rawValue)"
        case .lessThan(let bound):
            guard let number = number(actual) else { return "is \(show(actual)), expected a number below \(ParameterValue.format(bound))" }
            return number < bound ? nil : "is \(show(actual)), expected less than \(ParameterValue.format(bound))"
        case .greaterThan(let bound):
            guard let number = number(actual) else { return "is \(show(actual)), expected a number above \(ParameterValue.format(bound))" }
            return number > bound ? nil : "is \(show(actual)), expected more than \(ParameterValue.format(bound))"
        case .count(let expected):
            let count: Int? = switch actual {
            case .array(let items): items.count
            case .dictionary(let members): members.count
            case .string(let string): string.count
            default: nil
            }
            guard let count else { return "is \(actual.kindName), which has no count" }
            return count == expected ? nil : "has \(count) elements, expected \(expected)"
        case .oneOf(let options):
            let options = try options.map(expand)
            return options.contains { same(actual, $0) } ? nil : "is \(show(actual)), expected one of \(options.map(show).joined(separator: ", "))"
        }
    }

    /// Equality that does not tell 1 from 1.0, and compares text with numbers by their text
    /// (a header's "3" equals the YAML number 3).
    static func same(_ lhs: ParameterValue, _ rhs: ParameterValue) -> Bool {
        switch (lhs, rhs) {
        case (.integer, .double), (.double, .integer), (.integer, .integer), (.double, .double):
            return number(lhs) == number(rhs)
        case (.string(let string), .integer), (.string(let string), .double):
            return string == rhs.scalarText
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
        case (.dictionary(let left), .dictionary(let right)):
            return left.count == right.count && left.allSatisfy { key, value in right[key].map { same(value, $0) } ?? false }
        default:
            return lhs == rhs
        }
    }

    static func number(_ value: ParameterValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .double(let double): double
        case .string(let string): Double(string)
        default: nil
        }
    }

    private static func kind(_ value: ParameterValue) -> [ValueType] {
        switch value {
        case .string: [.string]
        case .integer: [.number, .integer]
        case .double(let double): double == double.rounded() ? [.number, .integer] : [.number]
        case .bool: [.boolean]
        case .null: [.null]
        case .array, .set: [.array]
        case .dictionary: [.object]
        }
    }

    /// A value as it is shown in a failure: strings quoted, everything else as JSON, long values cut.
    static func show(_ value: ParameterValue) -> String {
        let shown = JSONWriter.string(value)
        return shown.count > 160 ? String(shown.prefix(157)) + "…" : shown
    }
}
