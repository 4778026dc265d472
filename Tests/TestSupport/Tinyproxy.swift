import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP proxy for tests: Debian's tinyproxy (installed by `make test`), started in the
/// foreground on a free loopback port with its configuration and log in a temporary directory,
/// and killed at the end, even when the test fails.
public final class Tinyproxy: Sendable {
    /// The port it listens on.
    public let port: Int
    /// Its log file, where each request it handles is written (`CONNECT host:port`).
    public let logPath: String
    private let pid: pid_t
    private let directory: TemporaryDirectory

    /// `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Starts tinyproxy; `allowing` is the one client address it serves (any other is refused
    /// with 403), `basicAuth` the user and password it demands, if any, and `connectPorts` the
    /// only ports it opens a CONNECT tunnel to (`ConnectPort`, as Squid's `SSL_ports`), if given.
    public init(allowing client: String = "127.0.0.1", basicAuth: (user: String, password: String)? = nil, connectPorts: [Int]? = nil) async throws {
        let executable = ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let executable else { throw SpawnError(message: "tinyproxy is not installed (make test installs it)") }
        directory = try TemporaryDirectory()
        port = try Self.freePort()
        logPath = (directory.path as NSString).appendingPathComponent("tinyproxy.log")
        var lines = [
            "Port \(port)", "Listen 127.0.0.1", "Timeout 30", "LogFile \"\(logPath)\"", "LogLevel Info",
            "MaxClients 50", "Allow \(client)", "ViaProxyName \"tincan-test-proxy\"",
        ]
        if let basicAuth { lines.append("BasicAuth \(basicAuth.user) \(basicAuth.password)") }
        for port in connectPorts ?? [] { lines.append("ConnectPort \(port)") }
        let configuration = try directory.write("tinyproxy.conf", Array((lines.joined(separator: "\n") + "\n").utf8))
        pid = try spawnDaemon(executable, ["-d", "-c", configuration], output: nil)
        // Ready once it accepts a connection.
        guard await waitUntilAccepting(port: port) else {
            stop()
            throw SpawnError(message: "tinyproxy did not start listening on port \(port)")
        }
    }

    /// The log so far.
    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Whether its log shows a request to `port` on 127.0.0.1: a tunnel (`CONNECT`) or a request
    /// in absolute form (`GET http://127.0.0.1:PORT/…`).
    public func carried(toPort port: Int) -> Bool {
        let log = self.log
        return log.contains("CONNECT 127.0.0.1:\(port)") || log.contains(" http://127.0.0.1:\(port)/")
    }

    /// Kills it and reaps it.
    public func stop() {
        stopDaemon(pid)
    }

    /// Runs `body` with a proxy, stopping it afterwards whatever happens.
    public static func with<T>(allowing client: String = "127.0.0.1", basicAuth: (user: String, password: String)? = nil, connectPorts: [Int]? = nil,
                               _ body: (Tinyproxy) async throws -> T) async throws -> T {
        let proxy = try await Tinyproxy(allowing: client, basicAuth: basicAuth, connectPorts: connectPorts)
        defer { proxy.stop() }
        return try await body(proxy)
    }

    /// A loopback port that nothing listens on now, below Linux's ephemeral range (32768 and
    /// up): the tests' servers bind port 0 and take theirs from that range, and a test that
    /// stops a server to find a refused port must not find tinyproxy there instead.
    public static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            if try isFree(port) { return port }
        }
        throw SpawnError(message: "no free port below the ephemeral range")
    }

    private static func isFree(_ port: Int) throws -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SpawnError(message: "socket: \(errno)") }
        defer { close(fd) }
        return withLoopbackAddress(port: port) { bind(fd, $0, $1) } == 0
    }

}

/// Starts `executable` in the background with only its three standard streams (standard input
/// from /dev/null; output and errors to the file `output`, or /dev/null) and returns its pid.
/// A demo server's listening socket inherited by the child would keep that server's port open
/// after the server stopped, so nothing else is passed on.
public func spawnDaemon(_ executable: String, _ arguments: [String], output: String?) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    _ = addCloseFrom(&actions, 3)
    let all: [String] = [executable] + arguments
    let argv = all.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var child: pid_t = 0
    let spawned = withCleanSignals { posix_spawn(&child, executable, &actions, $0, argv, environ) }
    guard spawned == 0 else { throw SpawnError(message: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
    return child
}

/// Kills a process `spawnDaemon` started, and reaps it.
public func stopDaemon(_ pid: pid_t) {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
}

/// Waits up to five seconds for something to accept connections on the loopback `port`.
public func waitUntilAccepting(port: Int) async -> Bool {
    for _ in 0..<200 {
        if accepts(port: port) { return true }
        try? await Task.sleep(for: .milliseconds(25))
    }
    return false
}

/// What a process started in the background (`spawnDaemon`) has written to `path`, once it
/// holds `text`, or after five seconds: another process writes it, so there is no clock to
/// advance, only its writes to hear of. The file is read again each time inotify reports a
/// change in its folder.
public func output(of path: String, until text: String) async -> String {
    await offThePool { watchedOutput(of: path, until: text, seconds: 5) }
}

private func watchedOutput(of path: String, until text: String, seconds: Int) -> String {
    func contents() -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    let events = inotify_init1(Int32(IN_CLOEXEC))
    guard events >= 0 else { return contents() }
    defer { close(events) }
    // The folder, not the file: the process may not have created it yet.
    let folder = (path as NSString).deletingLastPathComponent
    guard inotify_add_watch(events, folder.isEmpty ? "." : folder, UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE)) >= 0 else { return contents() }
    let deadline = ContinuousClock.now + .seconds(seconds)
    var written = contents()
    var drained = [UInt8](repeating: 0, count: 4096)
    while !written.contains(text) {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { break }
        var ready = pollfd(fd: events, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
        if poll(&ready, 1, milliseconds) > 0 { _ = read(events, &drained, drained.count) }
        written = contents()
    }
    return written
}

private func accepts(port: Int) -> Bool {
    guard let fd = connectToLoopback(port: port) else { return false }
    close(fd)
    return true
}

/// microsocks, a small SOCKS5 server (installed by `make test`), on a free loopback port, for
/// the SOCKS tests; killed at the end, even when the test fails.
public final class Microsocks: Sendable {
    /// The port it listens on.
    public let port: Int
    private let pid: pid_t
    private let directory: TemporaryDirectory
    private let logPath: String

    /// `socks5h://127.0.0.1:PORT`.
    public var url: String { "socks5h://127.0.0.1:\(port)" }

    /// What it logged: a line per client, `client[N] 127.0.0.1: connected to HOST:PORT`.
    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    private init() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/microsocks") else {
            throw SpawnError(message: "microsocks is not installed (make test installs it)")
        }
        directory = try TemporaryDirectory()
        logPath = (directory.path as NSString).appendingPathComponent("microsocks.log")
        port = try Tinyproxy.freePort()
        pid = try spawnDaemon("/usr/bin/microsocks", ["-i", "127.0.0.1", "-p", String(port)], output: logPath)
        guard await waitUntilAccepting(port: port) else {
            stopDaemon(pid)
            throw SpawnError(message: "microsocks did not start listening on port \(port)")
        }
    }

    /// Runs `body` with a SOCKS5 server, stopping it afterwards whatever happens.
    public static func with<T>(_ body: (Microsocks) async throws -> T) async throws -> T {
        let server = try await Microsocks()
        defer { stopDaemon(server.pid) }
        return try await body(server)
    }
}

/// nghttpd, nghttp2's HTTP/2 server (package nghttp2-server, installed by `make test`), serving
/// the files of a folder over TLS on a free loopback port; killed at the end, even when the test fails.
public final class Nghttpd: Sendable {
    /// The port it listens on.
    public let port: Int
    /// The folder it serves, where a test puts its files.
    public let root: TemporaryDirectory
    private let pid: pid_t
    private let keys: TemporaryDirectory

    /// `https://127.0.0.1:PORT`.
    public var url: String { "https://127.0.0.1:\(port)" }

    private init(certificate: TestCertificate) async throws {
        let executable = ["/usr/bin/nghttpd", "/usr/sbin/nghttpd"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let executable else { throw SpawnError(message: "nghttpd is not installed (make test installs nghttp2-server)") }
        root = try TemporaryDirectory()
        keys = try TemporaryDirectory()
        let key = try keys.write("server.key", Array(certificate.privateKeyPEM.utf8))
        let cert = try keys.write("server.pem", Array(certificate.certificatePEM.utf8))
        port = try Tinyproxy.freePort()
        pid = try spawnDaemon(executable, ["--address=127.0.0.1", "--htdocs=\(root.path)", String(port), key, cert], output: nil)
        guard await waitUntilAccepting(port: port) else {
            stopDaemon(pid)
            throw SpawnError(message: "nghttpd did not start listening on port \(port)")
        }
    }

    /// Runs `body` with an HTTP/2 server presenting `certificate`, stopping it afterwards whatever happens.
    public static func with<T>(certificate: TestCertificate, _ body: (Nghttpd) async throws -> T) async throws -> T {
        let server = try await Nghttpd(certificate: certificate)
        defer { stopDaemon(server.pid) }
        return try await body(server)
    }
}
