import Foundation
import TincanCore

/// Hides secrets (credentials, tokens, cookies, passwords) in what Tincan writes to history,
/// reports and logs, unless the user asks to keep them.
public enum Redaction {
    /// What a hidden value is replaced with.
    public static let mask = "••••••"

    /// Words that make a header, parameter or variable name a secret's name.
    static let secretWords = ["authorization", "token", "secret", "password", "passwd", "api-key", "apikey", "api_key", "cookie", "session", "credential", "private"]

    /// ``secretWords`` as bytes, searched for in a name's.
    private static let secretWordBytes = secretWords.map { Array($0.utf8) }

    /// Whether a name (header, query field, variable) names a secret.
    ///
    /// The words are searched for in the name's UTF-8 bytes (``ByteSearch``): Foundation's
    /// `contains` goes through CFString's search, which was 2% of a `tincan replay` of 1,000 requests.
    public static func isSecret(name: String) -> Bool {
        var lowered = name.lowercased()
        let found = lowered.withUTF8 { name in
            secretWordBytes.contains { ByteSearch.first($0, in: name, from: 0, ignoringCase: false) != nil }
        }
        return found || lowered == "key" || lowered.hasSuffix("-key") || lowered.hasSuffix("_key")
    }

    /// A header's value, hidden when its name names a secret. The scheme of an Authorization
    /// header stays (`Bearer ••••••`), since it is not secret and helps reading.
    public static func headerValue(name: String, value: String) -> String {
        guard isSecret(name: name) else { return value }
        if HTTPHeaders.same(name, "Authorization") || HTTPHeaders.same(name, "Proxy-Authorization"), let space = value.firstIndex(of: " ") {
            return String(value[..<space]) + " " + mask
        }
        return mask
    }

    /// A URL with its password and its secret query fields hidden, for display.
    public static func url(_ text: String) -> String {
        // The delimiters are ASCII, so they are found byte by byte (every replayed request's URL
        // comes through here).
        var result = text
        // scheme://user:password@host → scheme://user:••••••@host
        if let scheme = result.utf8.firstRange(of: "://".utf8) {
            let authorityEnd = result.utf8[scheme.upperBound...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? result.endIndex
            let authority = result.utf8[scheme.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: UInt8(ascii: "@")), let colon = authority[..<at].firstIndex(of: UInt8(ascii: ":")) {
                result.replaceSubrange(result.index(after: colon)..<at, with: mask)
            }
        }
        guard let question = result.utf8.firstIndex(of: UInt8(ascii: "?")) else { return result }
        let fragmentStart = result.utf8[question...].firstIndex(of: UInt8(ascii: "#")) ?? result.endIndex
        let query = result[result.index(after: question)..<fragmentStart]
        var hidden = false
        let fields = query.split(separator: "&", omittingEmptySubsequences: false).map { field -> String in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].utf8.contains(UInt8(ascii: "%")) ? String(parts[0]).removingPercentEncoding ?? String(parts[0]) : String(parts[0])
            guard isSecret(name: name), parts.count == 2 else { return String(field) }
            hidden = true
            return "\(parts[0])=\(mask)"
        }
        // A query without a secret is left as it is.
        guard hidden else { return result }
        result.replaceSubrange(result.index(after: question)..<fragmentStart, with: fields.joined(separator: "&"))
        return result
    }

    /// A value tree with the members whose names name secrets hidden.
    public static func value(_ value: ParameterValue) -> ParameterValue {
        switch value {
        case .dictionary(var members):
            for (key, member) in members {
                members[key] = isSecret(name: key) && !member.isCollection ? .string(mask) : Self.value(member)
            }
            return .dictionary(members)
        case .array(let items): return .array(items.map(Self.value))
        default: return value
        }
    }

    // MARK: - OAuth 2.0

    /// The fields of an OAuth 2.0 token or device request that are secret besides those
    /// ``isSecret(name:)`` finds by name (`client_secret`, `refresh_token`, `password`): the
    /// codes that a token is exchanged for.
    static let oauth2FormSecrets: Set<String> = ["code", "code_verifier", "device_code"]

    /// `auth:` with its secrets hidden: the password, and an OAuth 2.0 client secret and
    /// refresh token (a `{{…}}` reference is no secret and stays, so the entry still reads).
    public static func auth(_ auth: SavedAuth) -> SavedAuth {
        var auth = auth
        auth.password = mask
        if var oauth2 = auth.oauth2 {
            oauth2.clientSecret = oauth2.clientSecret.map { Template.mayHoldReferences($0) ? $0 : mask }
            oauth2.refreshToken = oauth2.refreshToken.map { Template.mayHoldReferences($0) ? $0 : mask }
            auth.oauth2 = oauth2
        }
        return auth
    }

    /// A token request's form body with its secrets hidden: the secret-named fields and the codes.
    public static func oauth2Form(_ body: String) -> String {
        form(body, alsoSecret: oauth2FormSecrets)
    }

    /// A URL-encoded form with the values of secret-named fields (and of `alsoSecret`) hidden.
    public static func form(_ body: String, alsoSecret: Set<String> = []) -> String {
        body.split(separator: "&", omittingEmptySubsequences: false).map { field in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let decoded = name.utf8.contains(UInt8(ascii: "%")) ? name.removingPercentEncoding ?? name : name
            guard parts.count == 2, isSecret(name: decoded) || alsoSecret.contains(name) else { return String(field) }
            return "\(name)=\(mask)"
        }.joined(separator: "&")
    }

    // MARK: - Requests as received

    /// One line of a request head as a server received it (`tincan serve --show`): the request
    /// line's target as ``url(_:)`` hides it, a field's value as ``headerValue(name:value:)``.
    public static func receivedHeadLine(_ line: String, isRequestLine: Bool) -> String {
        if isRequestLine {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count >= 2 else { return line }
            return ([String(parts[0]), url(String(parts[1]))] + parts.dropFirst(2).map(String.init)).joined(separator: " ")
        }
        // An HTTP/2 pseudo-header (`:path: /x`) starts with its own colon.
        guard let colon = line.dropFirst().firstIndex(of: ":") else { return line }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        let shown = name == ":path" ? url(String(value)) : headerValue(name: name, value: String(value))
        return shown == value ? line : "\(name): \(shown)"
    }

    /// A request body as received, as text: a URL-encoded form's secret fields hidden, and a
    /// JSON body's secret members (rewritten indented, only when one is hidden); any other
    /// body as it is.
    public static func receivedBody(_ text: String, contentType: String?) -> String {
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if type == "application/x-www-form-urlencoded" { return form(text) }
        guard type == "application/json" || type.hasSuffix("+json"), let tree = try? JSONParser.parse(text) else { return text }
        let hidden = value(tree)
        return hidden == tree ? text : JSONWriter.string(hidden, indent: 2)
    }

    /// A token or device request as lines (request line, headers, form), secrets hidden
    /// unless `showingSecrets`, for the Explain view and `send --explain`.
    public static func oauth2Request(_ request: HTTPRequest, showingSecrets: Bool = false) -> [String] {
        var lines = ["\(request.method) \(request.url.string)"]
        for field in request.headers.fields {
            lines.append("\(field.name): \(showingSecrets ? field.value : headerValue(name: field.name, value: field.value))")
        }
        if case .bytes(let bytes) = request.body {
            let form = String(decoding: bytes, as: UTF8.self)
            lines.append(showingSecrets ? form : oauth2Form(form))
        }
        return lines
    }
}
