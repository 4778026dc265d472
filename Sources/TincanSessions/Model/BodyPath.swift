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
                guard !name.isEmpty else { throw BodyPathError(path: text, reason: .expectedMemberName) }
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
                        throw BodyPathError(path: text, reason: .unclosedQuotedName(quote))
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
                        throw BodyPathError(path: text, reason: .expectedIndex)
                    }
                    index += 1
                    steps.append(.index(number))
                }
            default:
                throw BodyPathError(path: text, reason: .unexpected(String(characters[index...])))
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

/// A body path that could not be parsed: the path, and where it went wrong.
public struct BodyPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was expected.
    public enum Reason: Sendable, Equatable {
        /// A `.` with no name after it.
        case expectedMemberName
        /// A quoted name (`["a.b"]`) whose quote, then `]`, never comes.
        case unclosedQuotedName(Character)
        /// `[…]` holding neither a whole number nor a quoted name.
        case expectedIndex
        /// Text where a `.` or `[` should start the next step (the rest of the path).
        case unexpected(String)
    }

    /// The path as written.
    public var path: String
    /// What was expected.
    public var reason: Reason

    /// Creates an error.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let expected = switch reason {
        case .expectedMemberName: "a member name after '.'"
        case .unclosedQuotedName(let quote): "\(quote)] to close the quoted member name"
        case .expectedIndex: "an index such as [0] or [-1], or a quoted name such as [\"a.b\"]"
        case .unexpected(let rest): "'.' or '[' at '\(rest)'"
        }
        return "bad body path '\(path)': expected \(expected)"
    }
}
