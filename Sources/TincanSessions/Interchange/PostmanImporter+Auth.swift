import OrderedCollections
import TincanCore

/// Postman's auth, variables and scripts.
extension PostmanImporter {
    /// An item's own auth, or nil when it inherits its parent's (no auth, or `inherit`).
    static func inherited(_ auth: ImportNode?) -> ImportNode? {
        guard let auth, let type = auth.member("type")?.nonNullText, type != "inherit" else { return nil }
        return auth
    }

    /// One setting of an auth type: `[{key: token, value: …}]` in v2.1, `{token: …}` in v2.0.
    func setting(_ auth: ImportNode, _ type: String, _ key: String) -> String? {
        guard let settings = auth.member(type) else { return nil }
        if let list = settings.sequence {
            return list.last { $0.member("key")?.text == key }?.member("value")?.parameterValue.importedText
        }
        return settings.member(key)?.parameterValue.importedText
    }

    /// Basic and Digest as the request's credentials, a bearer token and an API key as a
    /// header (or query field); any other type is reported.
    mutating func apply(_ auth: ImportNode?, to request: inout SavedRequest, place: String) {
        guard let auth, let type = auth.member("type")?.nonNullText else { return }
        func value(_ key: String) -> String? {
            setting(auth, type, key).map { PostmanImporter.convert($0) }
        }
        // Postman's runtime takes a header of the auth's name out of the request before it adds
        // its own: the auth's wins.
        func setHeader(_ name: String, _ value: String) {
            request.headers.removeAll { HTTPHeaders.same($0.name, name) }
            request.headers.append(HeaderSetting(name: name, value: value))
        }
        switch type {
        case "noauth": break
        case "basic", "digest":
            request.headers.removeAll { HTTPHeaders.same($0.name, "Authorization") }
            request.auth = SavedAuth(scheme: type == "digest" ? .digest : .basic, user: value("username") ?? "", password: value("password") ?? "")
        case "bearer":
            setHeader("Authorization", "Bearer \(value("token") ?? "")")
        case "oauth2":
            let (imported, lines) = CollectionOAuth2.read(CollectionOAuth2.postman, place: place) { value($0) }
            notCarried += lines
            if let imported {
                request.headers.removeAll { HTTPHeaders.same($0.name, "Authorization") }
                request.auth = imported
            }
        case "apikey":
            let key = value("key") ?? "X-API-Key"
            let secret = value("value") ?? ""
            if value("in") == "query" {
                request.query.append(QuerySetting(name: key, value: secret))
            } else {
                setHeader(key, secret)
            }
        default:
            notCarried.append(NotCarried.auth(place, type))
        }
    }

    /// Collection variables; a disabled one is reported.
    mutating func addVariables(_ node: ImportNode?, place: String) throws {
        guard let node, node.nonNullText != nil || node.sequence != nil else { return }
        for variable in try document.list(node, "a list of variables, each with key: and value:") {
            guard let key = (variable.member("key") ?? variable.member("id"))?.nonNullText, !key.isEmpty else { continue }
            let value = Self.variableValue(variable)
            if variable.member("disabled")?.isTrue ?? false {
                notCarried.append("\(place): the disabled variable \(key) is not carried over")
            } else if let line = NotCarried.add(key, value, to: &variables, place: place) {
                notCarried.append(line)
            }
        }
    }

    /// A variable's value: text as it is, a number or a boolean typed as Postman types it
    /// (`"type": "number"`), nothing as empty text.
    static func variableValue(_ variable: ImportNode) -> ParameterValue {
        switch variable.member("value")?.parameterValue ?? .null {
        case .null: .string("")
        case let value: value
        }
    }

    /// A folder's variables, for the requests under it.
    mutating func folderScope(_ node: ImportNode?, place: String) throws -> OrderedDictionary<String, ParameterValue> {
        var scope: OrderedDictionary<String, ParameterValue> = [:]
        guard let node, node.nonNullText != nil || node.sequence != nil else { return scope }
        for variable in try document.list(node, "a list of variables, each with key: and value:") {
            guard let key = (variable.member("key") ?? variable.member("id"))?.nonNullText, !key.isEmpty else { continue }
            if variable.member("disabled")?.isTrue ?? false {
                notCarried.append("\(place): the disabled variable \(key) is not carried over")
            } else {
                scope[key] = Self.variableValue(variable)
            }
        }
        return scope
    }

    /// Pre-request and test scripts, which Tincan cannot run: each reported.
    mutating func notCarry(events: ImportNode?, place: String) {
        for event in events?.sequence ?? [] {
            let exec = event.member("script")?.member("exec")
            let lines = exec?.sequence?.compactMap(\.text) ?? exec?.nonNullText.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
            guard lines.contains(where: { !$0.trimmingWhitespace().isEmpty }), !(event.member("disabled")?.isTrue ?? false) else { continue }
            let listen = event.member("listen")?.nonNullText ?? ""
            let kind = listen == "prerequest" ? "pre-request script" : listen == "test" ? "test script" : "\(listen) script"
            notCarried.append("\(place): the \(kind) (\(lines.count) line\(lines.count == 1 ? "" : "s")) is not carried over; use capture: and assert: instead")
        }
    }
}
