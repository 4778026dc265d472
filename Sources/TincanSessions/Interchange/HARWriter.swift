import Foundation
import OrderedCollections
import TincanCore

extension HAR {
    /// One exchange to write as a HAR entry: a request, and what it got when it was sent.
    public struct Exchange: Sendable {
        /// The request's name, written as the entry's `comment`.
        public var name: String?
        /// The request as built (or, once sent, the last one sent).
        public var request: HTTPRequest
        /// The finished task; nil for a request that was not sent (an empty response is written).
        public var result: TaskResult?
        /// When the request started.
        public var started: Date

        /// Creates an exchange.
        public init(name: String?, request: HTTPRequest, result: TaskResult? = nil, started: Date = Date()) {
            self.name = name
            self.request = request
            self.result = result
            self.started = started
        }
    }

    /// Exchanges as a HAR 1.2 log, with creator `tincan`.
    ///
    /// Secrets (credentials and tokens in headers, URLs, query and form fields, JSON members
    /// whose names name a secret, and cookies) are hidden unless `redactingSecrets` is false.
    /// Timings: `send` runs from the start to the request head written (connecting included,
    /// since the core does not time the connection apart), `wait` to the response head, `receive`
    /// to the end; `blocked`, `dns`, `connect` and `ssl` are -1 (unknown).
    public static func export(_ exchanges: [Exchange], redactingSecrets: Bool = true) -> Exported {
        var writer = HARWriter(redacts: redactingSecrets)
        let entries = exchanges.map { writer.entry($0) }
        let log: OrderedDictionary<String, ParameterValue> = [
            "version": .string(version),
            "creator": .dictionary(["name": "tincan", "version": .string(Tincan.version)]),
            "entries": .array(entries),
        ]
        return Exported(text: JSONWriter.string(.dictionary(["log": .dictionary(log)]), indent: 2) + "\n", warnings: writer.warnings)
    }
}

/// Writes exchanges as HAR entries (``HAR/export(_:redactingSecrets:)``).
struct HARWriter {
    let redacts: Bool
    var warnings: [String] = []
    let dates = ISO8601DateFormatter()

    init(redacts: Bool) {
        self.redacts = redacts
        dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    }

    mutating func entry(_ exchange: HAR.Exchange) -> ParameterValue {
        let label = "request '\(exchange.name ?? "\(exchange.request.method) \(exchange.request.url.string)")'"
        var entry: OrderedDictionary<String, ParameterValue> = ["startedDateTime": .string(dates.string(from: exchange.started))]
        let timings = Self.timings(exchange.result?.metrics)
        entry["time"] = timings.time
        // The request went in the version the response came back in; unsent, HTTP/1.1 is assumed.
        entry["request"] = request(exchange.request, version: exchange.result?.response?.version.description ?? "HTTP/1.1", label: label)
        entry["response"] = exchange.result.flatMap { result in result.response.map { response($0, result: result) } } ?? Self.emptyResponse
        entry["cache"] = .dictionary([:])
        entry["timings"] = timings.phases
        var comments: [String] = exchange.name.map { [$0] } ?? []
        if let result = exchange.result {
            if !result.redirects.isEmpty { comments.append("after \(result.redirects.count) redirect\(result.redirects.count == 1 ? "" : "s") from \(text(url: result.redirects[0].from.string))") }
            if let error = result.transportError { comments.append("failed: \(error)") }
        }
        if !comments.isEmpty { entry["comment"] = .string(comments.joined(separator: "; ")) }
        return .dictionary(entry)
    }

    // MARK: - Request

    mutating func request(_ request: HTTPRequest, version: String, label: String) -> ParameterValue {
        var object: OrderedDictionary<String, ParameterValue> = [
            "method": .string(request.method),
            "url": .string(text(url: request.url.string)),
            "httpVersion": .string(version),
            "cookies": cookies(request.headers.fields.filter { HTTPHeaders.same($0.name, "Cookie") }.flatMap { Self.cookiePairs($0.value) }),
            "headers": headers(request.headers),
            "queryString": pairs(HAR.formPairs(request.url.query ?? "", plusIsSpace: false) ?? []),
        ]
        let body = postData(request, label: label)
        if let postData = body.postData { object["postData"] = postData }
        object["headersSize"] = -1
        object["bodySize"] = .integer(body.size)
        return .dictionary(object)
    }

    /// The body as `postData` (nil for none) and its size in bytes (-1 when unknown).
    mutating func postData(_ request: HTTPRequest, label: String) -> (postData: ParameterValue?, size: Int64) {
        let contentType = request.headers["Content-Type"] ?? "application/octet-stream"
        var bytes: [UInt8]
        switch request.body {
        case .none: return (nil, 0)
        case .multipart(let form):
            return (.dictionary(["mimeType": .string(form.contentType), "params": .array(form.parts.map { formParam($0) })]), form.contentLength)
        case .bytes(let data): bytes = data
        case .file(let path, let length):
            guard length <= Int64(CurlCommandReader.fileReadLimit), let data = try? request.body.collect() else {
                warnings.append("\(label): the body is the file \(path) (\(length) bytes), which is not written into the HAR")
                return (.dictionary(["mimeType": .string(contentType)]), length)
            }
            bytes = data
        }
        if bytes.isEmpty { return (nil, 0) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            warnings.append("\(label): the body (\(bytes.count) bytes) is not text, which a HAR's postData cannot hold; it is left out")
            return (.dictionary(["mimeType": .string(contentType)]), Int64(bytes.count))
        }
        var postData: OrderedDictionary<String, ParameterValue> = ["mimeType": .string(contentType)]
        if MIMEType.essence(of: contentType) == "application/x-www-form-urlencoded" {
            postData["params"] = pairs(HAR.formPairs(text, plusIsSpace: true) ?? [])
            postData["text"] = .string(redacts ? String(Redaction.url("?" + text).dropFirst()) : text)
        } else {
            postData["text"] = .string(body(text, mimeType: contentType))
        }
        return (.dictionary(postData), Int64(bytes.count))
    }

    /// A multipart part as a `params` item: its name, and its file name and type or its text.
    func formParam(_ part: MultipartFormData.Part) -> ParameterValue {
        let disposition = part.headers["Content-Disposition"] ?? ""
        let name = HTTPHeaders.parameter("name", in: disposition) ?? ""
        var param: OrderedDictionary<String, ParameterValue> = ["name": .string(name)]
        if let fileName = HTTPHeaders.parameter("filename", in: disposition) {
            param["fileName"] = .string(fileName)
            param["contentType"] = .string(part.headers["Content-Type"] ?? "application/octet-stream")
        } else if case .bytes(let bytes) = part.content {
            let value = String(decoding: bytes, as: UTF8.self)
            param["value"] = .string(redacts && Redaction.isSecret(name: name) ? Redaction.mask : value)
        }
        return .dictionary(param)
    }

    // MARK: - Response

    func response(_ response: HTTPResponse, result: TaskResult) -> ParameterValue {
        let mimeType = response.headers["Content-Type"] ?? "x-unknown"
        var content: OrderedDictionary<String, ParameterValue> = ["size": .integer(Int64(result.data.count)), "mimeType": .string(mimeType)]
        if let download = result.download {
            content["comment"] = .string("the body was saved to \(download.path)")
        } else if !result.data.isEmpty {
            if let text = String(validating: result.data, as: UTF8.self) {
                content["text"] = .string(body(text, mimeType: mimeType))
            } else {
                content["text"] = .string(Data(result.data).base64EncodedString())
                content["encoding"] = "base64"
            }
        }
        let setCookies = response.headers.fields.filter { HTTPHeaders.same($0.name, "Set-Cookie") }.compactMap { CookieJar.nameAndValue(ofSetCookie: $0.value) }
        return .dictionary([
            "status": .integer(Int64(response.statusCode)),
            "statusText": .string(HTTPResponse.reasonPhrase(forStatusCode: response.statusCode)),
            "httpVersion": .string(response.version.description),
            "cookies": cookies(setCookies),
            "headers": headers(response.headers),
            "content": .dictionary(content),
            "redirectURL": .string(response.headers["Location"].map { text(url: $0) } ?? ""),
            "headersSize": -1,
            // The body as it came over the wire is only known when it was not decoded.
            "bodySize": .integer(response.headers["Content-Encoding"] == nil && result.download == nil ? Int64(result.data.count) : -1),
        ])
    }

    /// What HAR requires where no response arrived: status 0 and empty fields, as browsers write
    /// for a request that failed.
    static let emptyResponse: ParameterValue = .dictionary([
        "status": 0, "statusText": "", "httpVersion": "", "cookies": [], "headers": [],
        "content": .dictionary(["size": 0, "mimeType": "x-unknown"]), "redirectURL": "", "headersSize": -1, "bodySize": -1,
    ])

    /// The entry's `time` and `timings`, in milliseconds.
    static func timings(_ metrics: TaskMetrics?) -> (time: ParameterValue, phases: ParameterValue) {
        let milliseconds = { (duration: Duration) in duration.inSeconds * 1000 }
        let total = metrics.map { milliseconds($0.total) } ?? 0
        let sent = min(metrics?.connect.map(milliseconds) ?? 0, total)
        let head = min(max(metrics?.firstByte.map(milliseconds) ?? total, sent), total)
        let phases: OrderedDictionary<String, ParameterValue> = [
            "blocked": -1, "dns": -1, "connect": -1, "send": .double(sent), "wait": .double(head - sent), "receive": .double(total - head), "ssl": -1,
        ]
        return (.double(total), .dictionary(phases))
    }

    // MARK: - Secrets

    func text(url: String) -> String {
        redacts ? Redaction.url(url) : url
    }

    /// A body's text, with the members of a JSON body whose names name secrets hidden, and the
    /// passwords and secret query fields of the URLs in it (an echo of the request's URL).
    func body(_ text: String, mimeType: String) -> String {
        guard redacts, HAR.isJSON(mimeType), let value = try? JSONParser.parse(text) else { return text }
        let hidden = HAR.mapStrings(Redaction.value(value)) { $0.contains("://") ? Redaction.url($0) : $0 }
        return hidden == value ? text : JSONWriter.string(hidden)
    }

    func headers(_ headers: HTTPHeaders) -> ParameterValue {
        .array(headers.fields.map { field in
            Self.pair(field.name, redacts ? Redaction.headerValue(name: field.name, value: field.value) : field.value)
        })
    }

    /// Cookies, their values hidden: a cookie is a credential whatever its name.
    func cookies(_ pairs: [(name: String, value: String)]) -> ParameterValue {
        .array(pairs.map { Self.pair($0.name, redacts ? Redaction.mask : $0.value) })
    }

    /// Query or form fields, those whose names name secrets hidden.
    func pairs(_ pairs: [(name: String, value: String)]) -> ParameterValue {
        .array(pairs.map { Self.pair($0.name, redacts && Redaction.isSecret(name: $0.name) ? Redaction.mask : $0.value) })
    }

    static func pair(_ name: String, _ value: String) -> ParameterValue {
        .dictionary(["name": .string(name), "value": .string(value)])
    }

    /// The pairs of a Cookie header: `a=1; b=2`.
    static func cookiePairs(_ header: String) -> [(name: String, value: String)] {
        header.split(separator: ";").compactMap { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingWhitespace()
            return name.isEmpty ? nil : (name, parts.count == 2 ? String(parts[1]) : "")
        }
    }
}
