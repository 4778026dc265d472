import Foundation
import NIOSSL

/// A client certificate and its private key, presented to a server that asks for one (mutual
/// TLS): `--cert FILE` and `--key FILE`, or a session's `tls:` block.
///
/// Both files are PEM. The certificate file may hold a chain (the client's certificate first)
/// and, when `--key` is not given, the key too, as curl allows. An encrypted key needs its
/// passphrase; it is never prompted for here (BoringSSL's own prompt is kept out), so the front
/// end asks, or reads ``passphraseVariable``.
public struct ClientIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The environment variable a passphrase is read from when no terminal can be asked.
    public static let passphraseVariable = "TINCAN_KEY_PASSPHRASE"

    /// The certificate file, as given.
    public var certificatePath: String
    /// The key file, as given (the certificate file when the key is in it).
    public var keyPath: String
    /// The certificates, the client's own first.
    public var chain: [NIOSSLCertificate]
    /// The private key.
    public var key: NIOSSLPrivateKey

    /// Reads a certificate and key.
    ///
    /// - Parameters:
    ///   - certificatePath: A PEM file of certificates, the client's first.
    ///   - keyPath: A PEM file of the private key, or nil when it is in the certificate file.
    ///   - passphrase: The key's passphrase, when it is encrypted.
    /// - Throws: ``ClientIdentityError`` naming the file and what is wrong: missing, unreadable,
    ///   no certificate or key in it, a passphrase missing or wrong, or a key that is not the
    ///   certificate's.
    public static func load(certificate certificatePath: String, key keyPath: String?, passphrase: String?) throws(ClientIdentityError) -> ClientIdentity {
        let certificateBytes = try read(certificatePath, role: .certificate)
        let chain: [NIOSSLCertificate]
        do {
            // Only the certificate blocks: BoringSSL stops at a key block in the same file.
            let blocks = pemBlocks(certificateBytes) { $0 == "CERTIFICATE" }
            chain = blocks.isEmpty ? [] : try NIOSSLCertificate.fromPEMBytes(Array(blocks.joined(separator: "\n").utf8))
        } catch {
            throw ClientIdentityError(.certificate, path: certificatePath, .notPEM("no PEM certificate in it"))
        }
        guard !chain.isEmpty else { throw ClientIdentityError(.certificate, path: certificatePath, .notPEM("no PEM certificate in it")) }
        let keyFile = keyPath ?? certificatePath
        var file = certificateBytes
        if keyPath != nil { file = try read(keyFile, role: .key) }
        let bytes = Array((pemBlocks(file) { $0.hasSuffix("PRIVATE KEY") }.first ?? "").utf8)
        guard !bytes.isEmpty else {
            throw ClientIdentityError(.key, path: keyFile, .notPEM(keyPath == nil ? "the certificate file holds no private key; give it with --key" : "no PEM private key in it"))
        }
        let encrypted = isEncrypted(bytes)
        if encrypted, passphrase == nil { throw ClientIdentityError(.key, path: keyFile, .passphraseNeeded) }
        let key: NIOSSLPrivateKey
        do {
            // The callback is always given, so BoringSSL never prompts on the terminal itself.
            let secret = Array((passphrase ?? "").utf8)
            key = try NIOSSLPrivateKey(bytes: bytes, format: .pem) { (setter: NIOSSLPassphraseSetter<[UInt8]>) in setter(secret) }
        } catch {
            throw ClientIdentityError(.key, path: keyFile, encrypted ? .wrongPassphrase : .notPEM("the private key cannot be read (\(error))"))
        }
        var configuration = TLSConfiguration.tincanClient()
        configuration.certificateChain = chain.map { .certificate($0) }
        configuration.privateKey = .privateKey(key)
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw ClientIdentityError(.key, path: keyFile, .mismatch(certificate: certificatePath))
        }
        return ClientIdentity(certificatePath: certificatePath, keyPath: keyFile, chain: chain, key: key)
    }

    /// Reads a certificate and key with no one to ask: an encrypted key's passphrase comes from
    /// ``passphraseVariable`` in `environment` (a session's `tls:`, as a replay or the TUI reads it).
    ///
    /// - Throws: ``ClientIdentityError``, as ``load(certificate:key:passphrase:)``.
    public static func load(certificate certificatePath: String, key keyPath: String?, environment: [String: String]) throws(ClientIdentityError) -> ClientIdentity {
        let passphrase = keyIsEncrypted(atPath: keyPath ?? certificatePath) ? environment[passphraseVariable] : nil
        return try load(certificate: certificatePath, key: keyPath, passphrase: passphrase)
    }

    /// The PEM blocks of `bytes` whose label (`CERTIFICATE`, `PRIVATE KEY`…) passes `wanted`,
    /// each from its BEGIN line to its END line.
    static func pemBlocks(_ bytes: [UInt8], where wanted: (String) -> Bool) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        var label = ""
        for line in String(decoding: bytes, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let trimmed = line.trimmingWhitespace()
            if current == nil, trimmed.hasPrefix("-----BEGIN "), trimmed.hasSuffix("-----") {
                label = String(trimmed.dropFirst(11).dropLast(5))
                current = wanted(label) ? [line] : nil
                if current == nil { label = "" }
            } else if current != nil {
                current?.append(line)
                if trimmed == "-----END \(label)-----" {
                    blocks.append(current!.joined(separator: "\n") + "\n")
                    current = nil
                }
            }
        }
        return blocks
    }

    /// Whether the PEM key in `bytes` is encrypted (PKCS #8 `ENCRYPTED PRIVATE KEY`, or a
    /// traditional key with `Proc-Type: 4,ENCRYPTED`).
    public static func isEncrypted(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED")
    }

    /// Whether the key file at `path` (or the certificate file, holding the key) is encrypted;
    /// false when it cannot be read (loading then says why).
    public static func keyIsEncrypted(atPath path: String) -> Bool {
        (try? BoundedFile.read(path, limit: SecurityPolicy.maximumCertificateFileBytes)).map(isEncrypted) ?? false
    }

    private static func read(_ path: String, role: ClientIdentityError.Role) throws(ClientIdentityError) -> [UInt8] {
        let bytes: [UInt8]?
        do {
            bytes = try BoundedFile.readIfPresent(path, limit: SecurityPolicy.maximumCertificateFileBytes)
        } catch .folder {
            throw ClientIdentityError(role, path: path, .unreadable("it is a directory"))
        } catch .unreadable(let reason) {
            throw ClientIdentityError(role, path: path, .unreadable(reason))
        } catch {
            throw ClientIdentityError(role, path: path, .unreadable("it \(error)"))
        }
        guard let bytes else { throw ClientIdentityError(role, path: path, .missing) }
        return bytes
    }

    /// The certificate file, and the key file when it is another: as Explain names the identity.
    public var description: String {
        keyPath == certificatePath ? certificatePath : "\(certificatePath) (key \(keyPath))"
    }

    /// The TLS settings `base` has, presenting this identity.
    func configuring(_ base: TLSConfiguration) -> TLSConfiguration {
        var configuration = base
        configuration.certificateChain = chain.map { .certificate($0) }
        configuration.privateKey = .privateKey(key)
        return configuration
    }
}

/// Why a client certificate or key could not be used.
public struct ClientIdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which file is at fault.
    public enum Role: String, Sendable {
        case certificate = "--cert"
        case key = "--key"
    }

    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        case missing
        case unreadable(String)
        case notPEM(String)
        case passphraseNeeded
        case wrongPassphrase
        case mismatch(certificate: String)
    }

    /// Which file is at fault: the certificate or the key.
    public var role: Role
    /// The file.
    public var path: String
    /// What is wrong with it.
    public var reason: Reason

    public init(_ role: Role, path: String, _ reason: Reason) {
        self.role = role
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let what = role == .certificate ? "client certificate" : "private key"
        return switch reason {
        case .missing: "the \(what) file \(path) does not exist"
        case .unreadable(let detail): "the \(what) file \(path) cannot be read: \(detail)"
        case .notPEM(let detail): "the \(what) file \(path) is not usable: \(detail)"
        case .passphraseNeeded: "the private key \(path) is encrypted: give its passphrase at the prompt (on a terminal) or in \(ClientIdentity.passphraseVariable)"
        case .wrongPassphrase: "the private key \(path) cannot be decrypted: wrong passphrase"
        case .mismatch(let certificate): "the private key \(path) does not belong to the certificate \(certificate)"
        }
    }
}
