import Crypto
import Foundation

/// RFC 7636's proof key: a random `code_verifier` and its S256 `code_challenge`.
public struct PKCE: Sendable, Hashable {
    /// 43 to 128 characters of `[A-Za-z0-9-._~]`; Tincan makes 64 (48 random bytes).
    public var verifier: String

    /// A proof key with a fresh random verifier.
    public init() {
        self.verifier = Self.randomToken(bytes: 48)
    }

    /// A proof key with `verifier` (tests, and RFC 7636's Appendix B example).
    public init(verifier: String) {
        self.verifier = verifier
    }

    /// `BASE64URL(SHA256(ASCII(code_verifier)))`, without padding (§4.2).
    public var challenge: String {
        Self.challenge(for: verifier)
    }

    /// The S256 challenge of `verifier`.
    public static func challenge(for verifier: String) -> String {
        base64URL(Array(SHA256.hash(data: Array(verifier.utf8))))
    }

    /// `bytes` random bytes from the system's generator, base64url-encoded without padding
    /// (also the `state` of an authorization request).
    public static func randomToken(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Base64url without padding (RFC 7636 Appendix A).
    public static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
