import Foundation
import OrderedCollections
import TincanCore

/// Where a value stands in a HAR file: `log.entries[3].request.url`.
struct HARPath: Sendable, Equatable {
    enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    var steps: [Step] = []

    /// The path as the error names it; `the file` for the root.
    var text: String {
        guard !steps.isEmpty else { return "the file" }
        var text = ""
        for step in steps {
            switch step {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    func appending(_ step: Step) -> HARPath {
        HARPath(steps: steps + [step])
    }

    /// The 1-based line and column where the value at `path` starts in the JSON `bytes`, or nil
    /// when it has no value there. The file is read again, keeping where each value starts, only
    /// once it has been refused.
    static func location(of path: HARPath, in bytes: [UInt8]) -> (line: Int, column: Int)? {
        var builder = ImportNodeBuilder()
        guard var node = try? JSONParser.parse(bytes: bytes, builder: &builder) else { return nil }
        for step in path.steps {
            switch step {
            case .key(let key):
                guard let child = node.members.first(where: { $0.key == key })?.value else { return nil }
                node = child
            case .index(let index):
                guard let sequence = node.sequence, index >= 0, index < sequence.count else { return nil }
                node = sequence[index]
            }
        }
        guard let offset = node.place.offset else { return nil }
        return JSONParser.place(of: offset, in: bytes)
    }
}

/// A value of a HAR file does not have the shape HAR gives it.
struct HARShapeError: Error {
    /// The value at fault (the object, when a key is missing).
    var path: HARPath
    /// What was expected, as a phrase: `a string`, `an object with a log key`.
    var expected: String
}

/// A value read from a HAR file with its path, so that each accessor names what it expected.
struct HARNode {
    let value: ParameterValue
    let path: HARPath

    init(_ value: ParameterValue, path: HARPath = HARPath()) {
        self.value = value
        self.path = path
    }

    /// The object's members; the error says what the object is (`a HAR log`).
    func object(_ what: String = "an object") throws(HARShapeError) -> OrderedDictionary<String, ParameterValue> {
        guard case .dictionary(let members) = value else { throw HARShapeError(path: path, expected: "\(what), found \(value.kindName)") }
        return members
    }

    /// The member `key`, or nil when it is absent or null.
    func member(_ key: String) throws(HARShapeError) -> HARNode? {
        let members = try object()
        guard let member = members[key], member != .null else { return nil }
        return HARNode(member, path: path.appending(.key(key)))
    }

    /// The member `key`, which must be there.
    func required(_ key: String, _ what: String) throws(HARShapeError) -> HARNode {
        guard let member = try member(key) else { throw HARShapeError(path: path, expected: "an object with \(key) (\(what))") }
        return member
    }

    /// The member `key` as a string, or nil when it is absent.
    func string(_ key: String) throws(HARShapeError) -> String? {
        guard let member = try member(key) else { return nil }
        guard case .string(let text) = member.value else { throw HARShapeError(path: member.path, expected: "a string, found \(member.value.kindName)") }
        return text
    }

    /// The member `key` as a string, which must be there.
    func requiredString(_ key: String) throws(HARShapeError) -> String {
        guard let text = try string(key) else { throw HARShapeError(path: path, expected: "an object with \(key) (a string)") }
        return text
    }

    /// The member `key` as an integer in `range`, or nil when it is absent.
    func integer(_ key: String, in range: ClosedRange<Int>) throws(HARShapeError) -> Int? {
        guard let member = try member(key) else { return nil }
        let number: Int? = switch member.value {
        case .integer(let integer): Int(exactly: integer)
        case .double(let double): Int(exactly: double)
        default: nil
        }
        guard let number, range.contains(number) else {
            throw HARShapeError(path: member.path, expected: "a whole number from \(range.lowerBound) to \(range.upperBound), found \(Self.found(member.value))")
        }
        return number
    }

    /// A value as an error names it: a number itself, otherwise its kind.
    static func found(_ value: ParameterValue) -> String {
        switch value {
        case .integer, .double: JSONWriter.string(value)
        default: value.kindName
        }
    }

    /// The member `key`'s elements, or none when it is absent.
    func array(_ key: String) throws(HARShapeError) -> [HARNode] {
        guard let member = try member(key) else { return [] }
        guard case .array(let items) = member.value else { throw HARShapeError(path: member.path, expected: "an array, found \(member.value.kindName)") }
        return items.enumerated().map { HARNode($0.element, path: member.path.appending(.index($0.offset))) }
    }

    /// The `[{name, value}]` list of member `key` (headers, cookies, query, form fields).
    func pairs(_ key: String) throws(HARShapeError) -> [(name: String, value: String)] {
        try array(key).map { item throws(HARShapeError) in
            (try item.requiredString("name"), try item.string("value") ?? "")
        }
    }
}
