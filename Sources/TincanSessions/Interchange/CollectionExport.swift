import Foundation
import OrderedCollections
import TincanCore

/// What the collection exports (Postman, Bruno) share: which requests can be exported, the
/// secrets they hide, and what a session says that the other tool cannot.
///
/// They write the session as it is saved (variables stay `{{name}}`, folders are its groups),
/// not requests as built: the other tool's users edit and send it themselves.
public struct CollectionExport: Sendable {
    /// What was written, and what of the session the format cannot say.
    public struct Exported: Sendable {
        /// The files written, by path relative to where the export goes (one file for Postman).
        public var files: [(path: String, text: String)]
        public var warnings: [String]
        /// The requests left out, each with why (a file placeholder not set).
        public var skipped: [String]
    }

    /// Whether secret values (tokens, passwords, keys, cookies written out) are kept; hidden as
    /// `••••••` otherwise. A `{{variable}}` is never a secret: it is kept.
    public var showsSecrets: Bool
    /// Variables given with `--var`, which set file placeholders.
    public var variables: [String: String]

    /// Creates the export's settings.
    public init(showsSecrets: Bool = false, variables: [String: String] = [:]) {
        self.showsSecrets = showsSecrets
        self.variables = variables
    }

    /// The requests that can be exported, and why each other cannot: a request that still
    /// holds a file placeholder (``ImportedPaths``) names a file nobody has chosen, so it is
    /// left out, named, as a replay leaves it.
    func exportable(_ session: Session) -> (requests: [SavedRequest], skipped: [String]) {
        var requests: [SavedRequest] = []
        var skipped: [String] = []
        for (index, request) in session.requests.enumerated() {
            let placeholders = Self.placeholders(in: request).filter { variables[$0] == nil && session.variables[$0] == nil && request.variables[$0] == nil }
            if let first = placeholders.first {
                skipped.append("request '#\(index + 1) \(request.displayName)': \(MissingVariableError(name: first, .fileNotChosen))")
            } else {
                requests.append(request)
            }
        }
        return (requests, skipped)
    }

    /// The file placeholders a request's paths hold.
    static func placeholders(in request: SavedRequest) -> [String] {
        var paths = request.files.map(\.path)
        if let upload = request.upload { paths.append(upload.file) }
        if case .file(let path)? = request.body { paths.append(path) }
        if let download = request.download { paths.append(download) }
        return paths.flatMap { Template.references(in: $0) }.filter { $0.hasPrefix(ImportedPaths.placeholderPrefix) }
    }

    /// `value`, hidden when `name` names a secret and it is not a reference to a variable.
    func secret(_ value: String, name: String, hidden: inout Bool) -> String {
        guard !showsSecrets, !value.isEmpty, Redaction.isSecret(name: name), !Template.mayHoldReferences(value) else { return value }
        hidden = true
        if HTTPHeaders.same(name, "Authorization"), let space = value.firstIndex(of: " ") { return String(value[..<space]) + " " + Redaction.mask }
        return Redaction.mask
    }

    /// A variable's value, hidden when its name names a secret.
    func secret(_ value: ParameterValue, name: String, hidden: inout Bool) -> ParameterValue {
        guard !showsSecrets, Redaction.isSecret(name: name), case .string(let text) = value else { return value }
        return .string(secret(text, name: name, hidden: &hidden))
    }

    /// The line saying secrets were hidden.
    static let hiddenWarning = "secret values (tokens, passwords, keys, cookies) are hidden as \(Redaction.mask); pass --show-secrets to keep them, or keep them in variables ({{name}}), which are written as they are"

    /// The URL a request is sent to, its enabled `query:` fields added as Tincan adds them.
    static func url(of request: SavedRequest, base: String?) -> String {
        var url = request.url
        if let base, !url.contains("://"), !url.hasPrefix("{{") {
            url = (base.hasSuffix("/") ? base : base + "/") + (url.hasPrefix("/") ? String(url.dropFirst()) : url)
        }
        let query = request.query.filter(\.isEnabled).map { queryPair(QueryStringPair(field: $0.name, value: $0.value)) }
        guard !query.isEmpty else { return url }
        let fragment = url.firstIndex(of: "#")
        let head = fragment.map { String(url[..<$0]) } ?? url
        let tail = fragment.map { String(url[$0...]) } ?? ""
        return head + (head.contains("?") ? "&" : "?") + query.joined(separator: "&") + tail
    }

    /// `text` with each `{{$builtin}}` reference that `replacement` gives another text for
    /// replaced, and everything else (other references, braces in a body) left byte for byte.
    static func replacingBuiltins(in text: String, _ replacement: (String) -> String?) -> String {
        guard text.contains("{{$") || text.contains("{{ $") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let name = rest[open.upperBound..<close.lowerBound].trimmingWhitespace()
            if name.hasPrefix("$"), !name.contains(where: { $0.isNewline || $0 == "{" }), let replaced = replacement(String(name)) {
                result += rest[..<open.lowerBound] + replaced
                rest = rest[close.upperBound...]
            } else {
                result += rest[..<open.upperBound]
                rest = rest[open.upperBound...]
            }
        }
        return result + rest
    }

    /// A query string's field as Tincan escapes it when it is sent, its `{{variable}}`
    /// references left as they are, for the tool to fill in.
    static func queryPair(_ pair: QueryStringPair) -> String {
        FormFields.escapedAroundReferences(pair)
    }

    /// Parameters a GET sends in its query, as Tincan flattens them, references kept.
    static func query(_ members: OrderedDictionary<String, ParameterValue>) -> String {
        QueryString.pairs(members).map(queryPair).joined(separator: "&")
    }

    /// The headers a request sends: the session's defaults it does not name itself, then its own.
    static func headers(of request: SavedRequest, defaults: [HeaderSetting]) -> [HeaderSetting] {
        defaults.filter { shared in !request.headers.contains { HTTPHeaders.same($0.name, shared.name) } } + request.headers
    }

    /// What of a request neither Postman nor Bruno can say, named.
    static func unsaid(_ request: SavedRequest, place: String, format: String) -> [String] {
        var lines: [String] = []
        if request.retryPolicy != nil { lines.append("\(place): retry-policy: is not carried over (\(format) has none)") }
        if request.httpVersion != nil { lines.append("\(place): http-version: is not carried over") }
        if request.download != nil { lines.append("\(place): download: is not carried over (\(format) shows the body)") }
        if !request.properties.changed.isEmpty { lines.append("\(place): properties: are not carried over") }
        if request.response != ResponseContract() { lines.append("\(place): response: (the validation contract) is not carried over") }
        if request.recorded != nil { lines.append("\(place): recorded: is not carried over") }
        if request.flow.retry != nil || request.flow.delay != nil || request.flow.repeatCount != nil || request.flow.retryInterval != nil {
            lines.append("\(place): retry:, delay: and repeat: are not carried over")
        }
        if request.upload?.rate != nil { lines.append("\(place): the upload's rate is not carried over") }
        if case .base64? = request.body { lines.append("\(place): the body is bytes (body-base64:), which \(format) cannot hold as text; it is not carried over") }
        for header in request.headers where header.value == nil {
            lines.append("\(place): the removal of the header \(header.name) is not carried over; \(format) sends its own defaults")
        }
        return lines
    }

    /// What of the session's defaults neither Postman nor Bruno can say, named.
    static func unsaid(_ session: Session, format: String) -> [String] {
        var lines: [String] = []
        let defaults = session.defaults
        if defaults.serializer != nil { lines.append("defaults: serializer: is written into each request's body, not as a default") }
        if !defaults.properties.changed.isEmpty || defaults.response != ResponseContract() || defaults.retryPolicy != nil || defaults.httpVersion != nil {
            lines.append("defaults: properties, response, retry-policy and http-version are not carried over (\(format) has none)")
        }
        if defaults.security != SecuritySettings() || defaults.proxy != nil || defaults.noProxy != nil || defaults.tls != ClientCertificateSettings() {
            lines.append("defaults: security, proxy and tls are not carried over; set them in \(format)'s settings")
        }
        if session.cookieFile != nil { lines.append("cookies: the cookie file is not carried over") }
        return lines
    }
}
