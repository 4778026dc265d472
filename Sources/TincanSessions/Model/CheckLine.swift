import Foundation
import OrderedCollections
import TincanCore
import Yams

/// One assertion or capture as one line of text, in the session file's own words, for editing
/// where a whole file is too much (the TUI's Checks tab).
///
/// An assertion is its `assert:` key, the key's argument when it takes one, then the check:
///
/// ```text
/// status 2xx
/// headers Content-Type contains json
/// body $.json.name equals Ada
/// body $.items {filters: [count], greater-than: 2}
/// cookies session[HttpOnly] equals true
/// request headers Content-Type starts-with application/json
/// ```
///
/// A check is a check's key and its YAML value (`equals Ada`, `one-of [1, 2]`), or a flow
/// mapping of several (`{type: array, count: 2}`). A capture is written as `capture:` holds it:
/// `id: $.json.id`, `etag: {header: ETag}`. Both are read by the session reader itself, so a
/// line it refuses gets the reader's words, placed at a column of the line.
public enum CheckLine {
    // MARK: - Reading

    /// Reads an assertion line.
    ///
    /// - Throws: ``CheckLineError`` with the column of the line and what was expected there.
    public static func assertion(parsing line: String) throws(CheckLineError) -> Assertion {
        var scanner = LineScanner(line)
        guard let keyWord = scanner.word() else {
            throw CheckLineError(column: 1, message: "expected an assertion: one of \(queryWords), then its check, such as body $.json.id equals 7")
        }
        guard let key = SessionKey.Assert(rawValue: keyWord.text) else {
            throw CheckLineError(column: keyWord.column, message: "'\(keyWord.text)' is not an assertion; expected one of: \(queryWords)")
        }
        switch key {
        case .status, .valid, .maxDuration, .errors:
            // A value of its own (`status 2xx`), read by the reader as `status: 2xx`.
            let rest = scanner.rest()
            let assertions = try read(key.rawValue + ": " + rest.text, offsets: [(1, keyWord.column), (key.rawValue.count + 3, rest.column)]) { reader, root in
                try reader.assertions(.mapping(root))
            }
            guard let assertion = assertions.first else { throw CheckLineError(column: rest.column, message: "expected a value after \(key.rawValue)") }
            return assertion
        case .headers:
            return .header(try headerName(&scanner, after: keyWord), try predicate(&scanner))
        case .body:
            let path = try argument(&scanner, after: keyWord, "a body path such as $.json.id")
            return .body(try bodyPath(path), try predicate(&scanner))
        case .xpath:
            let expression = try argument(&scanner, after: keyWord, "an XPath expression such as count(//item)")
            try validate(expression) { reader in _ = try reader.xpath(expression.text, at: Node(expression.text)) }
            return .xpath(expression.text, try predicate(&scanner))
        case .cookies:
            let name = try argument(&scanner, after: keyWord, "a cookie name, or NAME[ATTRIBUTE]")
            try validate(name) { reader in _ = try reader.cookie(name.text, at: Node(name.text)) }
            return .response(.cookie(name.text), try predicate(&scanner))
        case .url, .redirects, .location, .duration, .bodySize, .bodySHA256, .bodyMD5, .streamEvents, .streamFirst, .streamLast, .decodedBy, .trustedBy, .cache:
            return .response(ResponseValue(key: key.rawValue) ?? .url, try predicate(&scanner))
        case .request:
            return .request(try requestCheck(&scanner, after: keyWord))
        case .received:
            return .received(try requestCheck(&scanner, after: keyWord))
        case .transportError:
            return .transportError(try predicate(&scanner))
        }
    }

    /// Reads a capture line: `NAME: SOURCE`, as `capture:` holds it.
    ///
    /// - Throws: ``CheckLineError`` with the column of the line and what was expected there.
    public static func capture(parsing line: String) throws(CheckLineError) -> (name: String, source: CaptureSource) {
        let captures = try read(line, offsets: [(1, 1)]) { reader, root in try reader.captures(.mapping(root)) }
        guard captures.count == 1, let (name, source) = captures.elements.first else {
            throw CheckLineError(column: 1, message: "expected one capture, NAME: SOURCE, such as id: $.json.id or etag: {header: ETag}")
        }
        return (name, source)
    }

    // MARK: - Writing

    /// An assertion as its line; ``assertion(parsing:)`` reads it back to the same assertion.
    public static func text(of assertion: Assertion) -> String {
        switch assertion {
        case .status(let text): "status " + text
        case .valid(let valid): "valid \(valid)"
        case .maxDuration(let seconds): "max-duration " + Assertion.durationText(seconds)
        case .errors(let expectations): "errors " + YAMLWriter.flow(Assertion.yamlPairs([.errors(expectations)]).first?.1 ?? .sequence([]))
        case .header(let name, let predicate): "headers \(name) " + text(of: predicate)
        case .body(let path, let predicate): "body \(argumentText(path.text)) " + text(of: predicate)
        case .xpath(let expression, let predicate): "xpath \(argumentText(expression)) " + text(of: predicate)
        case .response(.cookie(let name), let predicate): "cookies \(argumentText(name)) " + text(of: predicate)
        case .response(let value, let predicate): value.key + " " + text(of: predicate)
        case .transportError(let predicate): "transport-error " + text(of: predicate)
        case .request(let check): "request " + text(of: check)
        case .received(let check): "received " + text(of: check)
        }
    }

    /// A `request:` (or `received:`) check as its line, after its key.
    private static func text(of check: RequestCheck) -> String {
        switch check {
        case .method(let predicate): "method " + text(of: predicate)
        case .url(let predicate): "url " + text(of: predicate)
        case .query(let name, let predicate): "query \(argumentText(name)) " + text(of: predicate)
        case .header(let name, let predicate): "headers \(name) " + text(of: predicate)
        case .body(let path, let predicate): "body \(argumentText(path.text)) " + text(of: predicate)
        }
    }

    /// A capture as its line: `NAME: SOURCE`.
    public static func text(capture name: String, _ source: CaptureSource) -> String {
        YAMLWriter.scalar(name, flow: true) + ": " + YAMLWriter.flow(source.yaml)
    }

    /// The line of an assertion that the value at a body path equals `value`: what `y` on a
    /// response value offers.
    public static func equalsText(path: String, value: ParameterValue) -> String {
        "body \(argumentText(path)) equals " + YAMLWriter.flow(YAMLValue(value))
    }

    /// A check as the line writes it: `KEY VALUE` for one check, else a flow mapping.
    static func text(of predicate: Predicate) -> String {
        guard case .mapping(let pairs) = predicate.yaml else {
            // A plain value is `equals`.
            return SessionKey.Check.equals.rawValue + " " + YAMLWriter.flow(predicate.yaml)
        }
        if pairs.count == 1, let (key, value) = pairs.first, key != SessionKey.Check.filters.rawValue { return key + " " + YAMLWriter.flow(value) }
        return YAMLWriter.flow(predicate.yaml)
    }

    // MARK: - Pieces

    private static var queryWords: String { SessionKey.Assert.allCases.map(\.rawValue).joined(separator: ", ") }

    private static func requestCheck(_ scanner: inout LineScanner, after request: LineScanner.Word) throws(CheckLineError) -> RequestCheck {
        let words = SessionKey.RequestAssert.allCases.map(\.rawValue).joined(separator: ", ")
        guard let word = scanner.word() else {
            throw CheckLineError(column: request.column + request.text.count + 1, message: "expected what of the request to check: one of \(words)")
        }
        guard let key = SessionKey.RequestAssert(rawValue: word.text) else {
            throw CheckLineError(column: word.column, message: "'\(word.text)' is not part of the request; expected one of: \(words)")
        }
        switch key {
        case .method: return .method(try predicate(&scanner))
        case .url: return .url(try predicate(&scanner))
        case .query: return .query(try argument(&scanner, after: word, "a query field's name").text, try predicate(&scanner))
        case .headers:
            return .header(try headerName(&scanner, after: word), try predicate(&scanner))
        case .body:
            return .body(try bodyPath(try argument(&scanner, after: word, "a body path such as $.name")), try predicate(&scanner))
        }
    }

    private static func argument(_ scanner: inout LineScanner, after word: LineScanner.Word, _ expected: String) throws(CheckLineError) -> LineScanner.Word {
        guard let argument = try scanner.argument() else {
            throw CheckLineError(column: word.column + word.text.count + 1, message: "expected \(expected) after \(word.text)")
        }
        return argument
    }

    private static func headerName(_ scanner: inout LineScanner, after word: LineScanner.Word) throws(CheckLineError) -> String {
        let name = try argument(&scanner, after: word, "a header name")
        guard HTTPHeaders.isValidName(name.text) else { throw CheckLineError(column: name.column, message: HeaderLine.invalidNameMessage(name.text)) }
        return name.text
    }

    private static func bodyPath(_ word: LineScanner.Word) throws(CheckLineError) -> BodyPath {
        var path: BodyPath?
        try validate(word) { reader in path = try reader.path(word.text, at: Node(word.text)) }
        guard let path else { throw CheckLineError(column: word.column, message: "expected a body path") }
        return path
    }

    /// The rest of the line as a check, read by the reader as the mapping `KEY: VALUE` (or the
    /// flow mapping written).
    private static func predicate(_ scanner: inout LineScanner) throws(CheckLineError) -> Predicate {
        let rest = scanner.rest()
        let checks = SessionKey.Check.allCases.filter { $0 != .filters }.map(\.rawValue).joined(separator: ", ")
        guard !rest.text.isEmpty else { throw CheckLineError(column: rest.column, message: "expected a check: one of \(checks), then its value (equals Ada)") }
        if rest.text.hasPrefix("{") {
            return try read(rest.text, offsets: [(1, rest.column)]) { reader, root in try reader.predicate(.mapping(root)) }
        }
        var words = LineScanner(rest.text)
        let key = words.word()?.text ?? ""
        let value = words.rest()
        return try read(key + ": " + value.text, offsets: [(1, rest.column), (key.count + 3, rest.column + value.column - 1)]) { reader, root in
            try reader.predicate(.mapping(root))
        }
    }

    /// Parses `document` (one line of YAML) and reads it with the session reader, mapping an
    /// error's column in the document back to the line: `offsets` pairs a document column with
    /// the line column it stands for, from left to right.
    private static func read<Value>(_ document: String, offsets: [(document: Int, line: Int)], _ body: (SessionReader, Node.Mapping) throws -> Value) throws(CheckLineError) -> Value {
        do {
            let file = try ConfigFile.parse(document, path: "check")
            return try body(SessionReader(file: file), file.root)
        } catch let error as ConfigFileError {
            let column = error.column ?? 1
            let anchor = offsets.last { $0.document <= column } ?? offsets[0]
            throw CheckLineError(column: max(1, anchor.line + column - anchor.document), message: error.message)
        } catch {
            throw CheckLineError(column: 1, message: "\(error)")
        }
    }

    /// Runs one of the reader's own checks on an argument, placing its error at the argument.
    private static func validate(_ word: LineScanner.Word, _ check: (SessionReader) throws -> Void) throws(CheckLineError) {
        do {
            try check(SessionReader(file: try ConfigFile.parse("", path: "check")))
        } catch let error as ConfigFileError {
            throw CheckLineError(column: word.column, message: error.message)
        } catch {
            throw CheckLineError(column: word.column, message: "\(error)")
        }
    }

    /// An argument as the line writes it: as it is, or double-quoted when it would not read
    /// back as one word (a space outside brackets, or a leading quote).
    public static func argumentText(_ text: String) -> String {
        var scanner = LineScanner(text)
        if let word = try? scanner.argument(), word.text == text, scanner.rest().text.isEmpty, !text.hasPrefix("\"") { return text }
        return YAMLWriter.doubleQuoted(text)
    }
}

/// A check line that cannot be read: where, and what was expected there.
public struct CheckLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The column of the line (1-based).
    public var column: Int
    /// The session reader's words.
    public var message: String

    public init(column: Int, message: String) {
        self.column = column
        self.message = message
    }

    public var description: String { "column \(column): \(message)" }
}

/// Words of a check line, each with its column.
private struct LineScanner {
    struct Word {
        var text: String
        /// 1-based.
        var column: Int
    }

    let characters: [Character]
    var index = 0

    init(_ text: String) {
        characters = Array(text)
    }

    mutating func skipSpaces() {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
    }

    /// The next run of characters up to a space.
    mutating func word() -> Word? {
        skipSpaces()
        let start = index
        while index < characters.count, !characters[index].isWhitespace { index += 1 }
        return index > start ? Word(text: String(characters[start..<index]), column: start + 1) : nil
    }

    /// The next argument: a double-quoted YAML string, or text up to a space outside brackets
    /// and quotes (`$["a b"]`, `//a[@id = 'x']`).
    mutating func argument() throws(CheckLineError) -> Word? {
        skipSpaces()
        guard index < characters.count else { return nil }
        let start = index
        if characters[index] == "\"" {
            index += 1
            while index < characters.count, characters[index] != "\"" { index += characters[index] == "\\" ? 2 : 1 }
            guard index < characters.count else { throw CheckLineError(column: start + 1, message: "expected a closing \" for the quoted text") }
            index += 1
            let quoted = String(characters[start..<index])
            guard let document = (try? Yams.load(yaml: "v: " + quoted)) as? [String: Any], let text = document["v"] as? String else {
                throw CheckLineError(column: start + 1, message: "expected quoted text as YAML writes it (\\\" for a quote, \\\\ for a backslash)")
            }
            return Word(text: text, column: start + 1)
        }
        var depth = 0
        var quote: Character?
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if "[(".contains(character) {
                depth += 1
            } else if "])".contains(character) {
                depth = max(0, depth - 1)
            } else if character.isWhitespace, depth == 0 {
                break
            }
            index += 1
        }
        return Word(text: String(characters[start..<index]), column: start + 1)
    }

    /// What is left, trimmed, with the column it starts at.
    mutating func rest() -> Word {
        skipSpaces()
        var end = characters.count
        while end > index, characters[end - 1].isWhitespace { end -= 1 }
        return Word(text: String(characters[index..<end]), column: index + 1)
    }
}
