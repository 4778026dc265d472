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
        case startsWith(String)
        case endsWith(String)
        /// An empty string, array or object (`true`), or a non-empty one (`false`).
        case isEmpty(Bool)
        /// Passes when the wrapped predicate fails.
        indirect case not(Predicate)
        case lessOrEqual(Double)
        case greaterOrEqual(Double)
        /// Text that is (`true`) or is not (`false`) an ISO 8601 date or date-time.
        case isDate(Bool)
    }

    /// The kinds `type:` can require.
    public enum ValueType: String, Sendable, CaseIterable {
        case string, number, integer, boolean, null, array, object
    }

    public var checks: [Check]
    /// Filters applied in order to the value before the checks (`filters: [first, to-int]`).
    public var filters: [ValueFilter]

    /// Creates a predicate.
    public init(_ checks: [Check], filters: [ValueFilter] = []) {
        self.checks = checks
        self.filters = filters
    }

    /// Why `actual` fails, or nil when it passes. `expand` resolves variables in expected text.
    /// When `isNodeList`, `actual` is the list a multi-valued body path selected, and `exists`
    /// asks whether it selected anything.
    public func failure(for actual: ParameterValue?, isNodeList: Bool = false, expand: (ParameterValue) throws -> ParameterValue) rethrows -> String? {
        var actual = actual
        var isNodeList = isNodeList
        if !filters.isEmpty, let value = actual {
            switch ValueFilter.apply(filters, to: value) {
            case .success(let filtered): actual = filtered
            case .failure(let failure): return failure.description
            }
            isNodeList = false
        }
        if isNodeList, case .array(let nodes)? = actual, nodes.isEmpty {
            for check in checks {
                if case .exists(let expected) = check { return expected ? "matches nothing" : nil }
            }
        }
        for check in checks {
            if let reason = try Self.failure(check, actual, isNodeList, expand) { return reason }
        }
        return nil
    }

    /// Why `actual` fails, or nil when it passes, with variables in expected values expanded by
    /// `template`; a variable with no value is the failure.
    func failure(for actual: ParameterValue?, isNodeList: Bool = false, template: Template) -> String? {
        do {
            return try failure(for: actual, isNodeList: isNodeList) { try template.expand($0) }
        } catch {
            return "\(error)"
        }
    }

    /// Why `actual` fails, or nil when it passes, with expected values taken as written.
    public func failure(for actual: ParameterValue?) -> String? {
        failure(for: actual) { $0 }
    }

    private static func failure(_ check: Check, _ actual: ParameterValue?, _ isNodeList: Bool, _ expand: (ParameterValue) throws -> ParameterValue) rethrows -> String? {
        if case .exists(let expected) = check {
            return (actual != nil) == expected ? nil : (expected ? "is missing" : "exists (\(actual.map(show) ?? ""))")
        }
        if case .not(let inner) = check {
            guard try inner.failure(for: actual, isNodeList: isNodeList, expand: expand) == nil else { return nil }
            return "is \(actual.map(show) ?? "missing"), expected it not to satisfy \(inner.summary)"
        }
        guard let actual else { return "is missing" }
        switch check {
        case .exists, .not: return nil
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
        case .startsWith(let prefix):
            let prefix = try Template.text(expand(.string(prefix)))
            guard case .string(let text) = actual else { return "is \(actual.kindName) (\(show(actual))), expected text starting with \(show(.string(prefix)))" }
            return text.hasPrefix(prefix) ? nil : "is \(show(actual)), expected it to start with \(show(.string(prefix)))"
        case .endsWith(let suffix):
            let suffix = try Template.text(expand(.string(suffix)))
            guard case .string(let text) = actual else { return "is \(actual.kindName) (\(show(actual))), expected text ending with \(show(.string(suffix)))" }
            return text.hasSuffix(suffix) ? nil : "is \(show(actual)), expected it to end with \(show(.string(suffix)))"
        case .isEmpty(let expected):
            let empty: Bool? = switch actual {
            case .string(let text): text.isEmpty
            case .array(let items): items.isEmpty
            case .dictionary(let members): members.isEmpty
            case .set(let members): members.isEmpty
            default: nil
            }
            guard let empty else { return "is \(actual.kindName) (\(show(actual))), which is neither text nor a collection, expected \(expected ? "an empty" : "a non-empty") one" }
            return empty == expected ? nil : "is \(show(actual)), expected \(expected ? "it to be empty" : "it not to be empty")"
        case .lessOrEqual(let bound):
            guard let number = number(actual) else { return "is \(show(actual)), expected a number at most \(ParameterValue.format(bound))" }
            return number <= bound ? nil : "is \(show(actual)), expected at most \(ParameterValue.format(bound))"
        case .greaterOrEqual(let bound):
            guard let number = number(actual) else { return "is \(show(actual)), expected a number at least \(ParameterValue.format(bound))" }
            return number >= bound ? nil : "is \(show(actual)), expected at least \(ParameterValue.format(bound))"
        case .isDate(let expected):
            let isDate = if case .string(let text) = actual { ISODate.isValid(text) } else { false }
            return isDate == expected ? nil : "is \(show(actual)), expected \(expected ? "an ISO 8601 date or date-time" : "anything but an ISO 8601 date")"
        }
    }

    /// The predicate as a failure names it: `{contains: "x"}`.
    var summary: String {
        let lines = YAMLWriter.write(yaml).split(separator: "\n").map { $0.trimmingWhitespace() }
        if case .mapping = yaml { return "{" + lines.joined(separator: ", ") + "}" }
        return lines.joined(separator: " ")
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
