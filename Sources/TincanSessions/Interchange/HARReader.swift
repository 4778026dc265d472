import Foundation
import OrderedCollections
import TincanCore

/// Reads a HAR log's entries into a session (``HAR/parse(_:path:)``), noting what it leaves out.
struct HARReader {
    /// The file, for warnings.
    let path: String
    var session = Session(name: "Imported from HAR")
    var warnings: [String] = []
    /// Request headers left out (pseudo-headers, computed ones), each named once, as first met.
    var droppedHeaders = OrderedSet<String>()
    /// Browser-private fields (`_initiator`, `_webSocketMessages`…), each named once.
    var privateFields = OrderedSet<String>()
    /// Standard fields a session has no place for (`timings`, `cache`…), each named once.
    var unkeptFields = OrderedSet<String>()

    /// Fields of an entry that a request and its recording have no place for.
    static let unkeptEntryFields = ["pageref", "startedDateTime", "time", "cache", "timings", "serverIPAddress", "connection"]

    init(path: String) {
        self.path = path
    }

    mutating func read(_ root: HARNode) throws(HARShapeError) {
        let expectedLog = "a HAR log: an object with a log key"
        guard try root.object(expectedLog)["log"] != nil else { throw HARShapeError(path: root.path, expected: expectedLog) }
        let log = try root.required("log", expectedLog)
        _ = try log.object("a HAR log object (version, creator, entries)")
        if let version = try log.string("version"), !["1.1", "1.2"].contains(version) {
            warnings.append("\(path): log.version is \(version); it is read as HAR \(HAR.version)")
        }
        if let creator = try log.member("creator"), let name = try creator.string("name") { session.name = "Imported from \(name)" }
        let pages = try log.array("pages")
        if !pages.isEmpty { warnings.append("\(path): the log's \(pages.count) page\(pages.count == 1 ? "" : "s") (titles and load timings) are not kept; a session holds requests") }
        guard try log.member("entries") != nil else { throw HARShapeError(path: log.path, expected: "an object with entries (an array of requests)") }
        var imported: [(request: SavedRequest, url: URLReference)] = []
        for (offset, entry) in try log.array("entries").enumerated() {
            if let request = try readEntry(entry, number: offset + 1) { imported.append(request) }
        }
        guard !imported.isEmpty else { throw HARShapeError(path: log.path.appending(.key("entries")), expected: "at least one HTTP request that Tincan can send") }
        splitBase(imported)
        if !droppedHeaders.isEmpty {
            warnings.append("\(path): request headers not imported (HTTP/2 pseudo-headers, and headers the browser or the connection computes; Tincan writes its own): \(droppedHeaders.joined(separator: ", "))")
        }
        if !unkeptFields.isEmpty {
            warnings.append("\(path): entry fields not kept (a session holds requests and their recorded responses): \(unkeptFields.joined(separator: ", "))")
        }
        if !privateFields.isEmpty {
            warnings.append("\(path): the browser's private fields are not carried over: \(privateFields.joined(separator: ", "))")
        }
    }

    /// One entry as a request, or nil (with a warning) when it is not one Tincan can send.
    mutating func readEntry(_ entry: HARNode, number: Int) throws(HARShapeError) -> (request: SavedRequest, url: URLReference)? {
        let members = try entry.object("an entry: an object with request and response")
        for key in members.keys where key.hasPrefix("_") { privateFields.append(key) }
        for key in Self.unkeptEntryFields where members[key] != nil && members[key] != .null { unkeptFields.append(key) }
        let request = try entry.required("request", "the request")
        let method = try request.requiredString("method")
        guard HTTPMethod.isValid(method) else {
            throw HARShapeError(path: request.path.appending(.key("method")), expected: "a method such as GET, found '\(method)'")
        }
        let text = try request.requiredString("url")
        let place = "\(path): entry \(number) (\(method) \(text))"
        var url = URLReference(parsing: text)
        let scheme = url.scheme?.lowercased() ?? ""
        if scheme == "ws" || scheme == "wss" || members["_webSocketMessages"] != nil || members["_resourceType"] == .string("websocket") {
            let messages = try entry.array("_webSocketMessages").count
            warnings.append("\(place): a WebSocket\(messages > 0 ? " with \(messages) message\(messages == 1 ? "" : "s")" : ""), which Tincan cannot replay; left out")
            return nil
        }
        guard scheme == "http" || scheme == "https", url.authority?.isEmpty == false else {
            warnings.append("\(place): not an http or https URL, so there is nothing to send; left out")
            return nil
        }
        url.scheme = scheme
        if url.fragment != nil {
            warnings.append("\(place): the fragment #\(url.fragment ?? "") is not sent over HTTP; left out")
            url.fragment = nil
        }
        var saved = SavedRequest(method: HTTPMethod.normalize(method), url: "")
        if let comment = try entry.string("comment"), !comment.isEmpty { saved.name = comment }
        for key in try request.object().keys where key.hasPrefix("_") { privateFields.append(key) }
        try readHeaders(request, into: &saved, place: place)
        readQuery(&url, into: &saved)
        if let postData = try request.member("postData") { try readBody(postData, into: &saved, place: place) }
        if let response = try entry.member("response") { saved.recorded = try readResponse(response, place: place) }
        return (saved, url)
    }

    // MARK: - Request

    /// Headers as sent, less the computed ones; the `cookies` list when no Cookie header says it.
    mutating func readHeaders(_ request: HARNode, into saved: inout SavedRequest, place: String) throws(HARShapeError) {
        for (name, value) in try request.pairs("headers") {
            if name.hasPrefix(":") || HAR.computedRequestHeaders.contains(name.lowercased()) {
                droppedHeaders.append(name)
            } else if !HTTPHeaders.isValidName(name) || !HTTPHeaders.isValidValue(value) {
                warnings.append("\(place): the header '\(name)' is not a valid header line; left out")
            } else {
                if value.contains(Redaction.mask) {
                    warnings.append("\(place): the header '\(name)' holds a hidden value (\(Redaction.mask)), as a HAR saved without its secrets does; set the real value before sending")
                }
                saved.headers.append(HeaderSetting(name: name, value: HAR.literal(value)))
            }
        }
        let cookies = try request.pairs("cookies")
        if !cookies.isEmpty, !saved.headers.contains(where: { HTTPHeaders.same($0.name, "Cookie") }) {
            saved.headers.append(HeaderSetting(name: "Cookie", value: HAR.literal(cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; "))))
        }
    }

    /// The URL's query as `query:` fields when each field is written as Tincan writes it, so the
    /// request goes out as recorded; otherwise the query stays in the URL as it is.
    func readQuery(_ url: inout URLReference, into saved: inout SavedRequest) {
        guard let query = url.query, !query.isEmpty else { return }
        var fields: [QuerySetting] = []
        for field in query.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = field.firstIndex(of: "="),
                  let name = field[..<equals].removingPercentEncoding, let value = field[field.index(after: equals)...].removingPercentEncoding,
                  QueryStringPair(field: name, value: value).escaped == field else { return }
            fields.append(QuerySetting(name: HAR.literal(name), value: HAR.literal(value)))
        }
        saved.query = fields
        url.query = nil
    }

    /// `postData`: form fields as form parameters, JSON as the JSON serializer's parameters,
    /// multipart fields and files as a multipart form, anything else as the body text.
    mutating func readBody(_ postData: HARNode, into saved: inout SavedRequest, place: String) throws(HARShapeError) {
        let mimeType = try postData.string("mimeType") ?? ""
        let essence = MIMEType.essence(of: mimeType) ?? ""
        let text = try postData.string("text") ?? ""
        let params = try postData.array("params")
        // GET, HEAD and DELETE parameters go to the query, so their bodies stay as written.
        let bodyParameters = !RequestSettings.defaultMethodsEncodingParametersInURI.contains(saved.method)
        if essence == "multipart/form-data", !params.isEmpty, bodyParameters {
            try readForm(params, into: &saved, place: place)
            return
        }
        // The text as sent when the HAR has it (each field `name=value`, or it is kept as text);
        // else the fields, decoded, as `params` lists them.
        let formPairs = text.isEmpty ? try postData.pairs("params")
            : text.split(separator: "&").allSatisfy { $0.contains("=") } ? HAR.formPairs(text, plusIsSpace: true) : nil
        if bodyParameters, essence == "application/x-www-form-urlencoded", let fields = formFields(formPairs) {
            saved.serializer = .form
            saved.params = .dictionary(fields)
            removeHeader("Content-Type", from: &saved)
            return
        }
        if bodyParameters, HAR.isJSON(essence), let value = try? JSONParser.parse(text), value.isCollection {
            saved.serializer = .json
            saved.params = HAR.mapStrings(value, HAR.literal)
            if essence == "application/json" { removeHeader("Content-Type", from: &saved) }
            return
        }
        guard !text.isEmpty else {
            if !params.isEmpty { warnings.append("\(place): a \(essence) body of \(params.count) fields that cannot be sent as parameters; left out") }
            return
        }
        saved.body = .text(HAR.literal(text))
        if !mimeType.isEmpty, !saved.headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") }) {
            saved.headers.append(HeaderSetting(name: "Content-Type", value: mimeType))
        }
    }

    /// Decoded form fields as parameters, or nil when they are not one form Tincan can send
    /// again (a name given twice, say, or text that is not percent-encoded).
    func formFields(_ pairs: [(name: String, value: String)]?) -> OrderedDictionary<String, ParameterValue>? {
        guard let pairs else { return nil }
        var fields: OrderedDictionary<String, ParameterValue> = [:]
        for (name, value) in pairs {
            guard (try? FormFields.insert(HAR.literal(name), HAR.literal(value), into: &fields, source: path)) != nil else { return nil }
        }
        return fields.isEmpty ? nil : fields
    }

    /// Multipart `params`: text fields as parameters, files as file parts named after their file.
    mutating func readForm(_ params: [HARNode], into saved: inout SavedRequest, place: String) throws(HARShapeError) {
        var fields: OrderedDictionary<String, ParameterValue> = [:]
        for param in params {
            let name = try param.requiredString("name")
            if let fileName = try param.string("fileName") {
                saved.files.append(SavedFile(field: name, path: fileName, type: try param.string("contentType")))
                warnings.append("\(place): the file part '\(name)' is read from \(fileName) beside the session file; the HAR holds the file's name, not the file")
                continue
            }
            let value = try param.string("value") ?? ""
            do {
                try FormFields.insert(HAR.literal(name), HAR.literal(value), into: &fields, source: place)
            } catch {
                warnings.append("\(error); the field is left out")
            }
        }
        saved.serializer = .multipart
        removeHeader("Content-Type", from: &saved)
        if !fields.isEmpty { saved.params = .dictionary(fields) }
    }

    func removeHeader(_ name: String, from saved: inout SavedRequest) {
        saved.headers.removeAll { HTTPHeaders.same($0.name, name) }
    }

    // MARK: - Response

    /// The response as `recorded:`, or nil (with a warning) when a replay could not compare it.
    mutating func readResponse(_ response: HARNode, place: String) throws(HARShapeError) -> RecordedResponse? {
        for key in try response.object().keys where key.hasPrefix("_") { privateFields.append(key) }
        let status = try response.integer("status", in: 0...999) ?? 0
        guard status != 0 else {
            warnings.append("\(place): no response (status 0: blocked, cancelled or failed), so nothing is recorded")
            return nil
        }
        if (300...399).contains(status), let location = try response.string("redirectURL"), !location.isEmpty {
            warnings.append("\(place): the \(status) redirect to \(location) is not recorded; Tincan follows redirects, so a replay sees the response after them")
            return nil
        }
        var recorded = RecordedResponse(status: status)
        // The HAR's body is decoded, so its Content-Encoding no longer says how it is held.
        recorded.headers = try response.pairs("headers").compactMap { field -> HeaderSetting? in
            let lowered = field.name.lowercased()
            guard !field.name.hasPrefix(":"), !Replayer.volatileHeaders.contains(lowered), lowered != "content-encoding" else { return nil }
            return HeaderSetting(name: field.name, value: field.value)
        }
        guard let content = try response.member("content") else { return recorded }
        for key in try content.object().keys where key.hasPrefix("_") { privateFields.append(key) }
        let size = try content.integer("size", in: -1...Int.max) ?? 0
        guard let text = try content.string("text") else {
            if size > 0 {
                warnings.append("\(place): the response body (\(size) bytes) is not in the HAR, so the response is not recorded; save the HAR with content")
                return nil
            }
            return recorded
        }
        var bytes = Array(text.utf8)
        if let encoding = try content.string("encoding") {
            guard encoding == "base64", let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw HARShapeError(path: content.path.appending(.key(encoding == "base64" ? "text" : "encoding")),
                                    expected: encoding == "base64" ? "base64 text" : "the encoding base64, found '\(encoding)'")
            }
            bytes = Array(data)
        }
        if !bytes.isEmpty {
            if let text = String(validating: bytes, as: UTF8.self) {
                recorded.body = text
            } else {
                recorded.bodyBase64 = bytes
            }
        }
        return recorded
    }

    // MARK: - Base

    /// When every request goes to one origin it becomes the session's base and each URL its path.
    mutating func splitBase(_ imported: [(request: SavedRequest, url: URLReference)]) {
        let origins = Set(imported.map { "\($0.url.scheme ?? "")://\($0.url.authority ?? "")" })
        let shared = origins.count == 1 ? origins.first : nil
        if let shared { session.base = HAR.literal(shared) }
        session.requests = imported.map { item in
            var request = item.request
            var url = item.url
            if shared != nil {
                url.scheme = nil
                url.authority = nil
                if url.path.isEmpty { url.path = "/" }
            }
            request.url = HAR.literal(url.string)
            return request
        }
    }
}
