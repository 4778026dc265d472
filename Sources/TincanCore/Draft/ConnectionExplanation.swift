extension Explanation {
    /// The Connection step: how a request to `url` is connected under `options`, and why: the
    /// proxy it goes through (or that it goes direct, and which rule said so) and the client
    /// certificate it presents to a server that asks for one.
    ///
    /// It walks ``ProxySettings/route(to:)``, the rule each hop of the task applies.
    public static func connection(to url: URLReference, options: TaskOptions) -> Step {
        var lines: [Line] = []
        do {
            let route = try options.proxy.route(to: url)
            lines.append(Line(route.description.prefix(1).uppercased() + route.description.dropFirst() + "."))
            switch route.because {
            case .variable, .option:
                if let server = route.server {
                    let tunnel = server.kind == .socks5
                        ? "The proxy is SOCKS5: it resolves the host and relays the bytes."
                        : "The proxy opens a CONNECT tunnel to `\(url.host ?? ""):\(url.effectivePort ?? 80)`\(url.scheme?.lowercased() == "https" ? "; TLS runs inside it, end to end" : ""), so it sees only the tunnel."
                    lines.append(Line(tunnel, .detail))
                    if let credential = server.credential {
                        lines.append(Line("`Proxy-Authorization: Basic` is sent with CONNECT, as `\(credential.user)` (password hidden).", .detail))
                    }
                }
            case .bypassed:
                lines.append(Line("A no-proxy entry matches the host itself or any name below it; an IP entry may be a CIDR range.", .detail))
            case .noneSet, .disabled:
                break
            }
        } catch {
            lines.append(Line("The proxy cannot be used: \(error)", .failed))
        }
        lines.append(Line("Version: \(options.httpVersion.attempt(scheme: url.scheme ?? "http"))."))
        if let identity = options.clientIdentity {
            lines.append(Line("Client certificate `\(identity)` is presented when the server asks for one (mutual TLS)."))
        } else if url.scheme?.lowercased() == "https" {
            lines.append(Line("No client certificate: a server that requires one refuses the handshake.", .detail))
        }
        return Step(topic: .connection, title: "Connection", lines: lines)
    }
}
