import Foundation
import OrderedCollections
import TincanCore

/// One request sent from the TUI, as the history file keeps it: enough to reopen it in the
/// editor (the request as written, with its `{{variables}}` unexpanded) and to list it (the URL
/// sent, the status, the time taken).
public struct HistoryEntry: Sendable, Equatable {
    /// When it was sent.
    public var time: Date
    /// The session it was sent from, by name.
    public var session: String?
    /// The base URL it resolved against, as written.
    public var base: String?
    /// The request as written in the panes.
    public var request: SavedRequest
    /// The absolute URL sent.
    public var sentURL: String
    /// The status code, when a response arrived.
    public var status: Int?
    /// Seconds from start to finish.
    public var duration: Double?
    /// Why it failed, when it did not get a valid response.
    public var error: String?

    /// Creates an entry.
    public init(time: Date, session: String? = nil, base: String? = nil, request: SavedRequest, sentURL: String, status: Int? = nil, duration: Double? = nil, error: String? = nil) {
        self.time = time
        self.session = session
        self.base = base
        self.request = request
        self.sentURL = sentURL
        self.status = status
        self.duration = duration
        self.error = error
    }

    /// The entry with secrets hidden: secret headers (the scheme of an Authorization header
    /// stays), URL passwords and secret query fields, parameter members with secret names, the
    /// same members of a JSON or form body, and a saved password.
    public func redacted() -> HistoryEntry {
        var entry = self
        var request = entry.request
        request.url = Redaction.url(request.url)
        request.headers = request.headers.map { header in
            var header = header
            header.value = header.value.map { Redaction.headerValue(name: header.name, value: $0) }
            return header
        }
        request.query = request.query.map { field in
            var field = field
            if Redaction.isSecret(name: field.name) { field.value = Redaction.mask }
            return field
        }
        request.params = request.params.map(Redaction.value)
        if case .text(let text)? = request.body { request.body = .text(Self.redactedBody(text)) }
        request.auth = request.auth.map(Redaction.auth)
        entry.request = request
        entry.base = base.map(Redaction.url)
        entry.sentURL = Redaction.url(sentURL)
        return entry
    }

    /// The entry with each of `values` (a secret variable's, an environment variable's) hidden
    /// wherever it occurs: the URL sent, the request's own texts, the base and the error. The
    /// request as written keeps its `{{…}}` references, so reopening it sends the values again.
    public func hiding(_ values: [String]) -> HistoryEntry {
        guard !values.isEmpty else { return self }
        func hide(_ text: String) -> String {
            values.reduce(text) { text, value in text.contains(value) ? text.replacingOccurrences(of: value, with: Redaction.mask) : text }
        }
        var entry = self
        entry.sentURL = hide(sentURL)
        entry.base = base.map(hide)
        entry.error = error.map(hide)
        entry.request.url = hide(request.url)
        entry.request.headers = request.headers.map { header in
            var header = header
            header.value = header.value.map(hide)
            return header
        }
        entry.request.query = request.query.map { field in
            var field = field
            field.value = hide(field.value)
            return field
        }
        if case .text(let text)? = request.body { entry.request.body = .text(hide(text)) }
        return entry
    }

    /// A text body with secret members hidden when it is a JSON object or array, or a form.
    static func redactedBody(_ text: String) -> String {
        if let value = try? JSONParser.parse(text), value.isCollection {
            return JSONWriter.string(Redaction.value(value), indent: 2)
        }
        let fields = text.split(separator: "&", omittingEmptySubsequences: false)
        guard !text.contains(where: \.isWhitespace), fields.allSatisfy({ $0.contains("=") }) else { return text }
        return fields.map { field in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            return Redaction.isSecret(name: name) ? "\(parts[0])=\(Redaction.mask)" : String(field)
        }.joined(separator: "&")
    }

    // MARK: - JSON lines

    /// The entry as one line of JSON (no newline).
    public func jsonLine() -> String {
        var object: OrderedDictionary<String, ParameterValue> = [:]
        object["time"] = .double(time.timeIntervalSince1970)
        if let session { object["session"] = .string(session) }
        if let name = request.name { object["name"] = .string(name) }
        if let base { object["base"] = .string(base) }
        object["method"] = .string(request.method)
        object["url"] = .string(request.url)
        object["sent"] = .string(sentURL)
        if let serializer = request.serializer { object["serializer"] = .string(serializer.rawValue) }
        // What was sent: a header turned off was not.
        let sentHeaders = request.headers.filter(\.isEnabled)
        if !sentHeaders.isEmpty {
            object["headers"] = .array(sentHeaders.map { .array([.string($0.name), $0.value.map(ParameterValue.string) ?? .null]) })
        }
        let sentQuery = request.query.filter(\.isEnabled)
        if !sentQuery.isEmpty {
            object["query"] = .array(sentQuery.map { .array([.string($0.name), .string($0.value)]) })
        }
        if let params = request.params { object["params"] = params }
        if case .text(let text)? = request.body { object["body"] = .string(text) }
        if !request.files.isEmpty {
            object["files"] = .array(request.files.map { .array([.string($0.field), .string($0.path)]) })
        }
        if let status { object["status"] = .integer(Int64(status)) }
        if let duration { object["duration"] = .double((duration * 1_000_000).rounded() / 1_000_000) }
        if let error { object["error"] = .string(error) }
        return JSONWriter.string(.dictionary(object))
    }

    /// Reads a line that ``jsonLine()`` wrote.
    ///
    /// - Throws: ``HistoryLineError`` saying what is wrong with it.
    public init(jsonLine line: String) throws(HistoryLineError) {
        let value: ParameterValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw HistoryLineError.notJSON(error)
        }
        guard case .dictionary(let object) = value else { throw HistoryLineError.notAnObject }
        func string(_ key: String) throws(HistoryLineError) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw HistoryLineError.notAString(key: key)
            }
        }
        func number(_ key: String) -> Double? {
            switch object[key] {
            case .integer(let integer)?: Double(integer)
            case .double(let double)?: double
            default: nil
            }
        }
        func pairs(_ key: String) throws(HistoryLineError) -> [(String, String?)] {
            guard let member = object[key] else { return [] }
            guard case .array(let items) = member else { throw HistoryLineError.notPairs(key: key) }
            var result: [(String, String?)] = []
            for item in items {
                guard case .array(let pair) = item, pair.count == 2, case .string(let name) = pair[0] else {
                    throw HistoryLineError.notPairs(key: key)
                }
                switch pair[1] {
                case .string(let text): result.append((name, text))
                case .null: result.append((name, nil))
                default: throw HistoryLineError.notPairs(key: key)
                }
            }
            return result
        }
        guard let seconds = number("time") else { throw HistoryLineError.missingTime }
        // Through the status range: `Int(1e300)` from a damaged line would stop the TUI at start.
        var status: Int?
        if let code = number("status") {
            do {
                status = Int(try NumericRange.statusCode.check(code, text: ParameterValue.format(code)))
            } catch {
                throw HistoryLineError.invalidStatus(error)
            }
        }
        guard let url = try string("url"), let method = try string("method") else { throw HistoryLineError.missingMethodOrURL }
        var request = SavedRequest(name: try string("name"), method: method, url: url)
        if let serializer = try string("serializer") {
            guard let kind = SerializerKind(rawValue: serializer) else { throw HistoryLineError.unknownSerializer(serializer) }
            request.serializer = kind
        }
        request.headers = try pairs("headers").map { HeaderSetting(name: $0.0, value: $0.1) }
        request.query = try pairs("query").map { QuerySetting(name: $0.0, value: $0.1 ?? "") }
        request.params = object["params"]
        if let body = try string("body") { request.body = .text(body) }
        request.files = try pairs("files").map { SavedFile(field: $0.0, path: $0.1 ?? "") }
        self.init(time: Date(timeIntervalSince1970: seconds), session: try string("session"), base: try string("base"), request: request,
                  sentURL: try string("sent") ?? url, status: status, duration: number("duration"), error: try string("error"))
    }
}

/// Why a line of the history file was not read.
public enum HistoryLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line is not JSON.
    case notJSON(JSONParseError)
    /// The line is JSON but not an object.
    case notAnObject
    /// A member that must be text is not.
    case notAString(key: String)
    /// A member that must be `[name, value]` pairs is not.
    case notPairs(key: String)
    /// `time` is missing or not a number.
    case missingTime
    /// `status` is not a status code.
    case invalidStatus(NumericRangeError)
    /// `method` or `url` is missing.
    case missingMethodOrURL
    /// `serializer` names no serializer.
    case unknownSerializer(String)

    public var description: String {
        switch self {
        case .notJSON(let error): "not JSON: \(error)"
        case .notAnObject: "expected a JSON object"
        case .notAString(let key): "'\(key)' must be a string"
        case .notPairs(let key): "'\(key)' must be a list of [name, value] pairs"
        case .missingTime: "'time' (seconds since 1970) is missing"
        case .invalidStatus(let error): "\(error)"
        case .missingMethodOrURL: "'method' and 'url' are required"
        case .unknownSerializer(let name): "'serializer' is '\(name)', expected one of \(SerializerKind.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }
}
