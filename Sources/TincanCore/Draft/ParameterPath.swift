import OrderedCollections

/// A nested parameter name such as `user[address][city]`, `tags[]` or `tags[0]` (HTTPie's nested syntax).
public struct ParameterPath: Sendable, Equatable, CustomStringConvertible {
    /// One step into the parameter tree.
    public enum Component: Sendable, Equatable {
        case key(String)
        case append
        case index(Int)
    }

    /// The steps, the first always a key.
    public var components: [Component]

    /// The largest index a name may give (`list[9999]`). The gap before an index is filled with
    /// nulls, so without a bound `a[100000000]=x` would build a hundred-million-element array.
    public static let maximumIndex = 9_999

    /// Parses a name; a name without brackets is a single key.
    ///
    /// - Throws: ``RequestItemError`` for unbalanced brackets, or an index over ``maximumIndex``.
    public init(parsing name: String) throws(RequestItemError) {
        guard let open = name.firstIndex(of: "[") else {
            components = [.key(name)]
            return
        }
        guard name.hasSuffix("]") else {
            throw RequestItemError(item: name, reason: "expected ']' to close '[' in the parameter name")
        }
        let head = String(name[..<open])
        guard !head.isEmpty else { throw RequestItemError(item: name, reason: "a nested parameter needs a name before '['") }
        var components: [Component] = [.key(head)]
        var rest = name[open...]
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else {
                throw RequestItemError(item: name, reason: "expected '[key]', '[]' or '[index]' after '\(head)'")
            }
            let inner = String(rest[rest.index(after: rest.startIndex)..<close])
            if inner.isEmpty {
                components.append(.append)
            } else if inner.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                // The gap before an index is filled with nulls (HTTPie's rule), so one short item
                // could ask for any amount of memory: indexes are bounded, and a number too long
                // for Int is the same mistake, not a key.
                do {
                    components.append(.index(try NumericRange.parameterIndex.integer(parsing: inner)))
                } catch {
                    throw RequestItemError(item: name, reason: "the index \(inner) is out of range (0…\(Self.maximumIndex)); "
                        + "an index fills the gap before it with nulls, so it may be at most \(Self.maximumIndex)")
                }
            } else {
                components.append(.key(inner))
            }
            rest = rest[rest.index(after: close)...]
        }
        self.components = components
    }

    public var description: String {
        components.enumerated().map { offset, component in
            switch component {
            case .key(let key): offset == 0 ? key : "[\(key)]"
            case .append: "[]"
            case .index(let index): "[\(index)]"
            }
        }.joined()
    }

    /// Puts `value` at this path in `root`, creating objects and arrays on the way.
    ///
    /// A key given twice collects its values into an array (`a=1 a=2` is `a: ["1", "2"]`).
    /// - Throws: ``RequestItemError`` when the path runs through a value of another kind.
    public func insert(_ value: ParameterValue, into root: inout OrderedDictionary<String, ParameterValue>) throws(RequestItemError) {
        guard case .key(let first) = components[0] else { return }
        var slot: ParameterValue? = root[first]
        try Self.insert(value, into: &slot, path: components.dropFirst(), walked: first, whole: self)
        root[first] = slot
    }

    private static func insert(
        _ value: ParameterValue,
        into slot: inout ParameterValue?,
        path: ArraySlice<Component>,
        walked: String,
        whole: ParameterPath
    ) throws(RequestItemError) {
        guard let step = path.first else {
            switch slot {
            case .none: slot = value
            case .array(var array)?:
                array.append(value)
                slot = .array(array)
            case .dictionary?:
                throw RequestItemError(item: whole.description, reason: "'\(walked)' is already an object; give a key, such as \(walked)[key]")
            case let existing?:
                slot = .array([existing, value])
            }
            return
        }
        let rest = path.dropFirst()
        switch step {
        case .key(let key):
            var dictionary: OrderedDictionary<String, ParameterValue>
            switch slot {
            case .none: dictionary = [:]
            case .dictionary(let existing)?: dictionary = existing
            case let other?:
                throw RequestItemError(item: whole.description, reason: "'\(walked)' is already \(other.kindName), not an object")
            }
            var child = dictionary[key]
            try insert(value, into: &child, path: rest, walked: "\(walked)[\(key)]", whole: whole)
            dictionary[key] = child
            slot = .dictionary(dictionary)
        case .append, .index:
            var array: [ParameterValue]
            switch slot {
            case .none: array = []
            case .array(let existing)?: array = existing
            case let other?:
                throw RequestItemError(item: whole.description, reason: "'\(walked)' is already \(other.kindName), not an array")
            }
            let position: Int
            if case .index(let index) = step { position = index } else { position = array.count }
            while array.count < position { array.append(.null) }
            var child: ParameterValue? = position < array.count ? array[position] : .none
            if rest.isEmpty, case .index = step { child = .none }
            try insert(value, into: &child, path: rest, walked: "\(walked)[\(position)]", whole: whole)
            if position < array.count { array[position] = child ?? .null } else { array.append(child ?? .null) }
            slot = .array(array)
        }
    }
}
