/// One request item on a command line, in HTTPie's syntax.
///
/// | Item | Meaning |
/// |---|---|
/// | `name=value` | a string parameter |
/// | `name:=json` | a parameter with a raw JSON value |
/// | `name=@file` / `name:=@file` | a parameter read from a text / JSON file |
/// | `name==value` | a query-string field, always in the URL |
/// | `Name:value` | a header; `Name:` removes a default header, `Name;` sends it empty |
/// | `field@path` | a multipart file (`field@path;type=mime/type` sets its type) |
///
/// Parameter names may be nested: `user[name]=x`, `tags[]=a`, `tags[0]=a`. A backslash makes the
/// next character literal, so `a\=b=c` is the parameter `a=b` with value `c`.
public enum RequestItem: Sendable, Equatable {
    case parameter(key: String, value: ParameterValue)
    case parameterFromFile(key: String, path: String, isJSON: Bool)
    case query(name: String, value: String)
    case header(name: String, value: String)
    case removeHeader(name: String)
    case file(field: String, path: String, mimeType: String?)

    /// The separators, longest first so that `:=` wins over `:` at the same position.
    private static let separators = [":=@", "==", ":=", "=@", "=", "@", ":"]

    /// Parses one item.
    ///
    /// - Throws: ``RequestItemError`` saying what was expected.
    public static func parse(_ text: String) throws(RequestItemError) -> RequestItem {
        let characters = Array(text)
        var name = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count {
                name.append(characters[index + 1])
                index += 2
                continue
            }
            if character == ";", index == characters.count - 1 {
                guard !name.isEmpty else { throw RequestItemError(item: text, reason: "a header item needs a name before ';'") }
                return .header(name: name, value: "")
            }
            if let separator = separators.first(where: { matches($0, characters, at: index) }) {
                let rest = unescape(characters[(index + separator.count)...])
                return try make(name: name, separator: separator, value: rest, text: text)
            }
            name.append(character)
            index += 1
        }
        throw RequestItemError(item: text, reason: "expected name=value, name:=json, name==value, Header:value or field@file")
    }

    private static func matches(_ separator: String, _ characters: [Character], at index: Int) -> Bool {
        let pattern = Array(separator)
        guard index + pattern.count <= characters.count else { return false }
        return Array(characters[index..<index + pattern.count]) == pattern
    }

    private static func unescape(_ characters: ArraySlice<Character>) -> String {
        var result = ""
        var escaped = false
        for character in characters {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        if escaped { result.append("\\") }
        return result
    }

    private static func make(name: String, separator: String, value: String, text: String) throws(RequestItemError) -> RequestItem {
        guard !name.isEmpty else {
            throw RequestItemError(item: text, reason: "expected a name before '\(separator)'")
        }
        switch separator {
        case "=": return .parameter(key: name, value: .string(value))
        case "==": return .query(name: name, value: value)
        case ":=":
            do {
                return .parameter(key: name, value: try JSONParser.parse(value))
            } catch {
                throw RequestItemError(item: text, reason: "the value after ':=' is not valid JSON (\(error))")
            }
        case "=@", ":=@":
            guard !value.isEmpty else { throw RequestItemError(item: text, reason: "expected a file path after '\(separator)'") }
            return .parameterFromFile(key: name, path: value, isJSON: separator == ":=@")
        case "@":
            guard !value.isEmpty else { throw RequestItemError(item: text, reason: "expected a file path after '@'") }
            if let range = value.range(of: ";type=", options: .backwards) {
                let mimeType = String(value[range.upperBound...])
                guard mimeType.contains("/") else { throw RequestItemError(item: text, reason: "expected a MIME type like image/png after ';type='") }
                return .file(field: name, path: String(value[..<range.lowerBound]), mimeType: mimeType)
            }
            return .file(field: name, path: value, mimeType: nil)
        default:
            guard HTTPHeaders.isValidName(name) else {
                throw RequestItemError(item: text, reason: "'\(name)' is not a valid header name (letters, digits and !#$%&'*+-.^_`|~)")
            }
            let trimmed = value.drop { $0 == " " || $0 == "\t" }
            return trimmed.isEmpty ? .removeHeader(name: name) : .header(name: name, value: String(trimmed))
        }
    }
}

/// A request item that could not be parsed, and what was expected.
public struct RequestItemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The item as typed.
    public var item: String
    /// What was wrong or expected.
    public var reason: String

    public var description: String { "bad request item '\(item)': \(reason)" }
}
