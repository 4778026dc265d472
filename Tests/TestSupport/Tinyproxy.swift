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
    /// with 403), and `basicAuth` the user and password it demands, if any.
    public init(allowing client: String = "127.0.0.1", basicAuth: (user: String, password: String)? = nil) async throws {
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
        let configuration = try directory.write("tinyproxy.conf", Array((lines.joined(separator: "\n") + "\n").utf8))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        // Only those three: a demo server's listening socket inherited by the proxy would keep
        // its port open after the server stopped (a test that expects it refused got a reset).
        _ = addCloseFrom(&actions, 3)
        let arguments: [String] = [executable, "-d", "-c", configuration]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = withCleanSignals { posix_spawn(&child, executable, &actions, $0, argv, environ) }
        guard spawned == 0 else { throw SpawnError(message: "cannot start tinyproxy: \(String(cString: strerror(spawned)))") }
        pid = child
        // Ready once it accepts a connection.
        for _ in 0..<200 {
            if Self.accepts(port: port) { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        stop()
        throw SpawnError(message: "tinyproxy did not start listening on port \(port)")
    }

    /// The log so far.
    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Kills it and reaps it.
    public func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    }

    /// Runs `body` with a proxy, stopping it afterwards whatever happens.
    public static func with<T>(allowing client: String = "127.0.0.1", basicAuth: (user: String, password: String)? = nil, _ body: (Tinyproxy) async throws -> T) async throws -> T {
        let proxy = try await Tinyproxy(allowing: client, basicAuth: basicAuth)
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
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
