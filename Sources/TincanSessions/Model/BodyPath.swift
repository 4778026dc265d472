import Foundation
import OrderedCollections
import TincanCore

/// A path into a decoded body: `$` is the whole body, `.name` or `["name"]` an object's member,
/// `[2]` an array's element (`[-1]` the last). `json.name` is short for `$.json.name`.
public struct BodyPath: Sendable, Hashable, CustomStringConvertible {
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The path as written.
    public let text: String
    /// The steps from the root.
    public let steps: [Step]

    /// Parses a path.
    ///
    /// - Throws: ``BodyPathError`` saying where the path went wrong and what was expected.
    public init(parsing text: String) throws(BodyPathError) {
        self.text = text
        var characters = Array(text)
        if characters.first == "$" {
            characters.removeFirst()
        } else if !characters.isEmpty, characters.first != "[" {
            characters.insert(".", at: 0)
        }
        var steps: [Step] = []
        var index = 0
        while index < characters.count {
            switch characters[index] {
            case ".":
                index += 1
                var name = ""
                while index < characters.count, characters[index] != ".", characters[index] != "[" {
                    name.append(characters[index])
                    index += 1
                }
                guard !name.isEmpty else { throw BodyPathError(path: text, reason: "expected a member name after '.'") }
                steps.append(.key(name))
            case "[":
                index += 1
                if index < characters.count, characters[index] == "\"" || characters[index] == "'" {
                    let quote = characters[index]
                    index += 1
                    var name = ""
                    while index < characters.count, characters[index] != quote {
                        if characters[index] == "\\", index + 1 < characters.count { index += 1 }
                        name.append(characters[index])
                        index += 1
                    }
                    guard index + 1 < characters.count, characters[index + 1] == "]" else {
                        throw BodyPathError(path: text, reason: "expected \(quote)] to close the quoted member name")
                    }
                    index += 2
                    steps.append(.key(name))
                } else {
                    var digits = ""
                    while index < characters.count, characters[index] != "]" {
                        digits.append(characters[index])
                        index += 1
                    }
                    guard index < characters.count, let number = Int(digits) else {
                        throw BodyPathError(path: text, reason: "expected an index such as [0] or [-1], or a quoted name such as [\"a.b\"]")
                    }
                    index += 1
                    steps.append(.index(number))
                }
            default:
                throw BodyPathError(path: text, reason: "expected '.' or '[' at '\(String(characters[index...]))'")
            }
        }
        self.steps = steps
    }

    public var description: String { text }

    /// The path with `steps` as captures and assertions write it: `$`, `$.items[2].name`,
    /// `$["odd key"]`. It reads back to the same steps.
    public static func text(_ steps: [Step]) -> String {
        "$" + steps.map(stepText).joined()
    }

    /// One step as written: `.name` for a name made of letters, digits and `_` that does not
    /// start with a digit, `["…"]` for any other name (a backslash before `"` and `\`), `[2]`
    /// for an index. The TUI's copy-path writes its paths with it too.
    public static func stepText(_ step: Step) -> String {
        switch step {
        case .index(let index):
            return "[\(index)]"
        case .key(let name):
            let scalars = name.unicodeScalars
            let isIdentifier = scalars.first.map { !("0"..."9").contains($0) } ?? false
                && scalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
            if isIdentifier { return ".\(name)" }
            var quoted = "[\""
            for character in name {
                if character == "\"" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "\"]"
        }
    }

    /// The value at this path, or nil when a step is missing.
    public func value(in root: ParameterValue) -> ParameterValue? {
        var current = root
        for step in steps {
            switch (step, current) {
            case (.key(let key), .dictionary(let dictionary)):
                guard let next = dictionary[key] else { return nil }
                current = next
            case (.index(let index), .array(let array)):
                let position = index < 0 ? array.count + index : index
                guard array.indices.contains(position) else { return nil }
                current = array[position]
            default:
                return nil
            }
        }
        return current
    }

    /// `root` with the value at this path removed (used to ignore volatile fields when comparing).
    public func removing(from root: ParameterValue) -> ParameterValue {
        Self.remove(steps[...], from: root)
    }

    private static func remove(_ steps: ArraySlice<Step>, from value: ParameterValue) -> ParameterValue {
        guard let step = steps.first else { return value }
        let rest = steps.dropFirst()
        switch (step, value) {
        case (.key(let key), .dictionary(var dictionary)):
            if rest.isEmpty {
                dictionary.removeValue(forKey: key)
            } else if let child = dictionary[key] {
                dictionary[key] = remove(rest, from: child)
            }
            return .dictionary(dictionary)
        case (.index(let index), .array(var array)):
            let position = index < 0 ? array.count + index : index
            guard array.indices.contains(position) else { return value }
            if rest.isEmpty { array.remove(at: position) } else { array[position] = remove(rest, from: array[position]) }
            return .array(array)
        default:
            return value
        }
    }
}

/// A body path that could not be parsed.
public struct BodyPathError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "bad body path '\(path)': \(reason)" }
}

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
