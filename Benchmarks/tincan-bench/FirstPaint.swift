import Foundation
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Time from process start to first paint, versus Posting (the Python TUI client)

/// A program under a pseudo-terminal of 120x40, timed from spawn until `marker` appears in what
/// it writes to the terminal (the first frame), then stopped.
struct PaintProbe {
    var name: String
    var arguments: [String]
    var marker: String
    var environment: [String: String] = [:]

    /// Seconds from spawn to the marker.
    func measureOnce(timeout: Double = 30) throws -> Double {
        let program = try TerminalProgram(name: name, arguments: arguments, environment: environment)
        defer { program.stop() }
        try program.waitFor(marker, timeout: timeout)
        return (ContinuousClock.now - program.started).inSeconds
    }
}

/// A program running under a pseudo-terminal of 120x40, as a user starts it: keys are written to
/// it and what it draws is read until a marker appears. ``stop()`` ends it (SIGTERM, then SIGKILL).
final class TerminalProgram {
    let name: String
    let pid: pid_t
    let started: ContinuousClock.Instant
    private let master: Int32
    private var output: [UInt8] = []

    init(name: String, arguments: [String], environment extra: [String: String]) throws {
        self.name = name
        let master = PTY.openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, PTY.grantpt(master) == 0, PTY.unlockpt(master) == 0, let slaveName = PTY.ptsname(master) else {
            throw BenchFailure("cannot open a pseudo-terminal")
        }
        self.master = master
        let slave = String(cString: slaveName)
        // The window size comes from stty (Swift cannot call the variadic ioctl).
        guard runQuietly(["stty", "-F", slave, "rows", "40", "cols", "120"]) == 0 else {
            close(master)
            throw BenchFailure("stty could not size \(slave)")
        }

        var attributes: posix_spawnattr_t = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (0x80 in glibc's spawn.h, hidden from Swift): the child leads a new session, so the
        // pseudo-terminal it opens becomes its controlling terminal.
        posix_spawnattr_setflags(&attributes, 0x80)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, slave, O_RDWR, 0) }
        posix_spawn_file_actions_addclose(&actions, master)

        var environment = ProcessInfo.processInfo.environment.merging(["TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"]) { $1 }
        environment.merge(extra) { $1 }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in envp + argv { free(pointer) } }

        started = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            close(master)
            throw BenchFailure("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
    }

    /// Reads what the program draws until `marker` appears in what it wrote since the last marker.
    func waitFor(_ marker: String, timeout: Double = 30) throws {
        let needle = Array(marker.utf8)
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            if let found = Self.firstIndex(of: needle, in: output) {
                output.removeFirst(found + needle.count)
                return
            }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = read(master, &chunk, chunk.count)
            if count <= 0 { break }
            output += chunk[0..<count]
        }
        let tail = String(decoding: output.suffix(600), as: UTF8.self).unicodeScalars.map { $0.value < 0x20 ? "·" : String($0) }.joined()
        throw BenchFailure("\(name) drew no '\(marker)' within \(timeout) s; the last of what it drew: \(tail)")
    }

    /// Types `text` into the terminal.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// A line of the program's /proc status (`VmHWM`, `VmRSS`), in bytes.
    func status(_ field: String) throws -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            throw BenchFailure("no \(field) in /proc/\(pid)/status")
        }
        return kilobytes * 1024
    }

    /// Ends the program: SIGTERM, a moment to restore the terminal, then SIGKILL.
    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<100 where waitpid(pid, &status, WNOHANG) == 0 { usleep(10_000) }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}

/// glibc's pseudo-terminal calls, which the Glibc module hides behind _XOPEN_SOURCE: looked up
/// once with dlsym.
enum PTY {
    private static func function<T>(_ name: String, as type: T.Type) -> T {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { fatalError("glibc has no \(name)") }
        return unsafeBitCast(symbol, to: type)
    }

    static let openpt = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    static let grantpt = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    static let unlockpt = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    static let ptsname = function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
}

/// Runs a command with no output and returns its exit status.
func runQuietly(_ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        return -1
    }
    process.waitUntilExit()
    return process.terminationStatus
}

/// Where `posting` is installed, if it is.
func postingExecutable() -> String? {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
    return paths.map { ($0 as NSString).appendingPathComponent("posting") }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func benchmarkFirstPaint() throws {
    let rounds = 9
    let home = NSTemporaryDirectory() + "tincan-bench-home-\(getpid())"
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: home) }
    // A fresh, empty home for both: no user config, themes or history to read.
    let clean = ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share"]
    let tincan = PaintProbe(name: "tincan", arguments: [tincanBinary, "--no-mouse"], marker: "Preview", environment: clean)
    _ = try tincan.measureOnce()
    let tincanTimes = try (0..<rounds).map { _ in try tincan.measureOnce() }

    print("Time from process start to first paint, 120x40 pseudo-terminal (median of \(rounds), after one warm-up)")
    printRow(["program", "median", "min", "max"])
    printRow(["tincan (with its demo server)", String(format: "%.1f ms", median(tincanTimes) * 1000), String(format: "%.1f ms", tincanTimes.min()! * 1000), String(format: "%.1f ms", tincanTimes.max()! * 1000)])
    guard let posting = postingExecutable() else {
        print("posting: not installed (make bench installs it with pip install posting); no ratio")
        print("target: tincan at most 25 ms, and at least 50x sooner than Posting")
        return
    }
    // Posting (Textual) draws on standard error; its first frame holds the URL bar placeholder,
    // "Enter a URL…", whose first letter carries the cursor style, so the marker skips it.
    let reference = PaintProbe(name: "posting", arguments: [posting], marker: "nter a URL", environment: clean)
    _ = try reference.measureOnce()
    let postingTimes = try (0..<rounds).map { _ in try reference.measureOnce() }
    printRow(["posting \(postingVersion(posting))", String(format: "%.1f ms", median(postingTimes) * 1000), String(format: "%.1f ms", postingTimes.min()! * 1000), String(format: "%.1f ms", postingTimes.max()! * 1000)])
    print(String(format: "tincan paints first %.1fx sooner than Posting", median(postingTimes) / median(tincanTimes)))
    print("target: tincan at most 25 ms, and at least 50x sooner than Posting")
}

func postingVersion(_ executable: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pip", "show", "posting"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try? process.run()
    process.waitUntilExit()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return text.split(separator: "\n").first { $0.hasPrefix("Version: ") }.map { String($0.dropFirst(9)) } ?? ""
}
