import Foundation
import OrderedCollections
import TincanCore

/// The `.http` format of VS Code REST Client and JetBrains' HTTP client: requests separated by
/// `###`, `@name = value` variables, and the same `{{name}}` references Tincan uses.
public enum HTTPFile {
    /// What an import produced, and what it could not keep (response handlers, which run scripts).
    public struct Imported: Sendable {
        public var session: Session
        public var warnings: [String]
    }

    /// An exported file, and what of the requests a `.http` file cannot say.
    public struct Exported: Sendable {
        public var text: String
        public var warnings: [String]
    }

    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]

    /// Parses `.http` text; `path` names the file in errors and warnings.
    ///
    /// File paths (`< file` bodies and parts, `>> file` downloads) are kept as written: relative
    /// to the `.http` file's folder.
    /// - Parameter directory: Where files named by text-field parts are read from (the `.http`
    ///   file's folder).
    /// - Throws: ``InterchangeError`` naming the file and line.
    public static func parse(_ text: String, path: String, directory: String? = nil) throws(InterchangeError) -> Imported {
        let folder = directory ?? Session.directory(of: path)
        var reader = HTTPFileReader(path: path, directory: folder)
        try reader.read(BoundedFile.droppingByteOrderMark(text))
        var session = reader.session
        let warnings = reader.warnings + ImportChecks.finish(&session, folder: folder, origin: .file)
        return Imported(session: session, warnings: warnings)
    }

    /// REST Client's `{{$processEnv NAME}}` and `{{$guid}}` as Tincan writes them.
    static func convertBuiltins(_ text: String) -> String {
        guard text.contains("{{$") else { return text }
        var result = text.replacingOccurrences(of: "{{$guid}}", with: "{{$uuid}}")
        while let range = result.range(of: "{{$processEnv ") {
            guard let end = result[range.upperBound...].range(of: "}}") else { break }
            let name = result[range.upperBound..<end.lowerBound].trimmingWhitespace()
            result.replaceSubrange(range.lowerBound..<end.upperBound, with: "{{$env.\(name)}}")
        }
        return result
    }

    // MARK: - Export

    /// Built requests as `.http` text, each under `### name`.
    ///
    /// An upload or a file body is `< path`, a multipart form its parts with `< path` for files
    /// (JetBrains' syntax, with the form's boundary), Digest credentials
    /// `Authorization: Digest user password`, a download `>>! path` and the timeout `# @timeout`.
    /// - Throws: ``InterchangeError`` for a body a `.http` file cannot hold (bytes that are not
    ///   text, or text whose lines would read as `.http` syntax).
    public static func export(_ requests: [(name: String, request: HTTPRequest, resolved: ResolvedRequest?)]) throws(InterchangeError) -> Exported {
        var blocks: [String] = []
        var warnings: [String] = []
        for (name, request, resolved) in requests {
            // A name is a comment: its control characters are neutralised, not refused.
            var lines = ["### \(TerminalText.line(name))"]
            if request.appliedProperties.contains(.timeoutInterval) {
                lines.append("# @timeout \(timeoutText(request.properties.timeoutInterval))")
            }
            if resolved?.options.redirects == .doNotFollow { lines.append("# @no-redirect") }
            lines.append("\(request.method) \(request.url.string)")
            for field in request.headers where !HTTPHeaders.same(field.name, "Content-Length") {
                lines.append("\(field.name): \(field.value)")
            }
            if let digest = resolved?.options.credential { lines.append("Authorization: Digest \(digest.user) \(digest.password)") }
            if let upload = resolved?.options.uploadFile {
                lines += ["", "< \(upload)"]
            } else {
                switch request.body {
                case .none: break
                case .bytes(let bytes) where bytes.isEmpty: break
                case .bytes(let bytes):
                    guard var text = String(validating: bytes, as: UTF8.self) else {
                        throw InterchangeError(.binaryBody(request: name))
                    }
                    if let lineFeeds = lineFeedLines(text) {
                        text = lineFeeds
                        warnings.append("request '\(TerminalText.line(name))': the body's CRLF line ends are written as the file's own; a .http client ends the lines it sends its own way (curl and HAR keep CRLF)")
                    }
                    lines += [""] + (try bodyLines(text, request: name))
                case .file(let path, _):
                    lines += ["", "< \(path)"]
                case .multipart(let form):
                    lines += [""] + (try formLines(form, request: name))
                }
            }
            if let download = resolved?.options.download?.path { lines.append(">>! \(download)") }
            try refuseControlCharacters(in: lines.dropFirst(), request: name)
            warnings += notCarried(name, resolved: resolved)
            blocks.append(lines.joined(separator: "\n"))
        }
        return Exported(text: blocks.joined(separator: "\n\n") + "\n", warnings: warnings)
    }

    /// Refuses a line that holds a control character other than a tab (``TerminalText``): a
    /// `.http` file has no escapes, so it would hold the character raw, and a carriage return or
    /// an escape shows another request on screen than the one the file sends.
    static func refuseControlCharacters(in lines: some Sequence<String>, request: String) throws(InterchangeError) {
        for line in lines {
            if let scalar = line.unicodeScalars.first(where: { TerminalText.isControl($0) && $0 != "\t" }) {
                throw InterchangeError(.controlCharacter(scalar.value, line: line), at: "request '\(TerminalText.line(request))'")
            }
        }
    }

    /// Seconds as `# @timeout` takes them: a whole number of seconds, else milliseconds.
    static func timeoutText(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds))" : "\(Int((seconds * 1000).rounded())) ms"
    }

    /// `text` with its CRLF line ends as line feeds, when it has some and no other carriage
    /// return; nil otherwise. A body written on Windows (most of Postman's raw bodies) ends
    /// its lines so; a `.http` file's lines are the body's lines, and its reader takes CRLF as
    /// a line end, so the body reads back as the same lines.
    static func lineFeedLines(_ text: String) -> String? {
        guard text.utf8.contains(UInt8(ascii: "\r")) else { return nil }
        let joined = text.replacingOccurrences(of: "\r\n", with: "\n")
        return joined.utf8.contains(UInt8(ascii: "\r")) ? nil : joined
    }

    /// A text body's lines, refused when one would read as `.http` syntax instead of text.
    static func bodyLines(_ text: String, request: String) throws(InterchangeError) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in lines {
            let trimmed = line.trimmingWhitespace()
            if trimmed.hasPrefix("###") || trimmed.hasPrefix("< ") || trimmed.hasPrefix("> ") || trimmed.hasPrefix(">> ") || trimmed.hasPrefix(">>! ") || trimmed.hasPrefix("<> ") {
                throw InterchangeError(.bodyLineIsSyntax(line), at: "request '\(request)'")
            }
        }
        return lines
    }

    /// A form as JetBrains writes one: its boundary, each part's headers, text or `< path`.
    static func formLines(_ form: MultipartFormData, request: String) throws(InterchangeError) -> [String] {
        var lines: [String] = []
        for part in form.parts {
            lines.append("--\(form.boundary)")
            for field in part.headers { lines.append("\(field.name): \(field.value)") }
            lines.append("")
            switch part.content {
            case .file(let path, _):
                lines.append("< \(path)")
            case .bytes(let bytes):
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw InterchangeError(.binaryFormPart, at: "request '\(request)'")
                }
                lines += try bodyLines(text, request: request)
            case .stream:
                throw InterchangeError(.streamFormPart, at: "request '\(request)'")
            }
        }
        return lines + ["--\(form.boundary)--"]
    }

    /// What the session does for a request that a `.http` file cannot say.
    static func notCarried(_ name: String, resolved: ResolvedRequest?) -> [String] {
        guard let resolved else { return [] }
        var warnings: [String] = []
        for case .removeHeader(let header) in resolved.draft.items {
            warnings.append("request '\(name)': \(header) is removed in the session, which a .http file cannot say; the client sends its own \(header) if it has one")
        }
        if case .follow(let maximum) = resolved.options.redirects, maximum != RedirectPolicy.standard.limit {
            warnings.append("request '\(name)': at most \(maximum) redirects is not carried over; a .http client follows its own number")
        }
        if let rate = resolved.options.uploadBytesPerSecond { warnings.append("request '\(name)': the upload rate (\(rate) bytes/s) is not carried over") }
        let security = resolved.security
        if security.insecure || security.caFile != nil || !security.pins.isEmpty {
            warnings.append("request '\(name)': the session's security settings (insecure, ca-file, pins) belong in the client's environment file, not the .http file")
        }
        if resolved.options.proxy.choice != .environment || resolved.options.proxy.noProxy != nil {
            warnings.append("request '\(name)': the session's proxy (proxy, noproxy) is not carried over; a .http client takes its proxy from its own settings")
        }
        if resolved.options.clientIdentity != nil {
            warnings.append("request '\(name)': the session's client certificate (tls: cert, key) is not carried over; a .http client takes it from its own settings")
        }
        if let policy = resolved.options.retryPolicy, policy.limit > 0 {
            warnings.append("request '\(name)': the retry policy (retry-policy: limit \(policy.limit)) is not carried over; a .http file cannot say it")
        }
        return warnings
    }
}
