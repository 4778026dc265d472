import OrderedCollections

/// A JSON text checked whole when it is made, whose values are decoded only where they are asked for.
///
/// This is what the JSON response serializer returns. Making it takes one pass that checks the
/// text exactly as ``JSONParser`` does and records where each object and array starts and
/// ends (``JSONIndex``), without building a tree, so a 100 MB body costs its bytes and a small
/// list of its containers rather than a tree several times its size. A path such as
/// `$[123456].name` walks to its value, stepping over a container in one hop, and decodes only
/// that value; ``value`` decodes the whole text when a caller needs the tree.
///
/// A document made from a value (``init(_:)``) holds that value instead, and answers the same way.
public struct JSONDocument: Sendable, Equatable, CustomStringConvertible {
    /// One step into a value: an object's member, or an array's element (`-1` the last).
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    private enum Storage: Sendable {
        case indexed(bytes: [UInt8], containers: JSONContainerList, root: Int)
        case value(ParameterValue)
    }

    private let storage: Storage
    /// Whether object members whose value is null are left out, at every depth, as
    /// `removesKeysWithNullValues` asks: a path to one finds nothing, and decoded values lack
    /// them. Nulls that are array elements stay. The text is not rewritten.
    public private(set) var removesNullMembers = false

    /// A document holding `value`.
    public init(_ value: ParameterValue) {
        storage = .value(value)
    }

    /// Checks `bytes` as one JSON value (scalars allowed at the top level), decoding nothing.
    ///
    /// - Throws: ``JSONParseError``, the parser's own, naming the line and column.
    public init(bytes: [UInt8]) throws(JSONParseError) {
        if let index = JSONIndex.containers(of: bytes) {
            storage = .indexed(bytes: bytes, containers: index.containers, root: index.root)
        } else {
            // Not JSON (the parser says where), or past the index's 4 GiB: the parser reads it.
            storage = .value(try JSONParser.parse(bytes: bytes))
        }
    }

    /// The same document without object members whose value is null (see ``removesNullMembers``).
    /// A decoded value has them removed now; a checked text leaves them out as it is read.
    public func removingNullMembers() -> JSONDocument {
        switch storage {
        case .value(let value):
            return JSONDocument(JSONResponseSerializer.removingKeysWithNullValues(value))
        case .indexed:
            var document = self
            document.removesNullMembers = true
            return document
        }
    }

    /// The whole value, decoded. Each call decodes the text again; keep the result.
    public var value: ParameterValue {
        switch storage {
        case .value(let value): value
        case .indexed(let bytes, _, let root): decode(bytes, at: root)
        }
    }

    /// Whether the document reads its text through the index (else it holds a decoded value).
    var isIndexed: Bool {
        if case .indexed = storage { return true }
        return false
    }

    /// Whether the top level is an object or an array.
    public var isContainer: Bool {
        switch storage {
        case .value(.dictionary), .value(.array): true
        case .value: false
        case .indexed(_, let containers, _): !containers.isEmpty
        }
    }

    /// The kind of the top-level value, as ``ParameterValue/kindName`` says it ("an object").
    public var kindName: String {
        switch storage {
        case .value(let value):
            return value.kindName
        case .indexed(let bytes, _, let root):
            switch bytes[root] {
            case UInt8(ascii: "{"): return "an object"
            case UInt8(ascii: "["): return "an array"
            case UInt8(ascii: "\""): return "a string"
            case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
            case UInt8(ascii: "n"): return "null"
            default: return "a number"
            }
        }
    }

    /// The value at `steps` from the top, decoded, or nil when a step finds no such member or
    /// element (or steps into a value of the other kind). Of duplicate keys the last counts.
    ///
    /// Each step reads the container's values in order up to the one it wants, stepping over a
    /// nested container in one hop: `[i]` costs i values, `[-i]` a count of them first, and a
    /// key the whole object (a later duplicate wins).
    public func value(at steps: some Sequence<Step>) -> ParameterValue? {
        switch storage {
        case .value(let value):
            return Self.value(at: steps, in: value)
        case .indexed(let bytes, let containers, let root):
            guard let position = Self.position(at: steps, bytes: bytes, containers: containers, root: root,
                                               removesNullMembers: removesNullMembers) else { return nil }
            return decode(bytes, at: position.offset)
        }
    }

    /// How many elements the array at `steps` holds, or nil when there is no array there.
    public func elementCount(at steps: some Sequence<Step>) -> Int? {
        switch storage {
        case .value(let value):
            guard case .array(let array)? = Self.value(at: steps, in: value) else { return nil }
            return array.count
        case .indexed(let bytes, let containers, let root):
            guard let position = Self.position(at: steps, bytes: bytes, containers: containers, root: root,
                                               removesNullMembers: removesNullMembers),
                  bytes[position.offset] == UInt8(ascii: "[") else { return nil }
            return bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { Self.valueCount($0, buffer.count, containers, of: position) } ?? 0
            }
        }
    }

    /// Appends the document exactly as ``JSONWriter`` writes its ``value`` (compact, or with
    /// `indent` spaces a level), without decoding the whole: a checked text is written container
    /// by container, one scalar decoded at a time, so a large body costs its output and not a tree.
    public func write(indent: Int? = nil, to output: inout [UInt8]) {
        switch storage {
        case .value(let value):
            JSONWriter.write(value, indent: indent, level: 0, to: &output)
        case .indexed(let bytes, let containers, let root):
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                let writer = TextWriter(bytes: bytes, base: base, count: buffer.count, containers: containers,
                                        removesNullMembers: removesNullMembers, indent: indent)
                writer.write(Position(offset: root, container: containers.isEmpty ? -1 : 0), level: 0, to: &output)
            }
        }
    }

    /// The document as ``write(indent:to:)`` writes it: the bytes ``JSONWriter/bytes(_:indent:)``
    /// would give for its value.
    public func bytes(indent: Int? = nil) -> [UInt8] {
        var output: [UInt8] = []
        write(indent: indent, to: &output)
        return output
    }

    public var description: String { "\(value)" }

    public static func == (lhs: JSONDocument, rhs: JSONDocument) -> Bool {
        if case .indexed(let left, _, _) = lhs.storage, case .indexed(let right, _, _) = rhs.storage,
           lhs.removesNullMembers == rhs.removesNullMembers, left == right { return true }
        return lhs.value == rhs.value
    }

    // MARK: - Walking the text

    /// Where a value is: its first byte, and its place in the container list (-1 for a scalar).
    private struct Position {
        var offset: Int
        var container: Int
    }

    private func decode(_ bytes: [UInt8], at offset: Int) -> ParameterValue {
        let value = Self.parseChecked(bytes, at: offset)
        return removesNullMembers ? JSONResponseSerializer.removingKeysWithNullValues(value) : value
    }

    /// The value at `offset` of a text the index took.
    private static func parseChecked(_ bytes: [UInt8], at offset: Int) -> ParameterValue {
        do {
            return try JSONParser.parseValue(in: bytes, at: offset)
        } catch {
            // The text was checked whole when the document was made; the parser takes what the
            // check took, and a test compares the two on good and broken texts.
            preconditionFailure("a checked JSON value failed to parse: \(error)")
        }
    }

    private static func value(at steps: some Sequence<Step>, in root: ParameterValue) -> ParameterValue? {
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

    /// How many values the container at `position` holds, counted by stepping over them.
    private static func valueCount(_ base: UnsafePointer<UInt8>, _ count: Int, _ containers: JSONContainerList, of position: Position) -> Int {
        var values = 0
        forEachValue(base, count, containers, in: position) { _, _ in
            values += 1
            return true
        }
        return values
    }

    private static func position(
        at steps: some Sequence<Step>, bytes: [UInt8], containers: JSONContainerList, root: Int, removesNullMembers: Bool
    ) -> Position? {
        bytes.withUnsafeBufferPointer { buffer -> Position? in
            guard let base = buffer.baseAddress else { return nil }
            var current = Position(offset: root, container: containers.isEmpty ? -1 : 0)
            for step in steps {
                guard current.container >= 0 else { return nil }
                let opener = base[current.offset]
                switch step {
                case .key(let key) where opener == UInt8(ascii: "{"):
                    let wanted = Array(key.utf8)
                    let wantedIsASCII = wanted.allSatisfy { $0 < 0x80 }
                    var found: Position?
                    forEachValue(base, buffer.count, containers, in: current) { keyRange, value in
                        if let keyRange, keyMatches(bytes, base, keyRange, wanted, isASCII: wantedIsASCII, key) { found = value }
                        return true
                    }
                    // A member whose value is null is not there when nulls are removed.
                    guard let found, !(removesNullMembers && base[found.offset] == UInt8(ascii: "n")) else { return nil }
                    current = found
                case .index(let index) where opener == UInt8(ascii: "["):
                    let wanted = index < 0 ? valueCount(base, buffer.count, containers, of: current) + index : index
                    guard wanted >= 0 else { return nil }
                    var seen = 0
                    var found: Position?
                    forEachValue(base, buffer.count, containers, in: current) { _, value in
                        if seen == wanted {
                            found = value
                            return false
                        }
                        seen += 1
                        return true
                    }
                    guard let found else { return nil }
                    current = found
                default:
                    return nil
                }
            }
            return current
        }
    }

    /// Calls `body` with each value of the container at `position`, in order: the key's bytes
    /// between its quotes (objects), and the value's position; a nested container is stepped
    /// over in one hop. Stops when `body` returns false. The text was checked when the document
    /// was made, so each step only looks for where the next thing starts.
    private static func forEachValue(
        _ base: UnsafePointer<UInt8>,
        _ count: Int,
        _ containers: JSONContainerList,
        in position: Position,
        _ body: (Range<Int>?, Position) -> Bool
    ) {
        let isObject = base[position.offset] == UInt8(ascii: "{")
        var next = position.container + 1
        var index = JSONIndex.skipSpace(base, count, from: position.offset + 1)
        guard index < count, base[index] != UInt8(ascii: "}"), base[index] != UInt8(ascii: "]") else { return }
        while true {
            var keyRange: Range<Int>?
            if isObject {
                // A key, spaces, a colon, spaces.
                let keyEnd = JSONIndex.stringEnd(base, count, from: index) ?? count
                keyRange = index + 1..<keyEnd - 1
                index = JSONIndex.skipSpace(base, count, from: JSONIndex.skipSpace(base, count, from: keyEnd) + 1)
            }
            let end: Int
            let value: Position
            switch base[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                value = Position(offset: index, container: next)
                end = Int(containers[next].end) + 1
                next = Int(containers[next].after)
            case UInt8(ascii: "\""):
                value = Position(offset: index, container: -1)
                end = JSONIndex.stringEnd(base, count, from: index) ?? count
            default:
                value = Position(offset: index, container: -1)
                var scan = index
                while scan < count, !isScalarEnd(base[scan]) { scan += 1 }
                end = scan
            }
            guard body(keyRange, value) else { return }
            // A comma and spaces before the next value; else the closer.
            index = JSONIndex.skipSpace(base, count, from: end)
            guard index < count, base[index] == UInt8(ascii: ",") else { return }
            index = JSONIndex.skipSpace(base, count, from: index + 1)
        }
    }

    /// The walk of ``write(indent:to:)``: what ``JSONWriter`` would write for the decoded tree.
    private struct TextWriter {
        let bytes: [UInt8]
        let base: UnsafePointer<UInt8>
        let count: Int
        let containers: JSONContainerList
        let removesNullMembers: Bool
        let indent: Int?

        func write(_ position: Position, level: Int, to output: inout [UInt8]) {
            switch base[position.offset] {
            case UInt8(ascii: "["):
                var elements = 0
                forEachValue(base, count, containers, in: position) { _, element in
                    output.append(elements == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
                    elements += 1
                    JSONWriter.newline(indent: indent, level: level + 1, to: &output)
                    write(element, level: level + 1, to: &output)
                    return true
                }
                close(elements, "[]", level: level, to: &output)
            case UInt8(ascii: "{"):
                // As the decoded dictionary holds them: a key where it first appears, with the
                // value it is given last; then, when asked, without the members that are null.
                var members = OrderedDictionary<String, Position>()
                forEachValue(base, count, containers, in: position) { keyRange, value in
                    if let keyRange { members[JSONDocument.key(bytes, base, keyRange)] = value }
                    return true
                }
                var written = 0
                for (key, value) in members where !(removesNullMembers && base[value.offset] == UInt8(ascii: "n")) {
                    output.append(written == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
                    written += 1
                    JSONWriter.newline(indent: indent, level: level + 1, to: &output)
                    JSONWriter.appendQuoted(key, to: &output)
                    output.append(UInt8(ascii: ":"))
                    if indent != nil { output.append(UInt8(ascii: " ")) }
                    write(value, level: level + 1, to: &output)
                }
                close(written, "{}", level: level, to: &output)
            case UInt8(ascii: "\""):
                let end = JSONIndex.stringEnd(base, count, from: position.offset) ?? count
                let raw = UnsafeBufferPointer(start: base + position.offset, count: end - position.offset)
                // Plain ASCII without an escape is written as it came; anything else is decoded
                // and escaped again, as the writer would.
                if JSONDocument.isPlain(raw) {
                    output.append(contentsOf: raw)
                } else {
                    JSONWriter.write(scalar(at: position.offset), indent: indent, level: level, to: &output)
                }
            default:
                JSONWriter.write(scalar(at: position.offset), indent: indent, level: level, to: &output)
            }
        }

        /// Ends a container of `written` values, or writes `empty` for one with none.
        private func close(_ written: Int, _ empty: StaticString, level: Int, to output: inout [UInt8]) {
            guard written > 0 else {
                output.append(contentsOf: UnsafeBufferPointer(start: empty.utf8Start, count: empty.utf8CodeUnitCount))
                return
            }
            JSONWriter.newline(indent: indent, level: level, to: &output)
            output.append(empty.withUTF8Buffer { $0[1] })
        }

        private func scalar(at offset: Int) -> ParameterValue {
            JSONDocument.parseChecked(bytes, at: offset)
        }
    }

    @inline(__always)
    private static func isScalarEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || JSONIndex.isSpace(byte)
    }

    /// Whether the bytes between a string's quotes read as they are: ASCII, without an escape.
    private static func isPlain(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        !raw.contains { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }
    }

    /// The key between `range`'s quotes, decoded as the parser decodes it.
    private static func key(_ bytes: [UInt8], _ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> String {
        let raw = UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
        if !raw.contains(UInt8(ascii: "\\")) { return String(decoding: raw, as: UTF8.self) }
        guard case .string(let key) = parseChecked(bytes, at: range.lowerBound - 1) else { return "" }
        return key
    }

    /// Whether the key between `range`'s quotes is `key`: byte for byte when both are plain
    /// ASCII, else as decoded strings compare (canonically equivalent names are one key, as in
    /// the decoded dictionary).
    private static func keyMatches(
        _ bytes: [UInt8], _ base: UnsafePointer<UInt8>, _ range: Range<Int>, _ wanted: [UInt8], isASCII: Bool, _ key: String
    ) -> Bool {
        let raw = UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
        if isASCII, isPlain(raw) { return raw.elementsEqual(wanted) }
        return Self.key(bytes, base, range) == key
    }
}
