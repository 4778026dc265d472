/// Where Tincan's own demo servers listen this run: what `{{$demo}}` and its kin expand to
/// (issue 34 §3).
///
/// The demo server runs in-process on a free loopback port, so its address changes every run: a
/// session that writes `{{$demo}}` instead of `http://127.0.0.1:38587` works the next day. Every
/// command that opens a session (the TUI, `replay`, `export`, `learn`) starts the servers the
/// session names (``Session/demoUse``) and hands their addresses to its ``Template``.
public struct DemoAddresses: Sendable, Equatable {
    /// The built-in names, as a session writes them.
    public enum Name: String, Sendable, CaseIterable {
        /// The plain demo server's URL, `http://127.0.0.1:PORT` (no trailing slash).
        case plain = "$demo"
        /// The demo server over TLS, `https://127.0.0.1:PORT`, with a certificate made for the run.
        case secure = "$demo-tls"
        /// The path of that certificate's PEM file: to pin it, or to trust it as a CA file.
        case certificate = "$demo-cert"
        /// The path of another certificate's PEM file, which the TLS server does not present (a wrong pin).
        case otherCertificate = "$demo-other-cert"

        /// Whether the name needs the TLS server (and its certificate files).
        public var needsTLS: Bool { self != .plain }
    }

    /// The plain server's URL.
    public var plain: String
    /// The TLS server's URL, when it runs.
    public var secure: String?
    /// The TLS server's certificate file, when it runs.
    public var certificate: String?
    /// Another certificate's file, when the TLS server runs.
    public var otherCertificate: String?

    /// Addresses of the plain server alone, or of both.
    public init(plain: String, secure: String? = nil, certificate: String? = nil, otherCertificate: String? = nil) {
        self.plain = plain
        self.secure = secure
        self.certificate = certificate
        self.otherCertificate = otherCertificate
    }

    /// The value of a built-in name, or nil when its server is not running.
    public subscript(name: Name) -> String? {
        switch name {
        case .plain: plain
        case .secure: secure
        case .certificate: certificate
        case .otherCertificate: otherCertificate
        }
    }
}

/// Which of Tincan's demo servers a session uses.
public enum DemoUse: Int, Sendable, Comparable {
    /// None: nothing is started for it.
    case none
    /// `{{$demo}}` alone: the plain server.
    case plain
    /// A TLS name too: both servers, and the certificate files.
    case withTLS

    public static func < (lhs: DemoUse, rhs: DemoUse) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The use of one referenced name.
    init(name: String) {
        guard let builtin = DemoAddresses.Name(rawValue: name) else {
            self = .none
            return
        }
        self = builtin.needsTLS ? .withTLS : .plain
    }
}

extension Session {
    /// The demo servers the session's file refers to, anywhere: base, defaults, variables,
    /// environments, requests (the references the reader noted).
    public var demoUse: DemoUse {
        var use = referenceLocations.first.keys.map(DemoUse.init(name:)).max() ?? .none
        for request in requests where use < .withTLS {
            use = max(use, request.referenceLocations.first.keys.map(DemoUse.init(name:)).max() ?? .none)
        }
        return use
    }
}
