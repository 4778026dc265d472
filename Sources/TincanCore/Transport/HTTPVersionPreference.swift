/// Which HTTP version a request asks for (`--http1.1`, `--http2`, a session's `http-version`),
/// as curl's options of the same names do.
///
/// HTTP/2 is negotiated in the TLS handshake (ALPN), so it is for https only: AsyncHTTPClient
/// does not speak HTTP/2 in cleartext (h2c), and an http URL goes as HTTP/1.1 whatever is asked.
public enum HTTPVersionPreference: String, Sendable, Hashable, CaseIterable {
    /// Offer HTTP/2 and HTTP/1.1 over TLS and use what the server chooses; HTTP/1.1 in cleartext.
    case automatic = "auto"
    /// Only HTTP/1.1, even to a server that speaks HTTP/2.
    case http1_1 = "1.1"
    /// HTTP/2 where the server agrees (over TLS), as curl's `--http2`: a server that only
    /// speaks HTTP/1.1 still gets HTTP/1.1, and cleartext stays HTTP/1.1.
    case http2 = "2"

    /// The version the request will be tried with, to `scheme`, in words for the preview and
    /// the Explain view.
    public func attempt(scheme: String) -> String {
        let secure = scheme.lowercased() == "https"
        switch self {
        case .http1_1: return "HTTP/1.1 only"
        case .automatic where secure: return "HTTP/2 if the server offers it in the TLS handshake, else HTTP/1.1"
        case .http2 where secure: return "HTTP/2, or HTTP/1.1 if the server declines it in the TLS handshake"
        case .automatic: return "HTTP/1.1 (HTTP/2 is negotiated over TLS; this URL is cleartext)"
        case .http2: return "HTTP/1.1: HTTP/2 needs TLS here, as cleartext HTTP/2 (h2c) is not supported"
        }
    }
}
