import Foundation

/// One `.bru` file (Bruno's request, folder, collection and environment files), read as
/// bruno-lang's grammar reads it: blocks of `name: value` pairs (`headers { … }`), of text
/// (`body:json { … }`, each line indented by two spaces), or of a list (`vars:secret [ … ]`),
/// each closed by a `}` (or `]`) at the start of a line.
///
/// In a pair, a name starting with `~` is turned off, a quoted name (`"a: b"`) may hold what a
/// plain one cannot, and `'''` opens a value of several lines (each indented by four spaces).
/// A line `@name(…)` before a pair annotates it.
struct BrunoFile {
    /// One `name: value` line of a dictionary block.
    struct Pair {
        var name: String
        var value: String
        var isEnabled: Bool
        /// The line the pair starts on.
        var line: Int
        /// Its annotations (`@contentType(…)` after a value is not one: it stays in the value).
        var annotations: [String: String] = [:]
    }

    /// What a block holds.
    enum Content {
        case pairs([Pair])
        case text(String)
        case list([String])
    }

    /// A block: its tag, its content, the line of its tag.
    struct Block {
        var name: String
        var content: Content
        var line: Int
    }

    let path: String
    var blocks: [Block]

    /// The blocks Bruno reads as text.
    static let textBlocks: Set<String> = [
        "body", "body:json", "body:text", "body:xml", "body:sparql", "body:graphql", "body:graphql:vars",
        "script:pre-request", "script:post-response", "tests", "docs", "example",
    ]

    /// The pairs of every block named `name`, in order (Bruno joins blocks of one name).
    func pairs(_ name: String) -> [Pair] {
        blocks.filter { $0.name == name }.flatMap { block -> [Pair] in
            if case .pairs(let pairs) = block.content { return pairs }
            return []
        }
    }

    /// The first block named `name`.
    func block(_ name: String) -> Block? {
        blocks.first { $0.name == name }
    }

    /// The text of the first text block named `name`.
    func text(_ name: String) -> String? {
        for block in blocks where block.name == name {
            if case .text(let text) = block.content { return text }
        }
        return nil
    }

    /// The value of the first enabled pair named `key` in the block `name`.
    func value(_ key: String, in name: String) -> String? {
        pairs(name).first { $0.name == key && $0.isEnabled }?.value
    }

    // MARK: - Reading

    /// Parses a `.bru` file's text; `path` names it in errors.
    ///
    /// - Throws: ``ConfigFileError`` at the line and column where the text stops being a `.bru` file.
    static func parse(_ text: String, path: String) throws -> BrunoFile {
        // A CRLF line end is one Character to Swift ("\r\n"), not a "\n": a file saved on Windows
        // splits on both, as Bruno reads it.
        var reader = Reader(lines: text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }, path: path)
        return BrunoFile(path: path, blocks: try reader.blocks())
    }

    private struct Reader {
        let lines: [String]
        let path: String
        var index = 0

        init(lines: [String], path: String) {
            self.lines = lines
            self.path = path
        }

        func error(line: Int, column: Int = 1, _ message: String) -> ConfigFileError {
            ConfigFileError(file: path, line: line, column: column, message: message)
        }

        mutating func blocks() throws -> [Block] {
            var blocks: [Block] = []
            while index < lines.count {
                let line = lines[index]
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty {
                    index += 1
                    continue
                }
                // An environment's colour is one line (`color: #ff0000`).
                if trimmed.hasPrefix("color:") {
                    index += 1
                    continue
                }
                let number = index + 1
                guard let (name, opener, rest) = Self.header(trimmed) else {
                    throw error(line: number, column: line.prefix { $0 == " " || $0 == "\t" }.count + 1,
                                "expected a block such as `get {`, `headers {` or `body:json {`, found \(trimmed.prefix(40))")
                }
                index += 1
                if opener == "[" {
                    blocks.append(Block(name: name, content: .list(try list(rest, opened: number)), line: number))
                } else if BrunoFile.textBlocks.contains(name) {
                    blocks.append(Block(name: name, content: .text(try textBlock(name, rest, opened: number)), line: number))
                } else {
                    blocks.append(Block(name: name, content: .pairs(try dictionary(name, rest, opened: number)), line: number))
                }
            }
            return blocks
        }

        /// `name {` or `name [`, and what follows the opener on the line.
        static func header(_ line: String) -> (String, Character, String)? {
            guard let opener = line.firstIndex(where: { $0 == "{" || $0 == "[" }) else { return nil }
            let name = line[..<opener].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" }) else { return nil }
            return (name, line[opener], String(line[line.index(after: opener)...]).trimmingCharacters(in: .whitespaces))
        }

        /// Whether a line closes the block: its closer at the start of the line.
        func closes(_ line: String, with closer: Character) -> Bool {
            line.first == closer
        }

        mutating func textBlock(_ name: String, _ rest: String, opened: Int) throws -> String {
            var content: [String] = rest.isEmpty ? [] : [rest]
            var started = !rest.isEmpty
            while index < lines.count {
                let line = lines[index]
                index += 1
                if closes(line, with: "}") {
                    // Bruno takes two spaces of indentation off each line.
                    return content.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }.joined(separator: "\n")
                }
                // Empty lines right after the opening brace are not part of the text.
                if !started, line.isEmpty { continue }
                started = true
                content.append(line)
            }
            throw error(line: opened, "the block \(name) { is not closed: expected } at the start of a line")
        }

        mutating func list(_ rest: String, opened: Int) throws -> [String] {
            var items: [String] = []
            var text = rest
            while true {
                if let close = text.firstIndex(of: "]") {
                    items += Self.listItems(String(text[..<close]))
                    return items
                }
                items += Self.listItems(text)
                guard index < lines.count else { throw error(line: opened, "the list [ is not closed: expected ]") }
                text = lines[index]
                index += 1
            }
        }

        static func listItems(_ text: String) -> [String] {
            // An annotation (`@number`) stands on a line of its own before the item it types.
            if text.trimmingCharacters(in: .whitespaces).hasPrefix("@") { return [] }
            return text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init).filter { !$0.isEmpty }
        }

        mutating func dictionary(_ name: String, _ rest: String, opened: Int) throws -> [Pair] {
            var pairs: [Pair] = []
            var annotations: [String: String] = [:]
            var pending: [(String, Int)] = rest.isEmpty ? [] : [(rest, opened)]
            while true {
                let line: String
                let number: Int
                if !pending.isEmpty {
                    (line, number) = pending.removeFirst()
                } else {
                    guard index < lines.count else { throw error(line: opened, "the block \(name) { is not closed: expected } at the start of a line") }
                    line = lines[index]
                    number = index + 1
                    index += 1
                    if closes(line, with: "}") { return pairs }
                }
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { continue }
                let indent = line.prefix { $0 == " " || $0 == "\t" }.count
                if trimmed.hasPrefix("@"), let annotation = try self.annotation(trimmed, line: number) {
                    annotations[annotation.name] = annotation.value
                    continue
                }
                var pair = try self.pair(trimmed, line: number, column: indent + 1)
                pair.annotations = annotations
                annotations = [:]
                pairs.append(pair)
            }
        }

        /// `@name` or `@name(argument)` alone on a line; a `'''` argument may span lines.
        mutating func annotation(_ text: String, line: Int) throws -> (name: String, value: String)? {
            let body = text.dropFirst()
            let name = body.prefix { $0 != "(" && $0 != " " && $0 != "\t" && $0 != ":" }
            guard !name.isEmpty else { return nil }
            var rest = body.dropFirst(name.count)
            if rest.isEmpty { return (String(name), "") }
            guard rest.first == "(" else { return nil }
            rest = rest.dropFirst()
            if rest.hasPrefix("'''") {
                var value = String(rest.dropFirst(3))
                while !value.contains("''')") {
                    guard index < lines.count else { throw error(line: line, "the annotation @\(name)(''' is not closed: expected ''')") }
                    value += "\n" + lines[index]
                    index += 1
                }
                let end = value.range(of: "''')")!
                return (String(name), String(value[..<end.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard let close = rest.lastIndex(of: ")") else { return nil }
            var value = String(rest[..<close])
            if value.count >= 2, let quote = value.first, quote == "'" || quote == "\"", value.last == quote { value = String(value.dropFirst().dropLast()) }
            return (String(name), value)
        }

        /// One `name: value` pair starting on this line (a `'''` or `[` value reads on).
        mutating func pair(_ text: String, line: Int, column: Int) throws -> Pair {
            var rest = Substring(text)
            var enabled = true
            if rest.hasPrefix("~") {
                enabled = false
                rest = rest.dropFirst()
            }
            var name: String
            if rest.hasPrefix("\"") {
                var key = ""
                var cursor = rest.dropFirst()
                var closed = false
                while let character = cursor.first {
                    cursor = cursor.dropFirst()
                    if character == "\\", cursor.first == "\"" {
                        key.append("\"")
                        cursor = cursor.dropFirst()
                    } else if character == "\"" {
                        closed = true
                        break
                    } else {
                        key.append(character)
                    }
                }
                guard closed else { throw error(line: line, column: column, "the quoted name is not closed: expected \"") }
                name = key
                rest = cursor.drop { $0 == " " || $0 == "\t" }
                guard rest.first == ":" else { throw error(line: line, column: column, "expected name: value, found \(text.prefix(40))") }
                rest = rest.dropFirst()
            } else {
                // A plain name holds no space or tab (bruno-lang quotes such a name).
                guard let colon = rest.firstIndex(of: ":"), !rest[..<colon].trimmingCharacters(in: .whitespaces).contains(where: { $0 == " " || $0 == "\t" }) else {
                    throw error(line: line, column: column, "expected name: value, found \(text.prefix(40))")
                }
                name = rest[..<colon].trimmingCharacters(in: .whitespaces)
                rest = rest[rest.index(after: colon)...]
            }
            var value = rest.trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("'''"), !value.dropFirst(3).contains("'''") {
                value = try multiline(after: String(value.dropFirst(3)), line: line)
            } else if value == "[" {
                value = try list("", opened: line).joined(separator: "\n")
            }
            return Pair(name: name, value: value, isEnabled: enabled, line: line)
        }

        /// The lines of a `'''` value, each with its four spaces of indentation taken off, up to
        /// the closing `'''` (and an `@contentType(…)` after it).
        mutating func multiline(after first: String, line: Int) throws -> String {
            var content: [String] = first.isEmpty ? [] : [first]
            while index < lines.count {
                let current = lines[index]
                index += 1
                let trimmed = current.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("'''") {
                    let text = content.map { String($0.dropFirst(min(4, $0.prefix { $0 == " " || $0 == "\t" }.count))) }
                        .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
                    let after = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                    return after.isEmpty ? text : "\(text) \(after)"
                }
                content.append(current)
            }
            throw error(line: line, "the value ''' is not closed: expected ''' on a line of its own")
        }
    }
}
