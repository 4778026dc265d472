import Yams

/// A place in a file: 1-based line and column, the column counted in Unicode scalars as libyaml
/// counts them, so it matches the marks of YAML nodes.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A file's text as scalars with its line starts, to find what a YAML node's mark does not
/// point at directly: a `{{name}}` inside a value, an alias after its key.
final class SourceText {
    let scalars: [Unicode.Scalar]
    private let lineStarts: [Int]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var starts = [0]
        for (index, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(index + 1) }
        lineStarts = starts
    }

    /// The scalar offset of a 1-based line and column, clamped to the text.
    func offset(of mark: Mark) -> Int {
        guard mark.line >= 1, mark.line <= lineStarts.count else { return mark.line < 1 ? 0 : scalars.count }
        return min(scalars.count, lineStarts[mark.line - 1] + max(0, mark.column - 1))
    }

    /// The line and column of a scalar offset.
    func location(of offset: Int) -> SourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(line: low + 1, column: offset - lineStarts[low] + 1)
    }

    /// The offset of the first `{{ name }}` at or after `start`, spaces inside the braces allowed.
    func reference(_ name: String, from start: Int) -> Int? {
        let wanted = Array(name.unicodeScalars)
        var index = start
        while index + 1 < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "{", scalars[index + 1] == "{" else { continue }
            var cursor = index + 2
            while cursor < scalars.count, scalars[cursor] == " " { cursor += 1 }
            guard cursor + wanted.count <= scalars.count, Array(scalars[cursor..<cursor + wanted.count]) == wanted else { continue }
            cursor += wanted.count
            while cursor < scalars.count, scalars[cursor] == " " { cursor += 1 }
            if cursor + 1 < scalars.count, scalars[cursor] == "}", scalars[cursor + 1] == "}" { return index }
        }
        return nil
    }

    /// The anchor defined at `offset`, where a node with properties starts: `&name`, possibly
    /// after a tag (`!!seq &name`).
    func anchorName(at offset: Int) -> String? {
        var index = offset
        if index < scalars.count, scalars[index] == "!" {
            while index < scalars.count, !" \t\n".unicodeScalars.contains(scalars[index]) { index += 1 }
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
        }
        guard index < scalars.count, scalars[index] == "&" else { return nil }
        let start = index + 1
        var end = start
        while end < scalars.count, !" \t\r\n,[]{}".unicodeScalars.contains(scalars[end]) { end += 1 }
        return end > start ? String(String.UnicodeScalarView(scalars[start..<end])) : nil
    }

    /// The offset of the first alias `*name` at or after `start` (a `*` that starts a token,
    /// followed by the name and then a character that cannot continue it).
    func alias(_ name: String, from start: Int) -> Int? {
        let wanted = Array(name.unicodeScalars)
        var index = start
        while index < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "*" else { continue }
            if index > 0, !" \t\n[{,-?:".unicodeScalars.contains(scalars[index - 1]) { continue }
            let end = index + 1 + wanted.count
            guard end <= scalars.count, Array(scalars[index + 1..<end]) == wanted else { continue }
            if end == scalars.count || " \t\r\n,]}".unicodeScalars.contains(scalars[end]) { return index }
        }
        return nil
    }
}

/// Where each `{{name}}` first stands in a session file, for errors that name a variable.
///
/// Positions are not content: any two compare equal, so a session read from a file equals the
/// same session built in code or read back after a save.
public struct ReferenceLocations: Sendable, Equatable {
    /// The first location of each name.
    public private(set) var first: [String: SourceLocation] = [:]

    /// Creates an empty map.
    public init() {}

    /// The first location of `name`, if the file refers to it.
    public subscript(name: String) -> SourceLocation? { first[name] }

    /// Records `name` at `location` unless it was met before.
    mutating func note(_ name: String, at location: SourceLocation) {
        if first[name] == nil { first[name] = location }
    }

    public static func == (lhs: ReferenceLocations, rhs: ReferenceLocations) -> Bool { true }
}

/// Collects the locations of references while a session file is read: the session's own
/// (base, defaults, variables) and, between ``begin()`` and ``end()``, one request's.
final class ReferenceCollector {
    private let text: String
    private lazy var source = SourceText(text)
    private var session = ReferenceLocations()
    private var request: ReferenceLocations?

    init(text: String) {
        self.text = text
    }

    /// Notes every reference in `string`, a value read from `node`.
    func note(_ string: String, at node: Node) {
        guard Template.mayHoldReferences(string) else { return }
        let names = Template.references(in: string)
        guard !names.isEmpty else { return }
        var cursor = node.mark.map(source.offset(of:)) ?? 0
        for name in names {
            let location: SourceLocation
            if let offset = source.reference(name, from: cursor) {
                location = source.location(of: offset)
                cursor = offset + 2
            } else if let mark = node.mark {
                // Escapes in a quoted scalar can hide the reference's text: the value's start is next best.
                location = SourceLocation(line: mark.line, column: mark.column)
            } else {
                continue
            }
            if request != nil { request?.note(name, at: location) } else { session.note(name, at: location) }
        }
    }

    /// Starts collecting a request's references.
    func begin() {
        request = ReferenceLocations()
    }

    /// The request's references; collection goes back to the session's.
    func end() -> ReferenceLocations {
        defer { request = nil }
        return request ?? ReferenceLocations()
    }

    /// The references outside requests.
    var sessionLocations: ReferenceLocations { session }
}
