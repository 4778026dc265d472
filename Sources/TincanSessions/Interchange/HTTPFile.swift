import Foundation
import OrderedCollections
import TincanCore

/// The `.http` format of VS Code REST Client and JetBrains' HTTP client: requests separated by
/// `###`, `@name = value` variables, and the same `{{name}}` references Tincan uses.
public enum HTTPFile {
    /// What an import produced, and the lines it skipped (response handlers, which run scripts).
    public struct Imported: Sendable {
        public var session: Session
        public var warnings: [String]
    }

    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]

    /// Parses `.http` text; `path` names the file in errors and warnings.
    ///
    /// - Throws: ``InterchangeError`` naming the file and line.
    public static func parse(_ text: String, path: String) throws(InterchangeError) -> Imported {
        var session = Session(name: ((path as NSString).lastPathComponent as NSString).deletingPathExtension)
        var warnings: [String] = []
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

        enum Stage { case before, headers, body }
        var stage = Stage.before
        var request: SavedRequest?
        var pendingName: String?
        var body: [String] = []
        var inHandler = false

        func finish() {
            guard var finished = request else { return }
            while body.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { body.removeLast() }
            if body.count == 1, body[0].hasPrefix("< ") {
                finished.body = .file(String(body[0].dropFirst(2)).trimmingCharacters(in: .whitespaces))
            } else if !body.isEmpty {
                finished.body = .text(body.joined(separator: "\n"))
            }
            session.requests.append(finished)
            request = nil
            body = []
            stage = .before
        }

        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("###") {
                finish()
                let name = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                pendingName = name.isEmpty ? nil : name
                inHandler = false
                continue
            }
            if inHandler {
                if trimmed.hasSuffix("%}") { inHandler = false }
                continue
            }
            if stage == .body {
                if trimmed.hasPrefix("> {%") || trimmed.hasPrefix(">> ") || trimmed.hasPrefix("<> ") || (trimmed.hasPrefix("> ") && !trimmed.hasPrefix("> {%")) {
                    warnings.append("\(path):\(number): skipped a response handler; use capture: and assert: in the session instead")
                    inHandler = trimmed.hasPrefix("> {%") && !trimmed.hasSuffix("%}")
                    continue
                }
                body.append(line)
                continue
            }
            if stage == .headers {
                if trimmed.isEmpty {
                    stage = .body
                    continue
                }
                if trimmed.hasPrefix("#") || trimmed.hasPrefix("//") { continue }
                if trimmed.hasPrefix("?") || trimmed.hasPrefix("&"), request?.headers.isEmpty == true {
                    request?.url += trimmed
                    continue
                }
                guard let colon = trimmed.firstIndex(of: ":") else {
                    throw InterchangeError("\(path):\(number): expected a header 'Name: value' or a blank line before the body, found '\(trimmed)'")
                }
                let name = trimmed[..<colon].trimmingCharacters(in: .whitespaces)
                guard HTTPHeaders.isValidName(name) else { throw InterchangeError("\(path):\(number): '\(name)' is not a valid header name") }
                request?.headers.append(HeaderSetting(name: name, value: trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
                continue
            }
            // Before a request line: blank lines, comments, @variables, # @name.
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") || trimmed.hasPrefix("//") {
                let comment = trimmed.drop { $0 == "#" || $0 == "/" }.trimmingCharacters(in: .whitespaces)
                if comment.hasPrefix("@name ") || comment.hasPrefix("@name=") {
                    pendingName = comment.dropFirst(5).trimmingCharacters(in: CharacterSet(charactersIn: " ="))
                }
                continue
            }
            if trimmed.hasPrefix("@") {
                guard let equals = trimmed.firstIndex(of: "=") else {
                    throw InterchangeError("\(path):\(number): expected a variable '@name = value'")
                }
                let name = trimmed[trimmed.index(after: trimmed.startIndex)..<equals].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { throw InterchangeError("\(path):\(number): expected a variable name after '@'") }
                session.variables[name] = .string(convertBuiltins(trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
                continue
            }
            var words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            if words.count > 1, words.last!.uppercased().hasPrefix("HTTP/") { words.removeLast() }
            var saved: SavedRequest
            if words.count >= 2, methods.contains(words[0].uppercased()) || HTTPMethod.isValid(words[0]) && words[0] == words[0].uppercased() {
                saved = SavedRequest(name: pendingName, method: words[0].uppercased(), url: convertBuiltins(words[1...].joined(separator: " ")))
            } else if words.count == 1 {
                saved = SavedRequest(name: pendingName, method: "GET", url: convertBuiltins(words[0]))
            } else {
                throw InterchangeError("\(path):\(number): expected a request line 'METHOD URL', found '\(trimmed)'")
            }
            saved.line = number
            pendingName = nil
            request = saved
            stage = .headers
        }
        finish()
        for index in session.requests.indices {
            session.requests[index].headers = session.requests[index].headers.map { HeaderSetting(name: $0.name, value: $0.value.map(convertBuiltins)) }
            if case .text(let text)? = session.requests[index].body { session.requests[index].body = .text(convertBuiltins(text)) }
        }
        guard !session.requests.isEmpty else { throw InterchangeError("\(path): no requests found; expected a line such as 'GET https://example.com'") }
        return Imported(session: session, warnings: warnings)
    }

    /// REST Client's `{{$processEnv NAME}}` and `{{$guid}}` as Tincan writes them.
    static func convertBuiltins(_ text: String) -> String {
        guard text.contains("{{$") else { return text }
        var result = text.replacingOccurrences(of: "{{$guid}}", with: "{{$uuid}}")
        while let range = result.range(of: "{{$processEnv ") {
            guard let end = result[range.upperBound...].range(of: "}}") else { break }
            let name = result[range.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespaces)
            result.replaceSubrange(range.lowerBound..<end.upperBound, with: "{{$env.\(name)}}")
        }
        return result
    }

    /// Built requests as `.http` text, each under `### name`.
    public static func export(_ requests: [(name: String, request: HTTPRequest)]) throws(InterchangeError) -> String {
        var blocks: [String] = []
        for (name, request) in requests {
            var lines = ["### \(name)", "\(request.method) \(request.url.string)"]
            for field in request.headers where !HTTPHeaders.same(field.name, "Content-Length") {
                lines.append("\(field.name): \(field.value)")
            }
            switch request.body {
            case .none: break
            case .bytes(let bytes) where bytes.isEmpty: break
            case .bytes(let bytes):
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw InterchangeError("request '\(name)' has a binary body, which .http files cannot hold; save it to a file and use body: {file: PATH}")
                }
                lines.append("")
                lines.append(text)
            case .file(let path, _):
                lines.append("")
                lines.append("< \(path)")
            case .multipart:
                throw InterchangeError("request '\(name)' is multipart with a random boundary; export it as curl, which rebuilds the form")
            }
            blocks.append(lines.joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }
}
