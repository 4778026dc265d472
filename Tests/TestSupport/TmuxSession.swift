import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tmux server on a private socket, running one program in a window of a set size, for
/// end-to-end tests that read the screen with `capture-pane`.
public final class TmuxSession: Sendable {
    /// The private socket; no other tmux server is touched.
    public let socket: String
    private let directory: TemporaryDirectory
    /// Directories the program uses (its config, data and state homes), removed only once it has ended.
    private let kept: [TemporaryDirectory]

    /// Starts `command` (run by `sh -c`) in a detached session with `TERM=tmux-256color`.
    ///
    /// - Parameter keeping: Directories the program uses, kept until it has ended: a test's own
    ///   reference may go before the program does, and a program that writes as it exits (the
    ///   TUI's history) would make a removed directory again and leave it behind.
    public init(command: String, width: Int = 120, height: Int = 40, environment: [String: String] = [:], keeping: [TemporaryDirectory] = []) async throws {
        kept = keeping
        directory = try TemporaryDirectory()
        socket = (directory.path as NSString).appendingPathComponent("tmux.sock")
        let exports = (["TERM": "tmux-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"].merging(environment) { $1 })
            .map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        // The server daemonizes and would hold captured pipes open forever: start it with its
        // output going to /dev/null and wait for the client with waitpid, then talk to it with
        // ordinary (captured) client commands.
        let arguments = [Self.tmuxPath, "-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "env \(exports) \(command)", ";", "set-option", "-g", "remain-on-exit", "on"]
        let status = await offThePool { Self.spawnAndWait(arguments) }
        guard status == 0 else { throw TmuxError(message: "tmux could not start a session (status \(status))") }
    }

    deinit {
        let programs = Self.paneProcesses(socket: socket)
        _ = Self.spawnAndWait([Self.tmuxPath, "-S", socket, "kill-server"])
        // The kept directories go when this does, so only once the programs have ended (up to 10 s).
        let deadline = Date().addingTimeInterval(10)
        while programs.contains(where: Self.isRunning), Date() < deadline { usleep(10_000) }
    }

    /// The processes in this server's panes: tmux puts `TMUX=<socket>,…` in a pane's
    /// environment, and the programs the pane starts inherit it.
    private static func paneProcesses(socket: String) -> [pid_t] {
        let marker = Array("TMUX=\(socket),".utf8)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return Array(environment).split(separator: 0).contains { $0.starts(with: marker) }
        }
    }

    /// Whether `pid` is a process that has not ended (a zombie has).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let name = stat.lastIndex(of: ")"), let state = stat[name...].dropFirst(2).first else { return false }
        return state != "Z" && state != "X"
    }

    /// Runs a program with its standard streams on /dev/null and returns its exit status.
    static func spawnAndWait(_ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        // The tmux server outlives this call: it must not hold the test process's other descriptors.
        for fd in 3..<Int32(1024) where fcntl(fd, F_GETFD) != -1 { posix_spawn_file_actions_addclose(&actions, fd) }
        var pid: pid_t = 0
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        guard withCleanSignals({ posix_spawn(&pid, arguments[0], &actions, $0, &argv, environ) }) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    static let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "tmux"

    /// Runs a tmux command against this server.
    @discardableResult
    public func tmux(_ arguments: [String]) async throws -> String {
        let result = try await run(Self.tmuxPath, ["-S", socket] + arguments)
        guard result.status == 0 else { throw TmuxError(message: "tmux \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }

    /// Sends keys in tmux's names (`C-r`, `Enter`, `F2`) or literal text with `literal`.
    public func send(_ keys: String..., literal: Bool = false) async throws {
        try await tmux(["send-keys", "-t", "0"] + (literal ? ["-l"] : []) + keys)
    }

    /// The screen as text lines.
    public func screen() async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", "0"])
    }

    /// A tmux format value of the pane, such as `#{alternate_on}`.
    public func format(_ format: String) async throws -> String {
        try await tmux(["display-message", "-p", "-t", "0", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the screen satisfies a condition, polling every 50 ms.
    ///
    /// - Throws: ``TmuxError`` with the last screen when it does not happen in time.
    @discardableResult
    public func waitFor(_ description: String, timeout: Double = 15, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while true {
            let looked = Date()
            last = try await screen()
            if condition(last) { return last }
            // Only a capture begun after the deadline ends the wait: a busy test process can wake
            // this loop late, and the screen it would have seen in time is looked at once more.
            if looked >= deadline { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TmuxError(message: "timed out waiting for \(description); the screen was:\n\(last)")
    }

    /// Waits until the screen contains text.
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = 15) async throws -> String {
        try await waitFor("'\(text)'", timeout: timeout) { $0.contains(text) }
    }

    /// Presses `key` until the screen shows `text` (a tab walked to, whatever tabs come
    /// before it), at most `times` times.
    ///
    /// - Throws: ``TmuxError`` with the last screen when it never shows.
    @discardableResult
    public func press(_ key: String, until text: String, times: Int = 8) async throws -> String {
        for _ in 0..<times {
            let before = try await screen()
            if before.contains(text) { break }
            try await send(key)
            // The next press waits for this one's answer on the screen, so a slow run never
            // presses ahead and walks past the text.
            try await waitFor("the screen's answer to \(key)", timeout: 5) { $0 != before }
        }
        return try await waitFor(text)
    }

    /// Quits Tincan with ctrl+c, and when it asks about unsaved changes, ctrl+c again to quit
    /// without saving; then waits until its screen is gone (`gone` is on the screen after it).
    public func quitDiscardingChanges(until gone: String) async throws {
        try await send("C-c")
        let after = try await waitFor("the question about unsaved changes, or '\(gone)'") { $0.contains("Unsaved changes") || $0.contains(gone) }
        if !after.contains(gone) {
            try await send("C-c")
            try await waitFor(gone)
        }
    }

    /// Waits until one capture of the screen contains every text.
    ///
    /// A frame reaches tmux in pieces, so a capture can hold the top of a new frame
    /// over the bottom of the old one: checks that belong to one frame wait for all
    /// of it rather than reading a capture taken when only the first text was there.
    @discardableResult
    public func waitFor(all texts: [String], timeout: Double = 15) async throws -> String {
        let description = texts.map { "'\($0)'" }.joined(separator: ", ")
        return try await waitFor(description, timeout: timeout) { screen in texts.allSatisfy { screen.contains($0) } }
    }
}

/// A tmux step that failed, with what the screen showed.
public struct TmuxError: Error, CustomStringConvertible {
    public var message: String

    /// Creates an error.
    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
