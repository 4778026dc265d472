import Crypto
import Foundation
import NIOSSL

/// How a session trusts servers over TLS (AFNetworking's `AFSecurityPolicy`): the system's
/// roots (or a CA file) by default, or pinned certificates.
///
/// AsyncHTTPClient offers no per-connection verification callback, so pinning is enforced by the
/// TLS handshake itself: in a pinning mode the pinned certificates are the *only* trust roots.
/// A chain is accepted when it ends at a pinned certificate, or is signed by a pinned
/// certificate's key under its name. Nothing is checked after the connection is made, so there is
/// no window in which an unpinned server is talked to.
public struct SecurityPolicy: Sendable {
    /// What is pinned.
    public enum PinningMode: String, Sendable, CaseIterable {
        /// Nothing: the system's trust roots (or the CA file) decide.
        case none
        /// The pinned certificates themselves are the trust roots.
        case certificate
        /// The keys of the pinned certificates; enforced the same way, through the certificates that carry them.
        case publicKey
    }

    /// What is pinned.
    public var pinningMode: PinningMode
    /// The pinned certificates, DER.
    public var pinnedCertificates: [[UInt8]]
    /// Accepts certificates that fail validation. With no pinning, this turns verification off;
    /// with pinning, only a host name the certificate does not give is forgiven, never a chain
    /// that does not end at a pin.
    public var allowInvalidCertificates = false
    /// Whether the certificate must name the host.
    public var validatesDomainName = true
    /// A PEM file of CA certificates trusted instead of the system's, or nil.
    public var caFile: String?
    /// The oldest TLS version accepted: TLS 1.2 unless asked otherwise (RFC 8996).
    public var minimumTLSVersion = TLSMinimum.standard

    /// The default: the system's roots, full verification.
    public static let `default` = SecurityPolicy(pinningMode: .none)

    /// Creates a policy.
    public init(pinningMode: PinningMode, pinnedCertificates: [[UInt8]] = []) {
        self.pinningMode = pinningMode
        self.pinnedCertificates = pinnedCertificates
    }

    /// The most bytes read from a certificate or key file: a system's whole CA bundle is
    /// under a megabyte.
    public static let maximumCertificateFileBytes = 16 << 20

    /// The certificates in a PEM or DER file, DER-encoded.
    ///
    /// - Throws: ``SecurityPolicyError`` naming the file when it cannot be read or holds none.
    public static func certificates(inFile path: String) throws -> [[UInt8]] {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, limit: maximumCertificateFileBytes)
        } catch {
            throw SecurityPolicyError(.unreadableFile(path: path, reason: "\(error)"))
        }
        do {
            if bytes.starts(with: Array("-----BEGIN".utf8)) || String(decoding: bytes.prefix(4096), as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") {
                return try NIOSSLCertificate.fromPEMBytes(bytes).map { try $0.toDERBytes() }
            }
            return [try NIOSSLCertificate(bytes: bytes, format: .der).toDERBytes()]
        } catch {
            throw SecurityPolicyError(.unreadableFile(path: path, reason: "not a PEM or DER certificate (\(error))"))
        }
    }

    /// The SHA-256 fingerprints (base64) of the pinned certificates' public keys (their
    /// SubjectPublicKeyInfo), as HPKP and curl's `--pinnedpubkey` write them.
    public var publicKeyFingerprints: [String] {
        pinnedCertificates.compactMap { der -> String? in
            guard let key = try? NIOSSLCertificate(bytes: der, format: .der).extractPublicKey().toSPKIBytes() else { return nil }
            return Data(SHA256.hash(data: key)).base64EncodedString()
        }
    }

    /// Checks the policy against the session's base URL: pinning needs certificates, and a
    /// pinning policy on a base URL that is not https is refused (as AFNetworking refuses it).
    public func validate(baseURL: URLReference?) throws {
        guard pinningMode != .none else { return }
        if let baseURL, baseURL.scheme?.lowercased() != "https" {
            throw SecurityPolicyError(.invalidPolicy("a \(pinningMode.rawValue)-pinning policy needs an https base URL, not \(baseURL)"))
        }
        if pinnedCertificates.isEmpty {
            throw SecurityPolicyError(.invalidPolicy("\(pinningMode.rawValue) pinning needs at least one pinned certificate"))
        }
    }

    /// Checks the policy against the URL of one request: a pinning policy is refused for a
    /// request that is not https, rather than silently not applied.
    public func validate(requestURL: URLReference) throws {
        guard pinningMode != .none, requestURL.scheme?.lowercased() != "https" else { return }
        throw SecurityPolicyError(.invalidPolicy("\(pinningMode.rawValue) pinning applies to https only, and \(requestURL) is not https"))
    }

    /// What ``tlsConfiguration()`` checks server certificates against.
    public var trust: TLSDiagnosis.Trust {
        if pinningMode != .none { return .pins }
        return caFile.map(TLSDiagnosis.Trust.caFile) ?? .system
    }

    /// What decides whether a server's certificate is trusted under this policy, in a session
    /// file's words (a lesson's `trusted-by:` goal).
    public var trustBasis: TrustBasis {
        if pinningMode != .none { return .pins }
        if allowInvalidCertificates { return .insecure }
        return caFile == nil ? .system : .caFile
    }

    /// What in this policy trusts servers less than the default does (verification off, an
    /// old TLS version, a CA file instead of the system's roots), for the warnings, marks and
    /// Explain lines that say so.
    public var weakenings: [TrustWeakening] {
        var weakenings: [TrustWeakening] = []
        if allowInvalidCertificates { weakenings.append(pinningMode == .none ? .verificationOff : .hostNameUnchecked) }
        if minimumTLSVersion.isDeprecated { weakenings.append(.deprecatedTLS(minimumTLSVersion)) }
        if let caFile, pinningMode == .none { weakenings.append(.caFile(caFile)) }
        return weakenings
    }

    /// The TLS configuration that enforces this policy.
    public func tlsConfiguration() throws -> TLSConfiguration {
        var configuration = TLSConfiguration.tincanClient(minimum: minimumTLSVersion)
        if let caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw SecurityPolicyError(.unreadableFile(path: caFile, reason: "cannot read the CA file"))
            }
            // Loaded now, so that a file with no certificate in it is bad input, not a failed handshake.
            let roots: [NIOSSLCertificate]
            do {
                roots = try Self.certificates(inFile: caFile).map { try NIOSSLCertificate(bytes: $0, format: .der) }
                guard !roots.isEmpty else { throw SecurityPolicyError(.unreadableFile(path: caFile, reason: "empty")) }
            } catch {
                throw SecurityPolicyError(.unreadableFile(path: caFile, reason: "not a CA file: it holds no PEM or DER certificate"))
            }
            configuration.trustRoots = .certificates(roots)
        }
        switch pinningMode {
        case .none:
            if allowInvalidCertificates {
                configuration.certificateVerification = .none
                return configuration
            }
        case .certificate, .publicKey:
            do {
                configuration.trustRoots = .certificates(try pinnedCertificates.map { try NIOSSLCertificate(bytes: $0, format: .der) })
            } catch {
                throw SecurityPolicyError(.invalidPolicy("a pinned certificate cannot be loaded: \(error)"))
            }
        }
        configuration.certificateVerification = validatesDomainName && !allowInvalidCertificates ? .fullVerification : .noHostnameVerification
        return configuration
    }
}

/// What decided to trust a server's certificate: the rule that accepted the handshake, named
/// as a session file's `security:` block names it (`trusted-by:` in `assert:`).
public enum TrustBasis: String, Sendable, CaseIterable {
    /// The pinned certificates, the only anchors: any other certificate was refused.
    case pins
    /// The authorities of a CA file, instead of the system's.
    case caFile = "ca-file"
    /// The system's trust roots.
    case system
    /// Nothing: verification was off, so any certificate was accepted.
    case insecure
}

/// Why a security policy cannot be used.
public struct SecurityPolicyError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The policy contradicts itself or the base URL ("Invalid Security Policy" in AFNetworking).
        case invalidPolicy(String)
        /// A certificate or CA file cannot be read.
        case unreadableFile(path: String, reason: String)
    }

    public var reason: Reason

    public init(_ reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .invalidPolicy(let detail): "invalid security policy: \(detail)"
        case .unreadableFile(let path, let reason): "\(path): \(reason)"
        }
    }
}

/// The oldest TLS version a connection accepts.
public enum TLSMinimum: String, Sendable, CaseIterable, Comparable {
    case tls1_0 = "1.0"
    case tls1_1 = "1.1"
    case tls1_2 = "1.2"
    case tls1_3 = "1.3"

    /// TLS 1.2: RFC 8996 deprecates 1.0 and 1.1.
    public static let standard = TLSMinimum.tls1_2

    /// Whether RFC 8996 deprecates this version (and so the ones it lets in).
    public var isDeprecated: Bool { self < .tls1_2 }

    /// NIOSSL's name for it.
    var nioVersion: TLSVersion {
        switch self {
        case .tls1_0: .tlsv1
        case .tls1_1: .tlsv11
        case .tls1_2: .tlsv12
        case .tls1_3: .tlsv13
        }
    }

    public static func < (lhs: TLSMinimum, rhs: TLSMinimum) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Why TLS 1.0 and 1.1 are unsafe, in the words every option and warning uses.
    public static let deprecationReason = "RFC 8996 deprecates TLS 1.0 and 1.1: their handshakes rest on MD5 and SHA-1, they lack the AEAD ciphers, and an attacker on the path can push a connection down to them"
}

/// A way a security policy trusts servers less than Tincan's default does.
public enum TrustWeakening: Sendable, Hashable, CustomStringConvertible {
    /// Certificates are not verified at all.
    case verificationOff
    /// Pinned certificates are checked, but not that they name the host.
    case hostNameUnchecked
    /// A TLS version older than 1.2 is accepted.
    case deprecatedTLS(TLSMinimum)
    /// A CA file's authorities are trusted instead of the system's.
    case caFile(String)

    /// Whether it leaves connections open to anyone on the path (not only a change of whom to trust).
    public var isUnsafe: Bool {
        if case .caFile = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .verificationOff: "certificate verification is off: anyone on the network path can pose as the server and read what is sent"
        case .hostNameUnchecked: "a pinned certificate is accepted for any host name"
        case .deprecatedTLS(let version): "TLS \(version.rawValue) is accepted (\(TLSMinimum.deprecationReason))"
        case .caFile(let path): "the authorities in \(path) are trusted instead of the system's: whoever holds their keys can pose as any server"
        }
    }
}

extension TLSConfiguration {
    /// NIOSSL's client configuration (certificates verified) with Tincan's TLS floor: 1.2
    /// unless `minimum` says otherwise (NIOSSL's own floor is TLS 1.0).
    public static func tincanClient(minimum: TLSMinimum = .standard) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = minimum.nioVersion
        return configuration
    }
}
