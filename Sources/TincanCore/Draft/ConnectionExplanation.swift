extension Explanation {
    /// The Connection step: how a request to `url` is connected under `options`, and why: the
    /// proxy it goes through (or that it goes direct, and which rule said so) and the client
    /// certificate it presents to a server that asks for one; and how a failure is retried.
    ///
    /// It walks ``ProxySettings/route(to:)``, the rule each hop of the task applies.
    ///
    /// - Parameter weakenings: What the security settings in force trust less than the default
    ///   does (``SecurityPolicy/weakenings``), each with where it is set; each becomes a line.
    public static func connection(to url: URLReference, options: TaskOptions, weakenings: [(source: String, weakening: TrustWeakening)] = []) -> Step {
        var lines: [Line] = []
        do {
            let route = try options.proxy.route(to: url)
            lines.append(Line(route.description.prefix(1).uppercased() + route.description.dropFirst() + "."))
            switch route.because {
            case .variable, .option:
                if let server = route.server {
                    let authority = "\(url.host ?? ""):\(url.effectivePort ?? 80)"
                    let how = switch (server.kind, route.forwardsInAbsoluteForm) {
                    case (.socks5, _): "The proxy is SOCKS5: it resolves the host and relays the bytes."
                    case (.http, true): "The request goes to the proxy in absolute form (`\(url.scheme?.lowercased() ?? "http")://\(authority)/…` in the request line), as curl sends plain http: the proxy reads it whole and may cache the response."
                    case (.http, false):
                        "The proxy opens a CONNECT tunnel to `\(authority)`\(url.scheme?.lowercased() == "https" ? "; TLS runs inside it, end to end" : " (--proxytunnel)"), so it sees only the tunnel."
                    }
                    lines.append(Line(how, .detail))
                    if let credential = server.credential {
                        let with = route.forwardsInAbsoluteForm ? "with the request" : "with CONNECT"
                        lines.append(Line("`Proxy-Authorization: Basic` is sent \(with), as `\(credential.user)` (password hidden).", .detail))
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
        if let policy = options.retryPolicy, policy.limit > 0 { lines.append(Line(policy.explanation)) }
        for (source, weakening) in weakenings where url.scheme?.lowercased() == "https" {
            lines.append(Line("Trust weakened by \(source): \(weakening).", .failed))
        }
        return Step(topic: .connection, title: "Connection", lines: lines)
    }
}
