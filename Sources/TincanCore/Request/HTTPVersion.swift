/// An HTTP protocol version, as a status line or curl's verbose output writes it.
public enum HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    case http1_0
    case http1_1
    case http2

    /// `HTTP/1.1`, `HTTP/2`.
    public var description: String {
        switch self {
        case .http1_0: "HTTP/1.0"
        case .http1_1: "HTTP/1.1"
        case .http2: "HTTP/2"
        }
    }

    /// The version from its major and minor numbers; nil for one Tincan does not speak.
    public init?(major: Int, minor: Int) {
        switch (major, minor) {
        case (1, 0): self = .http1_0
        case (1, 1): self = .http1_1
        case (2, _): self = .http2
        default: return nil
        }
    }

    /// The version the transport tries first for `url` when `preference` is asked for. Over TLS
    /// it offers HTTP/2 by ALPN, unless only HTTP/1.1 is asked for, and falls back to HTTP/1.1
    /// when the server does not choose it; plain http is HTTP/1.1, since the transport never
    /// upgrades a cleartext connection.
    public static func firstTried(for url: URLReference, preference: HTTPVersionPreference = .automatic) -> HTTPVersion {
        url.scheme?.lowercased() == "https" && preference != .http1_1 ? .http2 : .http1_1
    }

    /// Why ``firstTried(for:preference:)`` picks its version, in a sentence for the Explain view.
    public static func negotiation(for url: URLReference, preference: HTTPVersionPreference = .automatic) -> String {
        if preference == .http1_1 { return "HTTP/1.1 only was asked for (`--http1.1`, `http-version: 1.1`), so HTTP/2 is not offered." }
        return switch firstTried(for: url, preference: preference) {
        case .http2: "HTTPS offers HTTP/2 by ALPN and falls back to HTTP/1.1 when the server does not take it; the response shows the version used."
        default: "Plain http is sent as HTTP/1.1; HTTP/2 is offered only over TLS."
        }
    }
}
