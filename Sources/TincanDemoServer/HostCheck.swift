import Foundation
import Hummingbird
import NIOCore
import Synchronization
import TincanCore

/// Which `Host` values the demo server answers: its own names only.
///
/// A web page can rebind its own name to 127.0.0.1 (DNS rebinding) and then read, from the
/// user's browser, everything a server on loopback answers: `/__received` holds the raw bytes of
/// the last requests, credentials included. Such a request carries the page's name in `Host`, so
/// the server answers only the names that are its own: loopback names and addresses
/// (`localhost` and its subdomains, 127.0.0.0/8, `::1`), any IP address when it listens beyond
/// loopback (`tincan serve --host`: a classroom reaches it by address), and the names given with
/// `--allow-host`; always with its own port (or none, on the scheme's default port). Anything
/// else is answered 421 Misdirected Request (RFC 9110 §15.5.20), saying what it accepts.
public struct DemoHostPolicy: Sendable, Equatable {
    /// Names accepted besides loopback ones, lower case (`--allow-host`).
    public var allowedNames: [String]
    /// Whether any IP address is accepted as the host, as when the server listens beyond loopback.
    public var acceptsAnyAddress: Bool

    /// Loopback names and addresses only.
    public static let loopback = DemoHostPolicy()

    public init(allowedNames: [String] = [], acceptsAnyAddress: Bool = false) {
        self.allowedNames = allowedNames.map { $0.lowercased() }
        self.acceptsAnyAddress = acceptsAnyAddress
    }

    /// What the server accepts, in words, for `tincan serve` and the refusal.
    public func description(port: Int) -> String {
        var names = ["localhost", "127.0.0.1", "[::1]"]
        if acceptsAnyAddress { names.append("any IP address of this machine") }
        names += allowedNames
        return "Host " + names.joined(separator: ", ") + " with port \(port)"
    }

    /// Whether `authority` (a `Host` value, or HTTP/2's `:authority`) names this server on `port`.
    public func accepts(_ authority: String, port: Int, secure: Bool) -> Bool {
        guard let (host, givenPort) = Self.split(authority) else { return false }
        if let givenPort {
            guard givenPort == port else { return false }
        } else if port != (secure ? 443 : 80) {
            return false
        }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        if let address = IPAddress(host) { return address.isLoopback || acceptsAnyAddress }
        return allowedNames.contains(host)
    }

    /// The host (lower case, without brackets or a final dot) and the port of an authority, or
    /// nil when it is not one (empty, user information, a port that is not a number).
    static func split(_ authority: String) -> (host: String, port: Int?)? {
        var text = Substring(authority.lowercased())
        guard !text.isEmpty, !text.contains("@") else { return nil }
        var port: Int?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()), (0...65535).contains(number) else { return nil }
                port = number
            }
            text = text[text.index(after: text.startIndex)..<close]
        } else if let colon = text.lastIndex(of: ":") {
            guard let number = Int(text[text.index(after: colon)...]), (0...65535).contains(number), !text[..<colon].contains(":") else { return nil }
            port = number
            text = text[..<colon]
        }
        if text.hasSuffix(".") { text = text.dropLast() }
        return text.isEmpty ? nil : (String(text), port)
    }
}

/// The demo server's bound port, known once it listens (a server asked for port 0 learns its
/// port then), for the `Host` check.
final class BoundPort: Sendable {
    private let value = Mutex(0)
    var port: Int { value.withLock { $0 } }
    func set(_ port: Int) { value.withLock { $0 = port } }
}

/// Answers 421 to a request whose `Host` is not one of the server's names (``DemoHostPolicy``).
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: DemoHostPolicy
    let bound: BoundPort
    let secure: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let port = bound.port
        if let authority = request.head.authority, policy.accepts(authority, port: port, secure: secure) {
            return try await next(request, context)
        }
        let given = request.head.authority.map { "Host \"\(TerminalText.line($0))\"" } ?? "a request without Host"
        let text = "tincan demo server: \(given) does not name this server; it answers \(policy.description(port: port)) (tincan serve --allow-host NAME adds a name)\n"
        return Response(status: .misdirectedRequest, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
