import Foundation
import TincanCore

/// An attribute of a cookie that a response set, named in brackets after the cookie's name as
/// Hurl writes it: `sid[Path]`, `sid[HttpOnly]`. A plain name is the cookie's value.
enum CookieAttribute: String, CaseIterable, Sendable {
    case value = "Value"
    case expires = "Expires"
    case maxAge = "Max-Age"
    case domain = "Domain"
    case path = "Path"
    case secure = "Secure"
    case httpOnly = "HttpOnly"
    case sameSite = "SameSite"

    /// `NAME` or `NAME[Attribute]` split, or what was expected instead.
    static func split(_ text: String) -> Result<(name: String, attribute: CookieAttribute), CookieNameError> {
        guard text.hasSuffix("]"), let open = text.firstIndex(of: "[") else {
            return text.isEmpty || text.contains("[") || text.contains("]") ? .failure(CookieNameError(text: text)) : .success((text, .value))
        }
        let name = String(text[..<open])
        let attribute = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard !name.isEmpty, let found = allCases.first(where: { $0.rawValue.lowercased() == attribute.lowercased() }) else {
            return .failure(CookieNameError(text: text))
        }
        return .success((name, found))
    }

    /// The attribute's value in a `Set-Cookie` field: text, a number for `Max-Age`, whether
    /// `Secure` and `HttpOnly` are there; nil when the field does not give it.
    func value(in field: String) -> ParameterValue? {
        let parts = field.split(separator: ";", omittingEmptySubsequences: false)
        if self == .value { return CookieJar.nameAndValue(ofSetCookie: field).map { .string($0.value) } }
        let attributes = parts.dropFirst().map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (name: pieces[0].trimmingWhitespace().lowercased(), value: pieces.count > 1 ? pieces[1].trimmingWhitespace() : "")
        }
        let given = attributes.last { $0.name == rawValue.lowercased() }
        switch self {
        case .secure, .httpOnly: return .bool(given != nil)
        case .maxAge: return given.map { Int64($0.value).map(ParameterValue.integer) ?? .string($0.value) }
        default: return given.map { .string($0.value) }
        }
    }
}

/// A cookie name in a check that is neither `NAME` nor `NAME[Attribute]`.
struct CookieNameError: Error, CustomStringConvertible {
    var text: String

    var description: String {
        "'\(text)' is not a cookie: expected NAME or NAME[ATTRIBUTE], the attribute one of \(CookieAttribute.allCases.map(\.rawValue).joined(separator: ", "))"
    }
}
