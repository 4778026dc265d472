import TincanCore

/// Reads a body path's text into its steps (``BodyPath``), with filter expressions
/// (``BodyPathFilter``); errors say what was expected and, for the JSONPath selectors, at
/// which column of the path.
struct BodyPathParser: CharacterCursor {
    private let text: String
    private(set) var characters: [Character]
    var index = 0
    /// Added to an index to give the column in the text as written (a `$` dropped, a `.` added).
    private let columnOffset: Int

    init(_ text: String) {
        self.text = text
        var characters = Array(text)
        if characters.first == "$" {
            characters.removeFirst()
            columnOffset = 2
        } else if !characters.isEmpty, characters.first != "[", characters.first != "." {
            characters.insert(".", at: 0)
            columnOffset = 0
        } else {
            columnOffset = 1
        }
        self.characters = characters
    }

    mutating func parse() throws(BodyPathError) -> [BodyPath.Step] {
        var steps: [BodyPath.Step] = []
        while index < characters.count {
            switch characters[index] {
            case ".":
                index += 1
                if peek == "." {
                    index += 1
                    steps.append(.descendants)
                    if peek == "[" { continue }
                    guard peek != nil, peek != "." else { throw error("a member name, * or [ after '..'") }
                }
                if peek == "*" {
                    index += 1
                    steps.append(.wildcard)
                    continue
                }
                var name = ""
                while let character = peek, character != ".", character != "[" {
                    name.append(character)
                    index += 1
                }
                guard !name.isEmpty else { throw BodyPathError(path: text, reason: .expectedMemberName) }
                steps.append(.key(name))
            case "[":
                index += 1
                steps.append(try bracket())
            default:
                throw BodyPathError(path: text, reason: .unexpected(String(characters[index...])))
            }
        }
        return steps
    }

    /// What follows `[`: a quoted name, `*`, a filter, a slice or an index, and the `]`.
    private mutating func bracket() throws(BodyPathError) -> BodyPath.Step {
        if let quote = peek, quote == "\"" || quote == "'" {
            guard let name = quoted(), peek == "]" else { throw BodyPathError(path: text, reason: .unclosedQuotedName(quote)) }
            index += 1
            return .key(name)
        }
        if peek == "?" {
            let start = index
            index += 1
            var filter = FilterParser(characters: characters, index: index, fail: { [text, columnOffset] expected, at in
                BodyPathError(path: text, reason: .expected(expected, column: at + columnOffset))
            })
            let expression = try filter.parseExpression()
            index = filter.index
            skipSpaces()
            guard peek == "]" else { throw error("']' to close the filter, or && or || to go on with it") }
            let written = String(characters[(start + 1)..<index]).trimmingWhitespace()
            index += 1
            return .filter(BodyPathFilter(text: written, expression: expression))
        }
        let start = index
        while peek != nil, peek != "]" { index += 1 }
        guard index < characters.count else { throw BodyPathError(path: text, reason: .expectedIndex) }
        let contents = String(characters[start..<index]).trimmingWhitespace()
        index += 1
        if contents == "*" { return .wildcard }
        if contents.contains(":") {
            let parts = contents.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
            let bounds = parts.map { $0.isEmpty ? Optional<Int>.none : Int($0) }
            guard parts.count <= 3, zip(parts, bounds).allSatisfy({ $0.isEmpty || $1 != nil }) else {
                throw BodyPathError(path: text, reason: .expected("a slice of whole numbers such as [1:3], [-2:] or [::2]", column: start + columnOffset))
            }
            return .slice(start: bounds[0], end: bounds[1], step: parts.count == 3 ? bounds[2] : nil)
        }
        guard let number = Int(contents) else { throw BodyPathError(path: text, reason: .expectedIndex) }
        return .index(number)
    }

    /// A quoted string starting at the quote, with `\` escaping the next character; nil when it never closes.
    private mutating func quoted() -> String? {
        FilterParser.quoted(characters, &index)
    }

    private func error(_ expected: String) -> BodyPathError {
        BodyPathError(path: text, reason: .expected(expected, column: index + columnOffset))
    }
}

/// Reads a filter expression: `||` of `&&` of `!`, parentheses, comparisons and existence tests.
private struct FilterParser: CharacterCursor {
    let characters: [Character]
    var index: Int
    let fail: (String, Int) -> BodyPathError
    /// How deep parentheses and `!` nest, so that a hostile path cannot exhaust the stack.
    private var depth = 0
    private static let maximumDepth = 64
    /// How many operands and `!` the filter has: `&&` and `||` chains nest as deep as they are long.
    private var terms = 0
    private static let maximumTerms = 256

    init(characters: [Character], index: Int, fail: @escaping (String, Int) -> BodyPathError) {
        self.characters = characters
        self.index = index
        self.fail = fail
    }

    mutating func parseExpression() throws(BodyPathError) -> BodyPathFilter.Expression {
        var expression = try conjunction()
        while take("||") { expression = .or(expression, try conjunction()) }
        return expression
    }

    private mutating func conjunction() throws(BodyPathError) -> BodyPathFilter.Expression {
        var expression = try unary()
        while take("&&") { expression = .and(expression, try unary()) }
        return expression
    }

    private mutating func unary() throws(BodyPathError) -> BodyPathFilter.Expression {
        skipSpaces()
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw fail("at most \(Self.maximumDepth) nested parentheses or '!'", index) }
        terms += 1
        guard terms <= Self.maximumTerms else { throw fail("at most \(Self.maximumTerms) tests in one filter", index) }
        if peek == "!", !(index + 1 < characters.count && characters[index + 1] == "=") {
            index += 1
            return .not(try unary())
        }
        if peek == "(" {
            index += 1
            let inner = try parseExpression()
            skipSpaces()
            guard peek == ")" else { throw fail("')' to close '('", index) }
            index += 1
            return inner
        }
        let left = try operand()
        skipSpaces()
        if let comparison = BodyPathFilter.Comparison.allCases.first(where: { take($0.rawValue) }) {
            return .compare(left, comparison, try operand())
        }
        guard case .path = left else { throw fail("a comparison (==, !=, <, <=, >, >=) after the value", index) }
        return .exists(left)
    }

    private mutating func operand() throws(BodyPathError) -> BodyPathFilter.Operand {
        skipSpaces()
        let start = index
        guard let first = peek else { throw fail("@, a path, or a string, number, true, false or null", index) }
        switch first {
        case "@", "$":
            index += 1
            var steps: [BodyPath.Step] = []
            while let character = peek, character == "." || character == "[" {
                index += 1
                if character == "." {
                    var name = ""
                    while let character = peek, character.isLetter || character.isNumber || character == "_" || character == "-" {
                        name.append(character)
                        index += 1
                    }
                    guard !name.isEmpty else { throw fail("a member name after '.'", index) }
                    steps.append(.key(name))
                } else if let quote = peek, quote == "\"" || quote == "'" {
                    guard let name = Self.quoted(characters, &index), peek == "]" else { throw fail("\(quote)] to close the quoted member name", index) }
                    index += 1
                    steps.append(.key(name))
                } else {
                    var digits = ""
                    while let character = peek, character != "]" {
                        digits.append(character)
                        index += 1
                    }
                    guard peek == "]", let number = Int(digits.trimmingWhitespace()) else { throw fail("an index such as [0] or a quoted name", index) }
                    index += 1
                    steps.append(.index(number))
                }
            }
            return .path(relative: first == "@", steps)
        case "'", "\"":
            guard let text = Self.quoted(characters, &index) else { throw fail("\(first) to close the string", index) }
            return .literal(.string(text))
        default:
            var word = ""
            while let character = peek, character.isLetter || character.isNumber || "+-.".contains(character) {
                word.append(character)
                index += 1
            }
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                if !word.contains("."), !word.lowercased().contains("e"), let integer = Int64(word) { return .literal(.integer(integer)) }
                if let double = Double(word), double.isFinite, word.first != "+", !word.lowercased().hasPrefix("inf"), !word.lowercased().hasPrefix("nan") {
                    return .literal(.double(double))
                }
                throw fail("@, a path, or a string, number, true, false or null", start)
            }
        }
    }


    /// A string quoted with `'` or `"` starting at `index`, with `\` escaping the next character;
    /// nil when it never closes. `index` ends after the closing quote.
    static func quoted(_ characters: [Character], _ index: inout Int) -> String? {
        let quote = characters[index]
        var position = index + 1
        var text = ""
        while position < characters.count, characters[position] != quote {
            if characters[position] == "\\", position + 1 < characters.count { position += 1 }
            text.append(characters[position])
            position += 1
        }
        guard position < characters.count else { return nil }
        index = position + 1
        return text
    }
}
