import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import X509

/// Says why a server's certificate was refused: expired, not yet valid, self-signed, or issued by
/// an authority that is not trusted.
///
/// BoringSSL reports every one of these as `CERTIFICATE_VERIFY_FAILED`, as NIOSSL passes it on. After
/// such a failure, the diagnosis connects once more, takes the chain the server presents, refuses
/// it in the same handshake (nothing is sent), and reads the leaf's dates and names.
public enum TLSDiagnosis {
    /// What the certificates were checked against.
    public enum Trust: Sendable, Equatable {
        /// The system's trust roots.
        case system
        /// The roots in a CA file (`--ca-file`).
        case caFile(String)
        /// Pinned certificates only.
        case pins
    }

    /// The longest the second handshake may take.
    static let timeLimit = TimeAmount.seconds(5)

    /// Why `chain` (leaf first) would be refused under `trust`, in words; nil when there is no chain.
    static func reason(forChain chain: [Certificate], trust: Trust, now: Date = Date()) -> String? {
        guard let leaf = chain.first else { return nil }
        let date = { (date: Date) in ISO8601DateFormatter.string(from: date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withInternetDateTime]) }
        if leaf.notValidAfter < now {
            return "the server's certificate expired on \(date(leaf.notValidAfter))"
        }
        if leaf.notValidBefore > now {
            return "the server's certificate is not valid until \(date(leaf.notValidBefore))"
        }
        for certificate in chain.dropFirst() where certificate.notValidAfter < now {
            return "the certificate of \(name(certificate.subject)), in the server's chain, expired on \(date(certificate.notValidAfter))"
        }
        if trust == .pins {
            return "pin mismatch: the server's certificate (\(name(leaf.subject))) matches none of the pinned certificates"
        }
        if leaf.issuer == leaf.subject {
            let remedy = if case .caFile(let path) = trust { "the CA file \(path) does not hold it" } else { "--ca-file or a pin can trust it" }
            return "the server's certificate is self-signed (\(name(leaf.subject))), and no trusted authority vouches for it (\(remedy))"
        }
        let top = chain.last ?? leaf
        if case .caFile(let path) = trust {
            return "the server's certificate was issued by \(name(top.issuer)), which the CA file \(path) does not hold (unknown issuer)"
        }
        return "the server's certificate was issued by \(name(top.issuer)), an authority this machine does not trust (unknown issuer; --ca-file names one to trust)"
    }

    /// The reason for a refused certificate of `host`:`port`, from a second handshake; nil when
    /// that handshake shows no chain (the server went away, or refused before its certificate),
    /// or when the chain verifies against the same roots, so the refusal is one this reading
    /// cannot name (BoringSSL's own words then stand).
    ///
    /// The whole look takes at most `limit` (``timeLimit``), and a cancel ends it at once.
    static func reason(host: String, port: Int, trust: Trust, eventLoop: any EventLoop, limit: TimeAmount = timeLimit) async -> String? {
        guard !Task.isCancelled else { return nil }
        let presented = Mutex<[NIOSSLCertificate]>([])
        let opened = Mutex<(any Channel)?>(nil)
        let cancelled = Mutex(false)
        await withTaskCancellationHandler {
            do {
                let context = try NIOSSLContext(configuration: .makeClientConfiguration())
                let serverName = host.isIPAddress ? nil : host
                let channel = try await connect(host: host, port: port, eventLoop: eventLoop, limit: limit) { channel in
                    let handler = try NIOSSLClientHandler(context: context, serverHostname: serverName) { (certificates: [NIOSSLCertificate], verdict: EventLoopPromise<NIOSSLVerificationResult>) in
                        presented.withLock { $0 = certificates }
                        verdict.succeed(NIOSSLVerificationResult.failed)
                    }
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
                // A cancel that came while connecting closes it now; one that comes later, at once.
                let stop = cancelled.withLock { isCancelled in
                    if !isCancelled { opened.withLock { $0 = channel } }
                    return isCancelled
                }
                if stop { channel.close(promise: Optional<EventLoopPromise<Void>>.none) }
                // The refusal closes the channel; a server that stalls is cut off at the limit.
                try? await channel.closeFuture.get()
            } catch {
                return
            }
        } onCancel: {
            cancelled.withLock { isCancelled in
                isCancelled = true
                opened.withLock { $0?.close(promise: Optional<EventLoopPromise<Void>>.none) }
            }
        }
        let chain = presented.withLock { $0 }.compactMap { certificate in
            (try? certificate.toDERBytes()).flatMap { try? Certificate(derEncoded: $0) }
        }
        guard !chain.isEmpty, !(await verifies(chain, against: trust)) else { return nil }
        return reason(forChain: chain, trust: trust)
    }

    /// A connection to `host`:`port` whose pipeline `configure` sets up, closed at `limit` from
    /// its start: connecting, the handshake and whatever follows share one bound.
    static func connect(host: String, port: Int, eventLoop: any EventLoop, limit: TimeAmount,
                        configure: @escaping @Sendable (any Channel) throws -> Void) async throws -> any Channel {
        try await ClientBootstrap(group: eventLoop)
            .connectTimeout(limit)
            .channelInitializer { channel in
                channel.eventLoop.scheduleTask(in: limit) { channel.close(promise: Optional<EventLoopPromise<Void>>.none) }
                return channel.eventLoop.makeCompletedFuture { try configure(channel) }
            }
            .connect(host: host, port: port).get()
    }

    /// Whether `chain` (leaf first) verifies against the roots `trust` names, by RFC 5280's rules.
    /// Pins are checked by their own rule, not here.
    static func verifies(_ chain: [Certificate], against trust: Trust, now: Date = Date()) async -> Bool {
        guard let leaf = chain.first else { return false }
        let roots: CertificateStore
        switch trust {
        case .system:
            roots = CertificateStore.systemTrustRoots
        case .caFile(let path):
            guard let certificates = try? SecurityPolicy.certificates(inFile: path) else { return false }
            roots = CertificateStore(certificates.compactMap { try? Certificate(derEncoded: $0) })
        case .pins:
            return false
        }
        var verifier = Verifier(rootCertificates: roots) { RFC5280Policy(validationTime: now) }
        if case .validCertificate = await verifier.validate(leaf: leaf, intermediates: CertificateStore(chain.dropFirst())) { return true }
        return false
    }

    /// A distinguished name as people read it: its common name, else the whole name.
    private static func name(_ name: DistinguishedName) -> String {
        for rdn in name {
            for attribute in rdn where attribute.type == .RDNAttributeType.commonName {
                return "'\(attribute.value)'"
            }
        }
        return "'\(name)'"
    }
}

extension String {
    /// Whether the string is an IPv4 or IPv6 address (SNI carries host names only).
    var isIPAddress: Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        let bare = hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }
}
