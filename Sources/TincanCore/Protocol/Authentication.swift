import Crypto
import Foundation

/// A user name and password, answered to authentication challenges.
public struct Credential: Sendable, Hashable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}

/// One challenge of a `WWW-Authenticate` field (RFC 9110 §11.6.1): a scheme and its parameters.
public struct AuthenticationChallenge: Sendable, Hashable {
    /// The scheme as sent (`Basic`, `Digest`).
    public var scheme: String
    /// Parameters with lower-cased names and unquoted values.
    public var parameters: [String: String]

    /// The realm, if the challenge names one.
    public var realm: String? { parameters["realm"] }

    /// Every challenge in the `WWW-Authenticate` fields of `response`, in order.
    public static func challenges(in response: HTTPResponse) -> [AuthenticationChallenge] {
        response.headers.fields.filter { HTTPHeaders.same($0.name, "WWW-Authenticate") }.flatMap { parse($0.value) }
    }

    /// Parses one field value, which may hold several challenges separated by commas.
    public static func parse(_ value: String) -> [AuthenticationChallenge] {
        var scanner = Scanner(Array(value.utf8))
        var challenges: [AuthenticationChallenge] = []
        while true {
            scanner.skip { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\t") }
            guard let scheme = scanner.token() else { break }
            var challenge = AuthenticationChallenge(scheme: scheme, parameters: [:])
            // Parameters follow until the next token that is not followed by "=" (the next scheme).
            while true {
                let mark = scanner.position
                scanner.skip { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\t") }
                guard let name = scanner.token() else { break }
                scanner.skip { $0 == UInt8(ascii: " ") }
                guard scanner.take(UInt8(ascii: "=")) else {
                    scanner.position = mark
                    break
                }
                scanner.skip { $0 == UInt8(ascii: " ") }
                let value = scanner.quotedString() ?? scanner.token() ?? ""
                challenge.parameters[name.lowercased()] = value
            }
            challenges.append(challenge)
        }
        return challenges
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func skip(while predicate: (UInt8) -> Bool) {
            while position < bytes.count, predicate(bytes[position]) { position += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// An RFC 9110 token (token68's `/`, `+` and trailing `=` included).
        mutating func token() -> String? {
            let start = position
            skip { byte in byte > 0x20 && byte < 0x7F && !"\"(),;<>@[\\]{}= ".utf8.contains(byte) }
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        mutating func quotedString() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var value: [UInt8] = []
            while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                if bytes[position] == UInt8(ascii: "\\"), position + 1 < bytes.count { position += 1 }
                value.append(bytes[position])
                position += 1
            }
            position += 1
            return String(decoding: value, as: UTF8.self)
        }
    }
}

/// Answers a challenge with a credential: the `Authorization` value for Basic (RFC 7617) or
/// Digest (RFC 7616: MD5, SHA-256 and SHA-512-256, their `-sess` forms, qop `auth` and `auth-int`).
public enum Authenticator {
    /// The schemes answered, strongest first.
    public static let supportedSchemes = ["digest", "basic"]

    /// The challenge to answer among `challenges`: Digest before Basic, and a Digest with an
    /// algorithm this code knows.
    public static func preferred(_ challenges: [AuthenticationChallenge]) -> AuthenticationChallenge? {
        for scheme in supportedSchemes {
            if let challenge = challenges.first(where: { $0.scheme.lowercased() == scheme && (scheme != "digest" || DigestAlgorithm($0.parameters["algorithm"]) != nil) }) {
                return challenge
            }
        }
        return nil
    }

    /// The `Authorization` value answering `challenge` for `request`.
    ///
    /// - Parameters:
    ///   - count: The nonce count: how many requests have used this nonce, this one included.
    ///   - clientNonce: The cnonce; random unless a test fixes it.
    public static func authorization(
        for challenge: AuthenticationChallenge,
        credential: Credential,
        request: HTTPRequest,
        count: Int = 1,
        clientNonce: String = randomNonce()
    ) -> String? {
        switch challenge.scheme.lowercased() {
        case "basic":
            return RequestSettings.basicAuthorization(username: credential.user, password: credential.password)
        case "digest":
            return digest(challenge, credential: credential, request: request, count: count, clientNonce: clientNonce)
        default:
            return nil
        }
    }

    /// 16 random bytes in hex.
    public static func randomNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return HexText.bytes((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private static func digest(_ challenge: AuthenticationChallenge, credential: Credential, request: HTTPRequest, count: Int, clientNonce: String) -> String? {
        let parameters = challenge.parameters
        guard let nonce = parameters["nonce"], let algorithm = DigestAlgorithm(parameters["algorithm"]) else { return nil }
        let realm = parameters["realm"] ?? ""
        let offered = (parameters["qop"] ?? "").split(separator: ",").map { $0.trimmingWhitespace().lowercased() }
        let bodyBytes: [UInt8]? = {
            switch request.body {
            case .none: return []
            case .bytes(let bytes): return bytes
            default: return nil
            }
        }()
        // auth-int hashes the body, so it is chosen only when auth is not offered and the body is in memory.
        let qop: String? = offered.contains("auth") ? "auth" : (offered.contains("auth-int") && bodyBytes != nil ? "auth-int" : nil)
        if !offered.isEmpty, qop == nil { return nil }
        let uri = request.url.requestTarget
        let nc = HexText.number(count, width: 8)

        let response = algorithm.response(
            credential: credential, realm: realm, nonce: nonce, method: request.method, uri: uri,
            qop: qop, count: nc, clientNonce: clientNonce, body: qop == "auth-int" ? bodyBytes : nil)

        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var fields = [
            "username=\(quoted(credential.user))", "realm=\(quoted(realm))", "nonce=\(quoted(nonce))", "uri=\(quoted(uri))",
            "algorithm=\(algorithm.name)", "response=\(quoted(response))",
        ]
        if let opaque = parameters["opaque"] { fields.append("opaque=\(quoted(opaque))") }
        if let qop { fields += ["qop=\(qop)", "nc=\(nc)", "cnonce=\(quoted(clientNonce))"] }
        return "Digest " + fields.joined(separator: ", ")
    }
}

/// A Digest algorithm of RFC 7616 §3.2.
public struct DigestAlgorithm: Sendable, Hashable {
    /// The name as sent, e.g. `SHA-256-sess`.
    public var name: String
    /// Whether the session variant (`-sess`) is used.
    public var isSession: Bool
    private var base: String

    /// The algorithm a challenge names (MD5 when it names none), or nil when it is unknown.
    public init?(_ name: String?) {
        let name = name ?? "MD5"
        var base = name.uppercased()
        isSession = base.hasSuffix("-SESS")
        if isSession { base.removeLast(5) }
        guard ["MD5", "SHA-256", "SHA-512-256"].contains(base) else { return nil }
        self.name = name
        self.base = base
    }

    /// The `response` value of RFC 7616 §3.4.1, which client and server compute alike.
    ///
    /// - Parameters:
    ///   - qop: `auth`, `auth-int`, or nil for the RFC 2069 form without nc and cnonce.
    ///   - count: The nonce count as sent (eight hex digits).
    ///   - body: The entity body, hashed into A2 for `auth-int`.
    public func response(
        credential: Credential, realm: String, nonce: String, method: String, uri: String,
        qop: String?, count: String, clientNonce: String, body: [UInt8]? = nil
    ) -> String {
        var ha1 = hash("\(credential.user):\(realm):\(credential.password)")
        if isSession { ha1 = hash("\(ha1):\(nonce):\(clientNonce)") }
        var a2 = "\(method):\(uri)"
        if qop == "auth-int" { a2 += ":" + hash(body ?? []) }
        let ha2 = hash(a2)
        guard let qop else { return hash("\(ha1):\(nonce):\(ha2)") }
        return hash("\(ha1):\(nonce):\(count):\(clientNonce):\(qop):\(ha2)")
    }

    /// The lower-case hex digest of `text` in UTF-8.
    public func hash(_ text: String) -> String {
        hash(Array(text.utf8))
    }

    /// The lower-case hex digest of `bytes`.
    public func hash(_ bytes: [UInt8]) -> String {
        let digest: [UInt8]
        switch base {
        case "MD5": digest = Array(Insecure.MD5.hash(data: bytes))
        case "SHA-256": digest = Array(SHA256.hash(data: bytes))
        default: digest = Array(SHA512_256.hash(bytes))
        }
        return HexText.bytes(digest)
    }
}

/// SHA-512/256 (FIPS 180-4 §5.3.6): SHA-512 with its own initial values, cut to 256 bits.
/// swift-crypto has no SHA-512/256, and RFC 7616 names it.
enum SHA512_256 {
    private static let initial: [UInt64] = [
        0x22312194FC2BF72C, 0x9F555FA3C84C64C2, 0x2393B86B6F53B151, 0x963877195940EABD,
        0x96283EE2A88EFFE3, 0xBE5E1E2553863992, 0x2B0199FC2C85B8AA, 0x0EB72DDC81C52CA2,
    ]

    private static let rounds: [UInt64] = [
        0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538, 0x59f111f1b605d019,
        0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
        0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3,
        0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65, 0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
        0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
        0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
        0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b, 0xa2bfe8a14cf10364, 0xa81a664bbc423001,
        0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
        0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb,
        0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
        0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c, 0xd186b8c721c0c207,
        0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
        0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a,
        0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
    ]

    static func hash(_ message: [UInt8]) -> [UInt8] {
        var padded = message
        padded.append(0x80)
        while padded.count % 128 != 112 { padded.append(0) }
        padded += [UInt8](repeating: 0, count: 8)
        let bits = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }

        var state = initial
        var words = [UInt64](repeating: 0, count: 80)
        for block in stride(from: 0, to: padded.count, by: 128) {
            for index in 0..<16 {
                words[index] = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(padded[block + index * 8 + $1]) }
            }
            for index in 16..<80 {
                let s0 = rotate(words[index - 15], 1) ^ rotate(words[index - 15], 8) ^ (words[index - 15] >> 7)
                let s1 = rotate(words[index - 2], 19) ^ rotate(words[index - 2], 61) ^ (words[index - 2] >> 6)
                words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
            for index in 0..<80 {
                let t1 = h &+ (rotate(e, 14) ^ rotate(e, 18) ^ rotate(e, 41)) &+ ((e & f) ^ (~e & g)) &+ rounds[index] &+ words[index]
                let t2 = (rotate(a, 28) ^ rotate(a, 34) ^ rotate(a, 39)) &+ ((a & b) ^ (a & c) ^ (b & c))
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= value }
        }
        return state.prefix(4).flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(56 - $0 * 8)) } }
    }

    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        value >> count | value << (64 - count)
    }
}
