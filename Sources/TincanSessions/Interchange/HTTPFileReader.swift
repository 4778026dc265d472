import Foundation
import OrderedCollections
import TincanCore

/// Reads `.http` text line by line into a session (``HTTPFile/parse(_:path:directory:)``).
struct HTTPFileReader {
    enum Stage { case before, headers, body }

    /// A multipart part as written: its headers, and its lines of text or one `< path`.
    struct Part {
        var line: Int
        var headers: [(name: String, value: String)] = []
        var lines: [String] = []

        func header(_ name: String) -> String? {
            headers.last { HTTPHeaders.same($0.name, name) }?.value
        }
    }

    let path: String
    /// Where text-field parts given as `< path` are read from.
    let directory: String
    var session: Session
    var warnings: [String] = []
    var stage = Stage.before
    var request: SavedRequest?
    var pendingName: String?
    var pendingTimeout: Double?
    /// `# @no-redirect` before the request line: the request returns a redirect as it is.
    var pendingNoRedirect = false
    var body: [(line: Int, text: String)] = []
    var inHandler = false

    init(path: String, directory: String) {
        self.path = path
        self.directory = directory
        session = Session(name: ((path as NSString).lastPathComponent as NSString).deletingPathExtension)
    }

    mutating func read(_ text: String) throws(InterchangeError) {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (offset, line) in lines.enumerated() {
            try read(line, number: offset + 1)
        }
        try finish()
        for index in session.requests.indices {
            session.requests[index].headers = session.requests[index].headers.map { HeaderSetting(name: $0.name, value: $0.value.map(HTTPFile.convertBuiltins)) }
            if case .text(let text)? = session.requests[index].body { session.requests[index].body = .text(HTTPFile.convertBuiltins(text)) }
        }
        guard !session.requests.isEmpty else { throw InterchangeError(.noRequests, at: path) }
    }

    mutating func read(_ line: String, number: Int) throws(InterchangeError) {
        let trimmed = line.trimmingWhitespace()
        if trimmed.hasPrefix("###") {
            try finish()
            let name = trimmed.dropFirst(3).trimmingWhitespace()
            pendingName = name.isEmpty ? nil : name
            inHandler = false
            return
        }
        if inHandler {
            if trimmed.hasSuffix("%}") { inHandler = false }
            return
        }
        switch stage {
        case .body:
            if trimmed.hasPrefix(">> ") || trimmed.hasPrefix(">>! ") {
                request?.download = trimmed.drop { $0 != " " }.trimmingWhitespace()
            } else if trimmed.hasPrefix("> ") || trimmed.hasPrefix("<> ") {
                warnings.append("\(path):\(number): skipped a response handler; use capture: and assert: in the session instead")
                inHandler = trimmed.hasPrefix("> {%") && !trimmed.hasSuffix("%}")
            } else {
                body.append((number, line))
            }
        case .headers:
            if trimmed.isEmpty {
                stage = .body
                return
            }
            if trimmed.hasPrefix("#") || trimmed.hasPrefix("//") { return }
            if trimmed.hasPrefix("?") || trimmed.hasPrefix("&"), request?.headers.isEmpty == true {
                request?.url += trimmed
                return
            }
            let line: HeaderLine
            do throws(HeaderLine.Failure) {
                line = try HeaderLine(parsing: trimmed)
            } catch {
                switch error {
                case .noSeparator: throw InterchangeError(.expectedHeader(found: trimmed), at: "\(path):\(number)")
                case .invalidName(let name): throw InterchangeError(.invalidHeaderName(name), at: "\(path):\(number)")
                }
            }
            request?.headers.append(HeaderSetting(name: line.name, value: line.value))
        case .before:
            try readBeforeRequest(trimmed, number: number)
        }
    }

    /// Blank lines, comments and directives (`# @name`, `# @timeout`), `@variables`, the request line.
    mutating func readBeforeRequest(_ trimmed: String, number: Int) throws(InterchangeError) {
        if trimmed.isEmpty { return }
        if trimmed.hasPrefix("#") || trimmed.hasPrefix("//") {
            let comment = trimmed.drop { $0 == "#" || $0 == "/" }.trimmingWhitespace()
            if comment.hasPrefix("@name ") || comment.hasPrefix("@name=") {
                pendingName = comment.dropFirst(5).trimmingScalars { $0 == " " || $0 == "=" }
            } else if comment.hasPrefix("@timeout ") {
                pendingTimeout = try seconds(comment.dropFirst(9), line: number)
            } else if comment == "@no-redirect" {
                pendingNoRedirect = true
            } else if comment.hasPrefix("@connection-timeout ") || comment == "@no-cookie-jar" {
                warnings.append("\(path):\(number): \(comment) is not kept; Tincan keeps cookies, and has one timeout that covers connecting")
            }
            return
        }
        if trimmed.hasPrefix("@") {
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw InterchangeError(.expectedVariable, at: "\(path):\(number)")
            }
            let name = trimmed[trimmed.index(after: trimmed.startIndex)..<equals].trimmingWhitespace()
            guard !name.isEmpty else { throw InterchangeError(.expectedVariableName, at: "\(path):\(number)") }
            session.variables[name] = .string(HTTPFile.convertBuiltins(trimmed[trimmed.index(after: equals)...].trimmingWhitespace()))
            return
        }
        var words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if words.count > 1, words.last!.uppercased().hasPrefix("HTTP/") { words.removeLast() }
        var saved: SavedRequest
        if words.count >= 2, HTTPFile.methods.contains(words[0].uppercased()) || HTTPMethod.isValid(words[0]) && words[0] == words[0].uppercased() {
            saved = SavedRequest(name: pendingName, method: words[0].uppercased(), url: HTTPFile.convertBuiltins(words[1...].joined(separator: " ")))
        } else if words.count == 1 {
            saved = SavedRequest(name: pendingName, method: "GET", url: HTTPFile.convertBuiltins(words[0]))
        } else {
            throw InterchangeError(.expectedRequestLine(found: trimmed), at: "\(path):\(number)")
        }
        saved.line = number
        saved.properties.timeoutInterval = pendingTimeout
        if pendingNoRedirect { saved.flow.followRedirects = false }
        pendingName = nil
        pendingTimeout = nil
        pendingNoRedirect = false
        request = saved
        stage = .headers
    }

    /// `# @timeout 5`, `5 s`, `500 ms`, `2 m`: seconds unless a unit says otherwise.
    func seconds(_ text: Substring, line: Int) throws(InterchangeError) -> Double {
        let compact = text.filter { $0 != " " }
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        var number = Substring(compact)
        var scale = 1.0
        if let unit = units.first(where: { compact.hasSuffix($0.0) }) {
            number = number.dropLast(unit.0.count)
            scale = unit.1
        }
        let invalid = InterchangeError(.invalidTimeout(String(text)), at: "\(path):\(line)")
        guard let value = Double(number) else { throw invalid }
        do {
            return try NumericRange.timeout.named("@timeout").check(value * scale, text: String(text))
        } catch {
            throw invalid
        }
    }

    // MARK: - The request's end

    mutating func finish() throws(InterchangeError) {
        guard var finished = request else { return }
        while body.last?.text.trimmingWhitespace().isEmpty == true { body.removeLast() }
        takeCredentials(&finished)
        if let contentType = finished.headers.last(where: { HTTPHeaders.same($0.name, "Content-Type") })?.value,
           contentType.lowercased().hasPrefix("multipart/form-data"), !body.isEmpty {
            try readForm(contentType, into: &finished)
        } else if body.count == 1, body[0].text.hasPrefix("< ") {
            finished.body = .file(String(body[0].text.dropFirst(2)).trimmingWhitespace())
        } else if !body.isEmpty {
            for line in body where line.text.hasPrefix("< ") {
                warnings.append("\(path):\(line.line): a '< file' line among other lines is kept as text; Tincan reads a body from a file only when it is the body's one line")
            }
            finished.body = .text(body.map(\.text).joined(separator: "\n"))
        }
        session.requests.append(finished)
        request = nil
        body = []
        stage = .before
    }

    /// `Authorization: Basic user password` and `Digest user password` (both clients' shorthand)
    /// become the request's credentials.
    func takeCredentials(_ request: inout SavedRequest) {
        guard let index = request.headers.lastIndex(where: { HTTPHeaders.same($0.name, "Authorization") }), let value = request.headers[index].value else { return }
        let words = value.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard words.count == 3, let scheme = SavedAuth.Scheme(rawValue: words[0].lowercased()) else { return }
        request.auth = SavedAuth(scheme: scheme, user: String(words[1]), password: String(words[2]))
        request.headers.remove(at: index)
    }

    /// A multipart body: text parts become parameters, `< path` parts with a file name file parts.
    mutating func readForm(_ contentType: String, into request: inout SavedRequest) throws(InterchangeError) {
        let start = body[0].line
        guard let boundary = HTTPHeaders.parameter("boundary", in: contentType) else {
            throw InterchangeError(.noBoundary, at: "\(path):\(start)")
        }
        var parts: [Part] = []
        var inHeaders = false
        for (number, text) in body {
            let trimmed = text.trimmingWhitespace()
            if trimmed == "--\(boundary)--" { break }
            if trimmed == "--\(boundary)" {
                parts.append(Part(line: number))
                inHeaders = true
            } else if parts.isEmpty {
                if !trimmed.isEmpty { throw InterchangeError(.expectedFirstBoundary(boundary), at: "\(path):\(number)") }
            } else if inHeaders {
                if trimmed.isEmpty {
                    inHeaders = false
                } else if let line = try? HeaderLine(parsing: trimmed) {
                    parts[parts.count - 1].headers.append((line.name, line.value))
                } else {
                    throw InterchangeError(.expectedPartHeader(found: trimmed), at: "\(path):\(number)")
                }
            } else {
                parts[parts.count - 1].lines.append(text)
            }
        }
        request.serializer = .multipart
        // Tincan's form writes its own Content-Type, with a boundary of its own.
        request.headers.removeAll { HTTPHeaders.same($0.name, "Content-Type") }
        var fields: OrderedDictionary<String, ParameterValue> = [:]
        for part in parts {
            try add(part, fields: &fields, request: &request)
        }
        if !fields.isEmpty { request.params = .dictionary(fields) }
    }

    mutating func add(_ part: Part, fields: inout OrderedDictionary<String, ParameterValue>, request: inout SavedRequest) throws(InterchangeError) {
        let place = "\(path):\(part.line)"
        let disposition = part.header("Content-Disposition") ?? ""
        guard let name = HTTPHeaders.parameter("name", in: disposition) else {
            // RFC 7578 names every part, but clients send a part without one as written; one such
            // part must not cost the file's other requests.
            warnings.append("\(place): request '\(request.displayName)': the part has no name (expected 'Content-Disposition: form-data; name=\"…\"'), so it is left out; a session's form fields and files are named")
            return
        }
        let fileName = HTTPHeaders.parameter("filename", in: disposition)
        let type = part.header("Content-Type")
        for header in part.headers where !["content-disposition", "content-type"].contains(header.name.lowercased()) {
            warnings.append("\(place): the part header \(header.name) is not kept; Tincan writes a part's name, file name and type only")
        }
        var lines = part.lines
        while lines.last?.trimmingWhitespace().isEmpty == true { lines.removeLast() }
        let file = lines.count == 1 && lines[0].hasPrefix("< ") ? String(lines[0].dropFirst(2)).trimmingWhitespace() : nil
        if let file, fileName != nil {
            if let fileName, fileName != (file as NSString).lastPathComponent {
                warnings.append("\(place): the part '\(name)' is sent with the file name \((file as NSString).lastPathComponent), not \(fileName); Tincan names a file part after its file")
            }
            request.files.append(SavedFile(field: name, path: file, type: type))
            return
        }
        var value = lines.joined(separator: "\n")
        if let file {
            // A file's text as a plain field: read now, as the client reads it when it sends, but
            // only from the .http file's folder (ImportedPaths).
            guard ImportedPaths.isInside(file, folder: directory) else {
                warnings.append("\(place): the part '\(name)' is the text of \(file), which is outside the .http file's folder, and an import reads no file there without your consent, so the field is left out; copy the file beside the .http file")
                return
            }
            let full = (directory as NSString).appendingPathComponent(file)
            guard let bytes = try? BoundedFile.readText(full, limit: CurlCommandReader.fileReadLimit), let text = String(validating: bytes, as: UTF8.self) else {
                warnings.append("\(place): request '\(request.displayName)': the part '\(name)' is the text of \(file), which cannot be read as text, so the field is left out; give the part a filename to send the file")
                return
            }
            value = text
            warnings.append("\(place): the part '\(name)' (no file name) is the text of \(file), read now and saved as the field's value; later changes to the file are not sent")
        } else if fileName != nil {
            warnings.append("\(place): the part '\(name)' is text sent as a file (\(fileName!)), which a session cannot say; it is imported as a plain field, without a file name")
        }
        if type != nil { warnings.append("\(place): the part '\(name)': a text field's Content-Type is not kept") }
        if !request.files.isEmpty {
            warnings.append("\(place): the field '\(name)' after a file part is sent before the files (Tincan's form puts fields first)")
        }
        try FormFields.insert(name, value, into: &fields, source: place)
    }
}
