import OrderedCollections
import TincanCore
import Yams

/// A value of a collection being imported, read from JSON or YAML, with where it starts in
/// its file: what every importer walks, whichever syntax the file is in.
///
/// A JSON file is read by ``JSONParser`` (surrogate pairs, numbers and errors as JSON has
/// them), a YAML one by Yams; both give these nodes, so an importer never asks which it was.
enum ImportNode: Sendable {
    case scalar(ImportScalar)
    case sequence([ImportNode], at: ImportPlace)
    case mapping([ImportMember], at: ImportPlace)

    /// Where the value starts.
    var place: ImportPlace {
        switch self {
        case .scalar(let scalar): scalar.place
        case .sequence(_, let place), .mapping(_, let place): place
        }
    }

    /// The value under `key` in a mapping (the last, as JSON parsers keep), or nil.
    func member(_ key: String) -> ImportNode? {
        guard case .mapping(let members, _) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The mapping's members in order; none for any other value.
    var members: [ImportMember] {
        if case .mapping(let members, _) = self { return members }
        return []
    }

    /// Whether the value is a mapping.
    var isMapping: Bool {
        if case .mapping = self { return true }
        return false
    }

    /// A list's items, or nil for anything else.
    var sequence: [ImportNode]? {
        if case .sequence(let items, _) = self { return items }
        return nil
    }

    /// A scalar's text as written (`3.0` stays `3.0`), or nil for collections.
    var text: String? {
        if case .scalar(let scalar) = self { return scalar.text }
        return nil
    }

    /// A scalar's text that is not null (`null`, `~` or nothing in YAML, `null` in JSON).
    var nonNullText: String? {
        guard case .scalar(let scalar) = self, scalar.kind != .null else { return nil }
        return scalar.text
    }

    /// Whether the value is `true` (a YAML or JSON boolean).
    var isTrue: Bool {
        if case .scalar(let scalar) = self, case .bool(true) = scalar.kind { return true }
        return false
    }

    /// The value as a parameter tree: scalars keep their type (a quoted YAML scalar is text),
    /// a key met twice in a mapping keeps its last value.
    var parameterValue: ParameterValue {
        switch self {
        case .scalar(let scalar): return scalar.value
        case .sequence(let items, _): return .array(items.map(\.parameterValue))
        case .mapping(let members, _):
            var values: OrderedDictionary<String, ParameterValue> = [:]
            for member in members { values[member.key] = member.value.parameterValue }
            return .dictionary(values)
        }
    }

    /// The number of nodes in the value, itself included, counted no further than `limit`.
    func count(upTo limit: Int) -> Int {
        var total = 0
        var stack = [self]
        while let node = stack.popLast(), total < limit {
            total += 1
            switch node {
            case .scalar: break
            case .sequence(let items, _): stack += items
            case .mapping(let members, _): stack += members.map(\.value)
            }
        }
        return total
    }
}

/// One member of a mapping: its key's text and its value.
struct ImportMember: Sendable {
    let key: String
    let value: ImportNode
}

/// A scalar: its text as written and the type its syntax gives it.
struct ImportScalar: Sendable {
    /// What a scalar is.
    enum Kind: Sendable, Equatable {
        case string
        case integer(Int64)
        case double(Double)
        case bool(Bool)
        case null
    }

    let text: String
    let kind: Kind
    let place: ImportPlace

    /// The scalar as a parameter value.
    var value: ParameterValue {
        switch kind {
        case .string: .string(text)
        case .integer(let integer): .integer(integer)
        case .double(let double): .double(double)
        case .bool(let bool): .bool(bool)
        case .null: .null
        }
    }
}

/// Where a value starts: a byte offset in a JSON text, placed as a line and column only when an
/// error names it (most values never are), or the line and column Yams marked.
enum ImportPlace: Sendable {
    case offset(Int)
    case mark(line: Int, column: Int)
    case unknown
}

// MARK: - From JSON

/// Builds import nodes from ``JSONParser``, keeping each value's offset.
struct ImportNodeBuilder: JSONValueBuilder {
    func string(_ text: String, at offset: Int) -> ImportNode {
        .scalar(ImportScalar(text: text, kind: .string, place: .offset(offset)))
    }

    func number(_ value: ParameterValue, literal: ArraySlice<UInt8>, at offset: Int) -> ImportNode {
        let kind: ImportScalar.Kind = switch value {
        case .integer(let integer): .integer(integer)
        case .double(let double): .double(double)
        default: .string
        }
        return .scalar(ImportScalar(text: String(decoding: literal, as: UTF8.self), kind: kind, place: .offset(offset)))
    }

    func bool(_ value: Bool, at offset: Int) -> ImportNode {
        .scalar(ImportScalar(text: value ? "true" : "false", kind: .bool(value), place: .offset(offset)))
    }

    func null(at offset: Int) -> ImportNode {
        .scalar(ImportScalar(text: "null", kind: .null, place: .offset(offset)))
    }

    func array(_ items: [ImportNode], at offset: Int) -> ImportNode { .sequence(items, at: .offset(offset)) }

    func members() -> [ImportMember] { [] }

    func add(_ key: String, at keyOffset: Int, _ value: ImportNode, to members: inout [ImportMember]) {
        members.append(ImportMember(key: key, value: value))
    }

    func object(_ members: [ImportMember], at offset: Int) -> ImportNode { .mapping(members, at: .offset(offset)) }
}

// MARK: - From YAML

extension ImportNode {
    /// A composed YAML node as an import node: plain scalars typed as Yams' resolver types them
    /// (``ScalarTag``), quoted ones text, keys as their text.
    init(_ node: Node) {
        let place = node.mark.map { ImportPlace.mark(line: $0.line, column: $0.column) } ?? .unknown
        switch node {
        case .scalar(let scalar):
            let kind: ImportScalar.Kind = switch node.importedValue {
            case .integer(let integer): .integer(integer)
            case .double(let double): .double(double)
            case .bool(let bool): .bool(bool)
            case .null: .null
            default: .string
            }
            self = .scalar(ImportScalar(text: scalar.string, kind: kind, place: place))
        case .sequence(let sequence):
            self = .sequence(sequence.map(ImportNode.init), at: place)
        case .mapping(let mapping):
            self = .mapping(mapping.compactMap { key, value in
                key.scalar.map { ImportMember(key: $0.string, value: ImportNode(value)) }
            }, at: place)
        case .alias:
            self = .scalar(ImportScalar(text: "", kind: .null, place: place))
        }
    }
}

extension Node {
    /// A scalar's value: plain scalars take their YAML (and so JSON) type, quoted ones stay text.
    fileprivate var importedValue: ParameterValue {
        guard case .scalar(let scalar) = self else { return .null }
        switch ScalarTag.of(self) {
        case .int: return (ScalarTag.decimalValue(scalar) ?? int.map(Int64.init)).map(ParameterValue.integer) ?? .string(scalar.string)
        case .float: return float.map(ParameterValue.double) ?? .string(scalar.string)
        case .bool: return .bool(bool ?? false)
        case .null: return .null
        default: return .string(scalar.string)
        }
    }
}
