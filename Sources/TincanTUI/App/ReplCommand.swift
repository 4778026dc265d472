import TincanCore
import TincanSessions

/// A line typed at the `:` command line, parsed.
///
/// Requests use the item syntax of `tincan send` (``RequestItem``): `get /users page==2`,
/// `post /items name=x tags:=["a"]`.
public enum ReplCommand: Sendable, Equatable {
    /// A method, optionally a URL, and items applied to the panes.
    case request(method: String, url: String?, items: [RequestItem])
    /// `header Name: value`, `header Name:` (sent empty) or `header -Name` (removed from the table).
    case header(name: String, value: String?)
    case base(String?)
    case url(String)
    /// `set NAME VALUE`: an observed property or the upload pace.
    case set(property: SetProperty, value: String)
    /// `pin [public-key] FILE…`: the session's security policy pins these certificates (PEM
    /// files, `{{variables}}` allowed), by certificate or by public key; `pin off` removes the pins.
    case pin(files: [String], mode: SecurityPolicy.PinningMode)

    /// What `set` sets: an observed property (named as the core's ``ObservedProperty`` names it)
    /// or the upload pace.
    public enum SetProperty: Sendable, Equatable {
        case observed(ObservedProperty)
        case upload

        /// The property `word` names, or nil.
        init?(word: String) {
            if let property = ObservedProperty(word: word) {
                self = .observed(property)
            } else if word.lowercased() == "upload" {
                self = .upload
            } else {
                return nil
            }
        }

        /// The word it is shown by.
        public var word: String {
            switch self {
            case .observed(let property): property.commandWord
            case .upload: "upload"
            }
        }

        /// What it expects, for `help` and errors.
        public var expects: String {
            switch self {
            case .observed(.timeoutInterval): "seconds (0.001…2147483), such as 5 or 0.5"
            case .observed(.cachePolicy): CachePolicy.allCases.map(\.rawValue).joined(separator: ", ")
            case .observed(.httpShouldHandleCookies), .observed(.httpShouldUsePipelining), .observed(.allowsCellularAccess): "on or off"
            case .observed(.networkServiceType): NetworkServiceType.allCases.map(\.rawValue).joined(separator: ", ")
            case .upload: "bytes per second (1…1000000000000) such as 64k, or off"
            }
        }

        /// The values offered when completing it.
        public var completions: [String] {
            switch self {
            case .observed(.cachePolicy): CachePolicy.allCases.map(\.rawValue)
            case .observed(.networkServiceType): NetworkServiceType.allCases.map(\.rawValue)
            case .observed(.httpShouldHandleCookies), .observed(.httpShouldUsePipelining), .observed(.allowsCellularAccess): ["on", "off"]
            case .observed(.timeoutInterval), .upload: []
            }
        }

        /// Every property `set` knows, in the order Tincan lists them.
        public static let all: [SetProperty] = ObservedProperty.listingOrder.map(SetProperty.observed) + [.upload]
    }
    case serializer(SerializerKind)
    case acceptStatus(StatusCodeSet)
    case response(ResponseSerializerKind)
    case send
    case theme(String)
    case environment(String?)
    case save(String?)
    case open(String)
    case clear(ClearTarget)
    case help

    /// What `clear` empties.
    public enum ClearTarget: String, Sendable, CaseIterable {
        case params, headers, all
    }

    /// Every command word, for `help` and completion.
    public static let commandWords = ["get", "head", "post", "put", "patch", "delete", "options", "header", "base", "url", "set", "pin",
                                      "serializer", "accept", "response", "send", "theme", "env", "save", "open", "clear", "help"]

    /// The properties `set` knows, with what each expects.
    public static let properties: [(name: String, expects: String)] = SetProperty.all.map { ($0.word, $0.expects) }

    /// One line per command, for `help`.
    public static let usage: [(String, String)] = [
        ("get|post|… [URL] [ITEM…]", "the whole request, as HTTPie reads it: a=1 a:=json a==query H:v f@file; what it does not name is emptied"),
        ("header NAME: VALUE", "add or replace a header; header -NAME removes it"),
        ("base [URL]", "set the base URL (none clears it)"),
        ("url URL", "set the URL (a path against the base, or absolute)"),
        ("set PROPERTY VALUE", SetProperty.all.map(\.word).joined(separator: ", ")),
        ("pin [public-key] FILE… / pin off", "pin the session's TLS certificates (PEM files), by certificate or public key; off removes the pins"),
        ("serializer KIND", "form, json, plist or multipart"),
        ("accept status CODES", "acceptable status codes, such as 200-299,304 or 2xx"),
        ("response KIND", "the response serializer: " + ResponseSerializerKind.allCases.map(\.rawValue).joined(separator: ", ")),
        ("send", "send the request"),
        ("theme NAME", "switch the theme"),
        ("env [NAME]", "choose the session's environment (none for the file's variables)"),
        ("save [FILE] / open FILE", "save the session (to FILE) / open a session file"),
        ("clear params|headers|all", "empty the parameter tree, the headers, or both"),
        ("help", "this list"),
    ]

    /// Parses a line.
    ///
    /// - Throws: ``ReplError`` saying what was expected.
    public static func parse(_ line: String) throws(ReplError) -> ReplCommand {
        let words = try ReplWords.split(line)
        guard let first = words.first else { throw ReplError("type a command, such as get /users page==2; help lists them") }
        let command = first.lowercased()
        let rest = Array(words.dropFirst())
        func one(_ what: String) throws(ReplError) -> String {
            guard rest.count == 1 else { throw ReplError("\(command) takes \(what)\(rest.count > 1 ? ", not \(rest.count) words" : "")") }
            return rest[0]
        }
        func choice<Kind: RawRepresentable<String> & CaseIterable>(_: Kind.Type, _ what: String) throws(ReplError) -> Kind {
            let names = Kind.allCases.map(\.rawValue).joined(separator: ", ")
            let name = try one("one of: " + names)
            guard let kind = Kind(rawValue: name.lowercased()) else { throw ReplError("'\(name)' is not \(what); expected one of: \(names)") }
            return kind
        }
        if AppState.methods.contains(command.uppercased()) {
            var url: String?
            var items: [RequestItem] = []
            for (index, word) in rest.enumerated() {
                if index == 0, !Self.looksLikeItem(word) {
                    url = word
                    continue
                }
                do {
                    items.append(try RequestItem.parse(word))
                } catch {
                    throw ReplError("\(error)")
                }
            }
            return .request(method: command.uppercased(), url: url, items: items)
        }
        switch command {
        case "header":
            guard let nameWord = rest.first else { throw ReplError("header takes NAME: VALUE, NAME: for an empty value, or -NAME to remove it") }
            if nameWord.hasPrefix("-"), rest.count == 1 {
                return .header(name: String(nameWord.dropFirst()), value: nil)
            }
            let text = rest.joined(separator: " ")
            do throws(HeaderLine.Failure) {
                let line = try HeaderLine(parsing: text)
                return .header(name: line.name, value: line.value)
            } catch {
                switch error {
                case .noSeparator: throw ReplError("header takes NAME: VALUE; '\(text)' has no colon")
                case .invalidName(let name): throw ReplError(HeaderLine.invalidNameMessage(name))
                }
            }
        case "base":
            if rest.isEmpty || rest == ["none"] { return .base(nil) }
            return .base(try one("one URL"))
        case "url": return .url(try one("one URL"))
        case "set":
            guard rest.count == 2 else {
                throw ReplError("set takes a property and a value: " + properties.map { "\($0.name) (\($0.expects))" }.joined(separator: "; "))
            }
            guard let property = SetProperty(word: rest[0]) else {
                throw ReplError("'\(rest[0])' is not a property; expected one of: \(properties.map(\.name).joined(separator: ", "))")
            }
            // Numbers go through their field's range here, so a bad one is a parse error.
            do {
                switch property {
                case .observed(.timeoutInterval): _ = try NumericRange.timeout.value(parsing: rest[1])
                case .upload where !["off", "0"].contains(rest[1].lowercased()):
                    _ = try ByteRate.checked(rest[1], range: NumericRange.uploadRate.named("upload"))
                default: break
                }
            } catch {
                throw ReplError("\(error)" + (property == .upload ? " (or off)" : ""))
            }
            return .set(property: property, value: rest[1])
        case "serializer":
            return .serializer(try choice(SerializerKind.self, "a serializer"))
        case "accept":
            guard rest.count == 2, rest[0].lowercased() == "status" else { throw ReplError("accept takes status and codes, such as accept status 200-299,304") }
            do {
                return .acceptStatus(try StatusCodeSet(parsing: rest[1]))
            } catch {
                throw ReplError("\(error)")
            }
        case "response":
            return .response(try choice(ResponseSerializerKind.self, "a response serializer"))
        case "send":
            guard rest.isEmpty else { throw ReplError("send takes nothing; put the URL and items in get/post/… first") }
            return .send
        case "theme": return .theme(try one("a theme name"))
        case "env", "environment":
            if rest.isEmpty || rest == ["none"] { return .environment(nil) }
            return .environment(try one("an environment name, or none"))
        case "save":
            if rest.isEmpty { return .save(nil) }
            return .save(try one("at most one file name"))
        case "open": return .open(try one("a session file"))
        case "clear":
            let name = try one("params, headers or all")
            guard let target = ClearTarget(rawValue: name.lowercased()) else { throw ReplError("clear takes params, headers or all, not '\(name)'") }
            return .clear(target)
        case "pin":
            guard !rest.isEmpty else { throw ReplError("pin takes the PEM files of the certificates to pin (pin {{server-cert}}), public-key before them to pin their keys, or off") }
            if rest.count == 1, rest[0].lowercased() == "off" { return .pin(files: [], mode: .certificate) }
            let byKey = rest[0].lowercased() == "public-key"
            let files = byKey ? Array(rest.dropFirst()) : rest
            guard !files.isEmpty else { throw ReplError("pin public-key takes the PEM files of the certificates whose keys to pin") }
            return .pin(files: files, mode: byKey ? .publicKey : .certificate)
        case "help", "?": return .help
        default:
            let close = commandWords.filter { $0.hasPrefix(String(command.prefix(2))) }
            throw ReplError("'\(first)' is not a command; expected one of: \(commandWords.joined(separator: ", "))" + (close.isEmpty ? "" : " (did you mean \(close.joined(separator: " or "))?)"))
        }
    }

    /// The line as the history file keeps it: the values of secret items (`password=x`,
    /// `Authorization:'Bearer x'`, `api_key==x`) and of `header Secret-Name: value` hidden, and
    /// URLs (`get http://ann:pw@host/`, `base …`, `url …`) with their passwords and secret query
    /// fields hidden. The rules are ``Redaction``'s, as for history.jsonl; this only knows where
    /// a command line keeps its values.
    ///
    /// A line that does not split (an open quote) is recorded too, so its words are redacted
    /// one by one rather than kept as typed.
    public static func redacted(_ line: String) -> String {
        guard let words = try? ReplWords.split(line) else {
            return redactedWords(line.split(separator: " ").map(String.init), quoting: false).joined(separator: " ")
        }
        guard let first = words.first else { return line }
        if first.lowercased() == "header", words.count >= 2 {
            let text = words.dropFirst().joined(separator: " ")
            guard let header = try? HeaderLine(parsing: text) else {
                // `header Authorization Bearer x` is not run (no colon), but it is recorded.
                guard Redaction.isSecret(name: words[1]), words.count > 2 else { return line }
                return "\(first) \(words[1]) \(Redaction.mask)"
            }
            guard Redaction.isSecret(name: header.name) else { return line }
            return "\(first) \(header.name): " + Redaction.headerValue(name: header.name, value: header.value)
        }
        let masked = redactedWords(words, quoting: true)
        let quotedOriginal = words.enumerated().map { $0.offset == 0 ? $0.element : quoted($0.element) }
        return masked == quotedOriginal ? line : masked.joined(separator: " ")
    }

    /// The words after the command word with their secrets hidden (the command word is kept).
    ///
    /// A secret header's value may run on over the next words when it was not quoted
    /// (`Authorization:Bearer abc`): words after it that are not items are hidden too.
    private static func redactedWords(_ words: [String], quoting: Bool) -> [String] {
        let quote = { (word: String) in quoting ? quoted(word) : word }
        var hidingValue = false
        return words.enumerated().map { offset, word -> String in
            guard offset > 0 else { return word }
            guard looksLikeItem(word), let item = try? RequestItem.parse(word) else {
                if hidingValue { return Redaction.mask }
                return quote(Redaction.url(word))
            }
            hidingValue = false
            switch item {
            case .header(let name, let value) where Redaction.isSecret(name: name) && !value.isEmpty:
                hidingValue = true
                return name + ":" + quote(Redaction.headerValue(name: name, value: value))
            case .removeHeader(let name) where Redaction.isSecret(name: name) && word.hasSuffix(":"):
                // `Authorization: Bearer abc` typed with spaces: the value is in the next words.
                hidingValue = true
                return word
            case .parameter(let key, _) where Redaction.isSecret(name: key), .query(let key, _) where Redaction.isSecret(name: key):
                let separator = word.contains("==") ? "==" : (word.contains(":=") ? ":=" : "=")
                return key + separator + Redaction.mask
            default:
                return quote(word)
            }
        }
    }

    /// A word quoted so that it splits back into one word.
    private static func quoted(_ word: String) -> String {
        word.contains(where: { $0 == " " || $0 == "'" || $0 == "\"" }) ? "'" + word.replacingOccurrences(of: "'", with: "") + "'" : word
    }

    /// Whether a word is an item rather than a URL: it has an item separator before any `/`,
    /// and does not start like a URL or a path.
    static func looksLikeItem(_ word: String) -> Bool {
        if word.hasPrefix("/") || word.hasPrefix(".") || word.contains("://") || word.hasPrefix("{{") { return false }
        guard let separator = word.firstIndex(where: { "=:@".contains($0) }) else { return false }
        if let slash = word.firstIndex(of: "/"), slash < separator { return false }
        return true
    }
}

/// Why a command line was not run.
public struct ReplError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Splits a command line into words at spaces.
///
/// A quote opens a quoted span at the start of a word or right after its item separator
/// (`name='Ada Lovelace'`, `tags:='["a b"]'`, `Authorization:"Bearer x"`); anywhere else it is
/// an ordinary character. After `:=` an unquoted JSON value is read as JSON, to its end, spaces
/// and all (`friends:=[{"name": "Bo"}]`, issue 34 §8): its quotes are the JSON's. Inside double
/// quotes a backslash keeps the next character as it is; outside quotes `\ ` is a space inside
/// the word, and other backslashes are left for the item syntax (`a\=b=c`).
public enum ReplWords {
    public static func split(_ line: String) throws(ReplError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var quoteStart = 0
        let characters = Array(line)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if quote == nil, inWord, word.hasSuffix(":="), Self.endsWithSeparator(word), "[{\"".contains(character) {
                // A JSON value: read whole, through its strings and brackets.
                guard let end = JSONExtent.end(of: characters, from: index) else {
                    throw ReplError("\(word)\(String(characters[index...])): the JSON value that starts at column \(index + 1) is not closed")
                }
                word.append(contentsOf: characters[index..<end])
                index = end
                continue
            }
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\", open == "\"", index + 1 < characters.count {
                    index += 1
                    word.append(characters[index])
                } else {
                    word.append(character)
                }
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else if (character == "'" || character == "\"") && (!inWord || Self.endsWithSeparator(word)) {
                quote = character
                quoteStart = index
                inWord = true
            } else if character == "\\", index + 1 < characters.count, characters[index + 1] == " " {
                // An escaped space joins the word; other escapes are left for the item syntax.
                index += 1
                word.append(" ")
                inWord = true
            } else if character == "\\", index + 1 < characters.count {
                index += 1
                word.append(character)
                word.append(characters[index])
                inWord = true
            } else {
                word.append(character)
                inWord = true
            }
            index += 1
        }
        if quote != nil { throw ReplError("the quote at column \(quoteStart + 1) is not closed") }
        if inWord { words.append(word) }
        return words
    }

    /// Whether a word ends with its item separator (`=`, `==`, `:`, `:=`, `@`), the first one
    /// in it: a quote or a JSON value may open there, not after a later `:` (`{"a":"b"}`).
    static func endsWithSeparator(_ word: String) -> Bool {
        guard let first = word.firstIndex(where: { "=:@".contains($0) }) else { return false }
        let rest = word[first...]
        return ["=", "==", ":", ":=", "@", "=@", ":=@"].contains(String(rest))
    }
}

/// Where a JSON value typed on the command line ends: past its closing bracket or quote,
/// strings and escapes stepped over, so that spaces and quotes inside it are the JSON's.
enum JSONExtent {
    /// The index just past the value that starts at `start`, or nil when it is not closed.
    static func end(of characters: [Character], from start: Int) -> Int? {
        var depth = 0
        var inString = false
        var index = start
        while index < characters.count {
            let character = characters[index]
            if inString {
                if character == "\\" {
                    index += 1
                } else if character == "\"" {
                    inString = false
                    if depth == 0 { return index + 1 }
                }
            } else {
                switch character {
                case "\"": inString = true
                case "[", "{": depth += 1
                case "]", "}":
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
            }
            index += 1
        }
        return nil
    }
}
