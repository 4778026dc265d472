import OrderedCollections
import TincanCore
import Yams

/// Postman's auth, variables and scripts.
extension PostmanImporter {
    /// An item's own auth, or nil when it inherits its parent's (no auth, or `inherit`).
    static func inherited(_ auth: Node?) -> Node? {
        guard let auth, let type = auth.member("type")?.text, type != "inherit" else { return nil }
        return auth
    }

    /// One setting of an auth type (`[{key: token, value: …}]` in v2.1).
    static func setting(_ auth: Node, _ type: String, _ key: String) -> String? {
        auth.member(type)?.sequence?.first { $0.member("key")?.text == key }?.member("value")?.parameterValue.importedText
    }

    /// Basic and Digest as the request's credentials, a bearer token and an API key as a
    /// header (or query field); any other type is reported.
    mutating func apply(_ auth: Node?, to request: inout SavedRequest, place: String) {
        guard let auth, let type = auth.member("type")?.text else { return }
        switch type {
        case "noauth": break
        case "basic", "digest":
            request.auth = SavedAuth(scheme: type == "digest" ? .digest : .basic, user: Self.setting(auth, type, "username") ?? "", password: Self.setting(auth, type, "password") ?? "")
        case "bearer":
            request.headers.append(HeaderSetting(name: "Authorization", value: "Bearer \(Self.setting(auth, type, "token") ?? "")"))
        case "apikey":
            let key = Self.setting(auth, type, "key") ?? "X-API-Key"
            let value = Self.setting(auth, type, "value") ?? ""
            if Self.setting(auth, type, "in") == "query" {
                request.query.append((key, value))
            } else {
                request.headers.append(HeaderSetting(name: key, value: value))
            }
        default:
            notCarried.append(NotCarried.auth(place, type))
        }
    }

    /// Collection or folder variables; a folder's variable of a name already set to another
    /// value is reported, since a session's variables are not per folder.
    mutating func addVariables(_ node: Node?, place: String) throws {
        guard let node else { return }
        for variable in try document.list(node, "a list of variables, each with key: and value:") {
            guard let key = variable.member("key")?.text, !key.isEmpty else { continue }
            let value = ParameterValue.string(variable.member("value")?.parameterValue.importedText ?? "")
            if variable.member("disabled")?.isTrue ?? false {
                notCarried.append("\(place): the disabled variable \(key) is not carried over")
            } else if let line = NotCarried.add(key, value, to: &variables, place: place) {
                notCarried.append(line)
            }
        }
    }

    /// Pre-request and test scripts, which Tincan cannot run: each reported.
    mutating func notCarry(events: Node?, place: String) {
        for event in events?.sequence ?? [] {
            let exec = event.member("script")?.member("exec")
            let lines = exec?.sequence?.compactMap(\.text) ?? exec?.text.map { [$0] } ?? []
            guard lines.contains(where: { !$0.trimmingWhitespace().isEmpty }) else { continue }
            let kind = event.member("listen")?.text == "prerequest" ? "pre-request script" : "\(event.member("listen")?.text ?? "") script"
            notCarried.append("\(place): the \(kind) (\(lines.count) line\(lines.count == 1 ? "" : "s")) is not carried over; use capture: and assert: instead")
        }
    }
}
