import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import Logging
import TincanCore
import NIOCore
import NIOSSL
import ServiceLifecycle

/// Tincan's demo server: httpbin-compatible routes on loopback, so every example runs offline.
///
/// `tincan serve` runs it in the foreground; the TUI's welcome session and the tests start it
/// in-process on port 0 and read the port it was given.
public final class DemoServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    /// The host it listens on.
    public let host: String
    /// Whether it speaks TLS.
    public let usesTLS: Bool
    /// The last requests it received, as bytes (also served at `/__received`).
    public let received: ReceivedRequests
    private let task: Task<Void, any Error>
    private let group: ServiceGroup

    /// The port `tincan serve` listens on unless `--port` says otherwise.
    public static let defaultPort = 8080

    /// The base URL of the running server, such as `http://127.0.0.1:49152`.
    public var baseURL: String { "\(usesTLS ? "https" : "http")://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    private init(host: String, port: Int, usesTLS: Bool, received: ReceivedRequests, task: Task<Void, any Error>, group: ServiceGroup) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
        self.received = received
        self.task = task
        self.group = group
    }

    /// Starts a server and returns once it is listening.
    ///
    /// - Parameters:
    ///   - host: The address to bind; loopback by default.
    ///   - port: The port, or 0 for any free port.
    ///   - log: Called with one line per request (method, path, status, time), or nil for silence.
    ///   - tls: A server TLS configuration (certificate and key) to serve https, or nil for http.
    ///   - closesEveryConnection: Whether every response says `Connection: close` and the
    ///     connection then closes, as servers without keep-alive do.
    ///   - onReceived: Called with each request's bytes once it has arrived whole (or its
    ///     connection closed first), for `tincan serve --show`.
    ///   - hosts: The `Host` values answered (``DemoHostPolicy``): loopback names and addresses
    ///     by default; others get 421.
    ///   - http2: Over TLS, whether HTTP/2 is offered (ALPN). With false the server speaks
    ///     HTTP/1.1 alone and upgrades `/ws` to WebSocket (wss), as cleartext always does:
    ///     Hummingbird's HTTP/2 channel has no WebSocket upgrade.
    ///   - classroom: The room whose students' progress the `/__classroom` routes take and show
    ///     (`tincan serve --classroom`), or nil for no such routes.
    public static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        log: (@Sendable (String) -> Void)? = nil,
        tls: TLSConfiguration? = nil,
        closesEveryConnection: Bool = false,
        onReceived: (@Sendable (ReceivedRequest) -> Void)? = nil,
        hosts: DemoHostPolicy = .loopback,
        http2: Bool = true,
        classroom: Classroom? = nil
    ) async throws -> DemoServer {
        let received = ReceivedRequests(onComplete: onReceived)
        let bound = BoundPort()
        bound.set(port)
        let router = DemoRoutes.makeRouter(log: log, secure: tls != nil, received: received, hosts: hosts, bound: bound, classroom: classroom)
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "tincan.demo-server")
        logger.logLevel = .critical
        let connection = HTTP1Channel.Configuration(additionalChannelHandlers: [DemoConnectionHandler(closesEveryConnection: closesEveryConnection, received: received, tls: tls != nil)])
        // Over TLS the client chooses HTTP/2 or HTTP/1.1 in the handshake (ALPN); cleartext is
        // HTTP/1.1, with `/ws`'s WebSocket upgrade (WebSocketEcho).
        let webSocket = WebSocketEcho.server(connection: connection, received: received, tls: tls != nil, hosts: hosts, bound: bound)
        let server: HTTPServerBuilder = switch tls {
        case let tls? where http2: try .http2Upgrade(tlsConfiguration: tls, configuration: .init(streamConfiguration: connection))
        case let tls?: try .tls(webSocket, tlsConfiguration: tls)
        case nil: webSocket
        }
        let application = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "tincan-demo"),
            onServerRunning: { channel in
                bound.set(channel.localAddress?.port ?? port)
                portContinuation.yield(channel.localAddress?.port ?? port)
                portContinuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        let task = Task { try await group.run() }
        var iterator = portStream.makeAsyncIterator()
        guard let boundPort = await iterator.next() else {
            task.cancel()
            _ = try await task.value
            throw DemoServerError.didNotStart
        }
        return DemoServer(host: host, port: boundPort, usesTLS: tls != nil, received: received, task: task, group: group)
    }

    /// Runs until the server stops (for `tincan serve`).
    public func wait() async throws {
        try await task.value
    }

    /// Stops the server and waits until it has stopped.
    ///
    /// The listener closes first and open connections finish their requests (a graceful
    /// shutdown); cancelling at once instead could accept a connection after the server had
    /// stopped taking them, which Hummingbird's connection wrapper traps on. Connections still
    /// busy after five seconds are cut.
    public func stop() async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let watchdog = Task {
            try await Task.sleep(for: .seconds(5))
            task.cancel()
        }
        _ = try? await task.value
        watchdog.cancel()
    }
}

/// Why the demo server could not start.
public enum DemoServerError: Error, CustomStringConvertible {
    case didNotStart

    public var description: String { "the demo server could not start listening" }
}
