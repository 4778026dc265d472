import Foundation
import OrderedCollections
import TincanCore

/// A curl command line that could not be imported, and why.
public struct InterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// `curl` command lines: importing one as a saved request, and exporting a built request as one.
public enum CurlCommand {
    // MARK: - Import

    /// Options that change nothing Tincan saves (output, verbosity, redirects, compression are its own choices).
    static let ignoredFlags: Set<String> = [
        "-s", "--silent", "-S", "--show-error", "-v", "--verbose", "-i", "--include", "-L", "--location", "--compressed",
        "-f", "--fail", "--fail-with-body", "-#", "--progress-bar", "--http1.1", "--http1.0", "--http2", "-N", "--no-buffer",
        "-g", "--globoff", "--basic", "-q", "--disable", "--no-progress-meter", "-sS", "--tr-encoding",
    ]
    /// Options with a value that Tincan does not keep.
    static let ignoredOptions: Set<String> = ["--connect-timeout", "-w", "--write-out", "--retry", "--max-redirs", "-D", "--dump-header", "-c", "--cookie-jar", "--stderr", "--trace", "--trace-ascii"]
    static let valueOptions: Set<String> = [
        "-X", "--request", "-H", "--header", "-d", "--data", "--data-ascii", "--data-raw", "--data-binary", "--data-urlencode", "--json",
        "-F", "--form", "--form-string", "-u", "--user", "--url", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie",
        "-T", "--upload-file", "-m", "--max-time", "-o", "--output", "--cacert", "--limit-rate",
    ]

    /// Parses a curl command (with or without the leading `curl`) into a saved request.
    ///
    /// - Throws: ``InterchangeError`` naming the option that cannot be imported.
    public static func parse(_ command: String) throws(InterchangeError) -> SavedRequest {
        var rawWords = try ShellWords.splitBytes(command)
        if rawWords.first == Array("curl".utf8) { rawWords.removeFirst() }
        let words = rawWords.map { String(decoding: $0, as: UTF8.self) }
        guard !words.isEmpty else { throw InterchangeError("expected a curl command such as curl -X POST https://example.com -d a=1") }

        var method: String?
        var url: String?
        var headers: [HeaderSetting] = []
        var data: [[UInt8]] = []
        var dataFile: String?
        var formParts: [(name: String, value: String, isFile: Bool, type: String?)] = []
        var json = false
        var get = false
        var head = false
        var upload: String?
        var request = SavedRequest(url: "")

        var index = 0
        func value(for option: String) throws(InterchangeError) -> String {
            index += 1
            guard index < words.count else { throw InterchangeError("\(option) needs a value") }
            return words[index]
        }
        /// The next word's bytes: a `$'\xff'` body need not be UTF-8.
        func bytes(for option: String) throws(InterchangeError) -> [UInt8] {
            index += 1
            guard index < rawWords.count else { throw InterchangeError("\(option) needs a value") }
            return rawWords[index]
        }
        while index < words.count {
            var word = words[index]
            var attached: String?
            // -XPOST, -H'Name: v', --data=x
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "="), valueOptions.contains(String(word[..<equals])) {
                attached = String(word[word.index(after: equals)...])
                word = String(word[..<equals])
            } else if word.hasPrefix("-"), !word.hasPrefix("--"), word.count > 2 {
                let flag = String(word.prefix(2))
                if valueOptions.contains(flag) {
                    attached = String(word.dropFirst(2))
                    word = flag
                } else if word.dropFirst().allSatisfy({ ignoredFlags.contains("-\($0)") || $0 == "k" || $0 == "I" || $0 == "G" }) {
                    for letter in word.dropFirst() {
                        if letter == "I" { head = true }
                        if letter == "G" { get = true }
                    }
                    index += 1
                    continue
                }
            }
            func next() throws(InterchangeError) -> String {
                if let attached { return attached }
                return try value(for: word)
            }
            switch word {
            case "-X", "--request": method = try next()
            case "-H", "--header":
                let line = try next()
                guard let colon = line.firstIndex(of: ":") ?? line.firstIndex(of: ";") else {
                    throw InterchangeError("-H '\(line)' is not a header; expected 'Name: value'")
                }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces)
                let fieldValue = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                guard HTTPHeaders.isValidName(name) else { throw InterchangeError("-H '\(line)': '\(name)' is not a valid header name") }
                // curl: 'Name:' removes a header curl would send, 'Name;' sends it empty.
                let removes = line[colon] == ":" && fieldValue.isEmpty
                headers.append(HeaderSetting(name: name, value: removes ? nil : fieldValue))
            case "-d", "--data", "--data-ascii", "--data-binary", "--data-raw", "--json":
                let content: [UInt8]
                if let attached { content = Array(attached.utf8) } else { content = try bytes(for: word) }
                if word == "--json" { json = true }
                if word != "--data-raw", content.first == UInt8(ascii: "@") {
                    guard data.isEmpty, dataFile == nil else { throw InterchangeError("\(word): a body read from a file cannot be combined with other data") }
                    dataFile = String(decoding: content.dropFirst(), as: UTF8.self)
                } else {
                    guard dataFile == nil else { throw InterchangeError("\(word): a body read from a file cannot be combined with other data") }
                    data.append(content)
                }
            case "--data-urlencode":
                let text = try next()
                if let equals = text.firstIndex(of: "=") {
                    let name = text[..<equals]
                    let content = String(text[text.index(after: equals)...])
                    data.append(Array(((name.isEmpty ? "" : "\(name)=") + QueryStringPair(field: "", value: content).escaped.dropFirst()).utf8))
                } else {
                    data.append(Array(QueryStringPair(field: "", value: text).escaped.dropFirst().utf8))
                }
            case "-F", "--form", "--form-string":
                let text = try next()
                guard let equals = text.firstIndex(of: "=") else { throw InterchangeError("\(word) '\(text)' is not a form field; expected name=value or name=@file") }
                let name = String(text[..<equals])
                var content = String(text[text.index(after: equals)...])
                if word != "--form-string", content.hasPrefix("@") || content.hasPrefix("<") {
                    content.removeFirst()
                    var type: String?
                    if let range = content.range(of: ";type=") {
                        type = String(content[range.upperBound...])
                        content = String(content[..<range.lowerBound])
                    }
                    formParts.append((name, content, true, type))
                } else {
                    formParts.append((name, content, false, nil))
                }
            case "-u", "--user":
                let text = try next()
                let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                request.auth = SavedAuth(scheme: request.auth?.scheme ?? .basic, user: String(parts[0]), password: parts.count > 1 ? String(parts[1]) : "")
            case "--digest":
                request.auth = SavedAuth(scheme: .digest, user: request.auth?.user ?? "", password: request.auth?.password ?? "")
            case "--url": url = try next()
            case "-A", "--user-agent": headers.append(HeaderSetting(name: "User-Agent", value: try next()))
            case "-e", "--referer": headers.append(HeaderSetting(name: "Referer", value: try next()))
            case "-b", "--cookie":
                let text = try next()
                guard text.contains("=") else { throw InterchangeError("-b '\(text)' reads cookies from a file, which cannot be imported; give them as -b 'name=value'") }
                headers.append(HeaderSetting(name: "Cookie", value: text))
            case "-T", "--upload-file": upload = try next()
            case "-m", "--max-time":
                let text = try next()
                do {
                    request.properties.timeoutInterval = try NumericRange.timeout.named(word).value(parsing: text)
                } catch {
                    throw InterchangeError("\(error)")
                }
            case "-o", "--output": request.download = try next()
            case "--cacert": _ = try next()
            case "--limit-rate": _ = try next()
            case "-k", "--insecure": break
            case "-I", "--head": head = true
            case "-G", "--get": get = true
            default:
                if ignoredFlags.contains(word) { break }
                if ignoredOptions.contains(word) {
                    _ = try next()
                    break
                }
                if word.hasPrefix("-"), word.count > 1 {
                    throw InterchangeError("the curl option \(word) cannot be imported; Tincan imports -X, -H, -d, --data-*, --json, -F, -u, --digest, -b, -A, -e, -G, -I, -T, -m and -o")
                }
                guard url == nil else { throw InterchangeError("two URLs ('\(url!)' and '\(word)'); Tincan imports one request at a time") }
                url = word
            }
            index += 1
        }
        guard let url else { throw InterchangeError("the curl command has no URL") }
        request.url = url.contains("://") ? url : "http://" + url
        if json {
            if !headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") }) { headers.append(HeaderSetting(name: "Content-Type", value: "application/json")) }
            if !headers.contains(where: { HTTPHeaders.same($0.name, "Accept") }) { headers.append(HeaderSetting(name: "Accept", value: "application/json")) }
        }
        let hasBody = !data.isEmpty || dataFile != nil
        let joined = Array(data.joined(separator: [UInt8(ascii: "&")]))
        if get, hasBody {
            request.url += (request.url.contains("?") ? "&" : "?") + String(decoding: joined, as: UTF8.self)
        } else if let dataFile {
            request.body = .file(dataFile)
        } else if hasBody {
            request.body = String(validating: joined, as: UTF8.self).map(SavedBody.text) ?? .base64(joined)
        }
        if hasBody, !get, !headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") }) {
            headers.append(HeaderSetting(name: "Content-Type", value: "application/x-www-form-urlencoded"))
        }
        if !formParts.isEmpty {
            guard !hasBody else { throw InterchangeError("-F and -d cannot go together: a body is either a form or data") }
            request.serializer = .multipart
            var fields: OrderedDictionary<String, ParameterValue> = [:]
            for part in formParts {
                if part.isFile {
                    request.files.append(SavedFile(field: part.name, path: part.value, type: part.type))
                } else {
                    // Bracketed names nest as they do on tincan's command line: tags[]=a builds a list.
                    guard part.name.contains("[") || fields[part.name] == nil else {
                        throw InterchangeError("-F '\(part.name)=…' is given twice; a parameter holds one value per name (write \(part.name)[]= for a list)")
                    }
                    do {
                        try ParameterPath(parsing: part.name).insert(.string(part.value), into: &fields)
                    } catch {
                        throw InterchangeError("-F '\(part.name)=…': \(error)")
                    }
                }
            }
            if !fields.isEmpty { request.params = .dictionary(fields) }
        }
        if let upload {
            guard !hasBody, formParts.isEmpty else { throw InterchangeError("-T sends a file as the body, so it cannot go with -d or -F") }
            request.upload = SavedUpload(file: upload)
        }
        request.headers = headers
        request.method = method ?? (head ? "HEAD" : upload != nil ? "PUT" : (hasBody && !get) || !formParts.isEmpty ? "POST" : "GET")
        guard HTTPMethod.isValid(request.method) else { throw InterchangeError("-X '\(request.method)' is not a method") }
        return request
    }

    // MARK: - Export

    /// A built request as a curl command with the same method, URL, headers and body.
    ///
    /// - Parameters:
    ///   - digest: Credentials to answer a Digest challenge with (`--digest -u`).
    ///   - upload: A file sent as the body (`-T`).
    ///   - download: Where to save the body (`-o`).
    public static func export(_ request: HTTPRequest, digest: Credential? = nil, upload: String? = nil, download: String? = nil, multiline: Bool = true) -> String {
        var words: [String] = ["curl"]
        var hasBody = false
        var bodyWords: [String] = []
        switch request.body {
        case .none: break
        case .bytes(let bytes) where bytes.isEmpty: break
        case .bytes(let bytes):
            hasBody = true
            if let text = String(validating: bytes, as: UTF8.self), !text.hasPrefix("@"), !text.contains("\0") {
                bodyWords = ["--data-raw", ShellWords.quote(text)]
            } else {
                bodyWords = ["--data-binary", ShellWords.ansiQuote(bytes)]
            }
        case .file(let path, _):
            hasBody = true
            bodyWords = upload != nil ? ["-T", ShellWords.quote(path)] : ["--data-binary", ShellWords.quote("@" + path)]
        case .multipart(let form):
            hasBody = true
            for part in form.parts {
                let disposition = part.headers["Content-Disposition"] ?? ""
                let name = parameter("name", in: disposition) ?? "file"
                switch part.content {
                case .file(let path, _):
                    var text = "\(name)=@\(path)"
                    if let type = part.headers["Content-Type"] { text += ";type=\(type)" }
                    bodyWords += ["-F", ShellWords.quote(text)]
                case .bytes(let bytes):
                    if parameter("filename", in: disposition) != nil {
                        bodyWords += ["-F", ShellWords.quote("\(name)=@-")]
                    } else {
                        bodyWords += ["--form-string", ShellWords.quote("\(name)=\(String(decoding: bytes, as: UTF8.self))")]
                    }
                case .stream:
                    bodyWords += ["-F", ShellWords.quote("\(name)=@-")]
                }
            }
        }
        let implied = hasBody ? (upload != nil ? "PUT" : "POST") : "GET"
        if request.method == "HEAD" {
            words.append("--head")
        } else if request.method != implied {
            words += ["-X", ShellWords.quote(request.method)]
        }
        words.append(ShellWords.quote(request.url.string))
        var lines = [words.joined(separator: " ")]
        for field in request.headers {
            if HTTPHeaders.same(field.name, "Content-Length") { continue }
            if case .multipart = request.body, HTTPHeaders.same(field.name, "Content-Type") { continue }
            lines.append("-H " + ShellWords.quote("\(field.name): \(field.value)"))
        }
        if let digest { lines.append("--digest -u " + ShellWords.quote("\(digest.user):\(digest.password)")) }
        if !bodyWords.isEmpty {
            var index = 0
            while index < bodyWords.count {
                lines.append(bodyWords[index] + " " + bodyWords[index + 1])
                index += 2
            }
        }
        if let download { lines.append("-o " + ShellWords.quote(download)) }
        return lines.joined(separator: multiline ? " \\\n  " : " ")
    }

    private static func parameter(_ name: String, in disposition: String) -> String? {
        guard let range = disposition.range(of: "\(name)=\"") else { return nil }
        let rest = disposition[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}

/// Splitting and quoting POSIX shell words, for curl commands.
public enum ShellWords {
    /// Splits a command line as a POSIX shell would: quotes, backslashes, `$'…'`, line continuations.
    ///
    /// - Throws: ``InterchangeError`` for an unterminated quote.
    public static func split(_ text: String) throws(InterchangeError) -> [String] {
        try splitBytes(text).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Splits as ``split(_:)`` does, keeping each word's bytes: `$'\xff'` need not be UTF-8.
    public static func splitBytes(_ text: String) throws(InterchangeError) -> [[UInt8]] {
        var words: [[UInt8]] = []
        var current: [UInt8] = []
        var inWord = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case " ", "\t", "\n", "\r":
                if inWord { words.append(current) }
                current = []
                inWord = false
            case "\\":
                guard let next = characters.popFirst() else { break }
                if next == "\n" || next == "\r" {
                    if next == "\r", characters.first == "\n" { characters.removeFirst() }
                    continue
                }
                current += Array(String(next).utf8)
                inWord = true
            case "'":
                inWord = true
                guard let end = characters.firstIndex(of: "'") else { throw InterchangeError("a single quote is not closed") }
                current += Array(String(characters[..<end]).utf8)
                characters = characters[(end + 1)...]
            case "\"":
                inWord = true
                var closed = false
                while let next = characters.popFirst() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\", let escaped = characters.first, "$`\"\\\n".contains(escaped) {
                        characters.removeFirst()
                        if escaped != "\n" { current += Array(String(escaped).utf8) }
                    } else {
                        current += Array(String(next).utf8)
                    }
                }
                guard closed else { throw InterchangeError("a double quote is not closed") }
            case "$" where characters.first == "'":
                characters.removeFirst()
                inWord = true
                current += try ansiC(&characters)
            default:
                current += Array(String(character).utf8)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// Reads a `$'…'` string's body (after the opening quote) and its closing quote.
    private static func ansiC(_ characters: inout ArraySlice<Character>) throws(InterchangeError) -> [UInt8] {
        var bytes: [UInt8] = []
        while let character = characters.popFirst() {
            if character == "'" { return bytes }
            guard character == "\\", let escape = characters.popFirst() else {
                bytes += Array(String(character).utf8)
                continue
            }
            switch escape {
            case "n": bytes.append(0x0A)
            case "t": bytes.append(0x09)
            case "r": bytes.append(0x0D)
            case "0": bytes.append(0)
            case "e", "E": bytes.append(0x1B)
            case "x":
                var digits = ""
                while digits.count < 2, let next = characters.first, next.isHexDigit { digits.append(characters.removeFirst()) }
                bytes.append(UInt8(digits, radix: 16) ?? 0)
            case "u", "U":
                var digits = ""
                while digits.count < (escape == "u" ? 4 : 8), let next = characters.first, next.isHexDigit { digits.append(characters.removeFirst()) }
                if let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) { bytes += Array(String(scalar).utf8) }
            default: bytes += Array(String(escape).utf8)
            }
        }
        throw InterchangeError("a $'…' quote is not closed")
    }

    /// A word quoted for a POSIX shell: bare when safe, else in single quotes.
    public static func quote(_ word: String) -> String {
        let safe = !word.isEmpty && word.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_./:=@,+%".unicodeScalars.contains($0) }
        if safe { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Bytes as a `$'…'` word (bash, zsh, ksh), for bodies that are not text.
    public static func ansiQuote(_ bytes: [UInt8]) -> String {
        var output = "$'"
        for byte in bytes {
            switch byte {
            case 0x27: output += "\\'"
            case 0x5C: output += "\\\\"
            case 0x20...0x7E: output.unicodeScalars.append(Unicode.Scalar(byte))
            default: output += String(format: "\\x%02x", byte)
            }
        }
        return output + "'"
    }
}
