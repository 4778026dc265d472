import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The result of running a program: its exit status and both output streams.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutBytes: [UInt8]
    /// The child's peak resident memory (its VmHWM, read while it runs), in bytes.
    ///
    /// Not `ru_maxrss`: posix_spawn starts the child with the parent's memory (vfork), and exec
    /// folds that memory's high-water mark into the child's, so under the whole suite a small
    /// child reported the test runner's 179 MB.
    public var maxRSSBytes: Int = 0
}

/// Locates the binaries the package builds, next to the test bundle.
public enum BuiltProducts {
    /// The directory holding the built products (`.build/<triple>/debug`).
    public static var directory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            if url.pathExtension == "xctest" { return url.deletingLastPathComponent() }
            let candidate = url.deletingLastPathComponent().appendingPathComponent("tincan")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return url.deletingLastPathComponent() }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug")
    }

    /// The path of the `tincan` executable.
    public static var tincan: String { directory.appendingPathComponent("tincan").path }
}

/// Runs a program to completion and captures its output.
///
/// It is spawned with posix_spawn and reaped with waitpid on a thread of its own. Foundation's
/// `Process` was used before, and under the parallel load of the whole suite (tmux clients, the
/// editor test and CLI runs at once) it once failed to notice a child's exit, leaving the test
/// waiting on a zombie. The waiting happens on threads of its own, never on Swift's cooperative
/// pool: on Linux that pool *is* Dispatch's global queue, and blocking it starves the in-process
/// demo server that the child is talking to.
///
/// - Parameters:
///   - executable: The program's path.
///   - arguments: Its arguments.
///   - environment: Extra environment variables, over the current ones.
///   - currentDirectory: The working directory, or the current one.
public func run(
    _ executable: String,
    _ arguments: [String],
    environment: [String: String] = [:],
    currentDirectory: String? = nil,
    standardOutput: OutputTarget = .pipe,
    standardInput: InputSource = .null
) async throws -> ProcessResult {
    var outPipe: [Int32] = [0, 0]
    var errPipe: [Int32] = [0, 0]
    guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw SpawnError(message: "pipe: \(errno)") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var inPipe: [Int32] = [-1, -1]
    switch standardInput {
    case .null:
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    case .file(let path):
        posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
    case .pipe:
        guard pipe(&inPipe) == 0 else { throw SpawnError(message: "pipe: \(errno)") }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
    }
    var terminal: PseudoTerminal?
    if case .file(let path) = standardOutput {
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    } else if case .terminal = standardOutput {
        terminal = try PseudoTerminal()
    } else {
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    }
    if let terminal {
        // Both streams are the terminal, as in an interactive shell: what reaches it is read back.
        posix_spawn_file_actions_adddup2(&actions, terminal.follower, 1)
        posix_spawn_file_actions_adddup2(&actions, terminal.follower, 2)
        posix_spawn_file_actions_addclose(&actions, terminal.follower)
        posix_spawn_file_actions_addclose(&actions, terminal.leader)
    } else {
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
    }
    for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
    if let currentDirectory { _ = addChdir(&actions, currentDirectory) }
    // The child gets only its three streams: an inherited listening socket or another test's
    // pipe end would keep that server's port or that pipe open behind the test's back.
    _ = addCloseFrom(&actions, 3)
    let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in envp + argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = withCleanSignals { posix_spawn(&pid, executable, &actions, $0, argv, envp) }
    close(outPipe[1])
    close(errPipe[1])
    if let terminal {
        // The terminal's output ends once the child's side has no writer left.
        close(terminal.follower)
        close(outPipe[0])
    }
    if case .pipe(let bytes) = standardInput {
        close(inPipe[0])
        // Written on a thread of its own, so a child that reads slowly (or not at all) cannot
        // block the test; the write end closes after the last byte, as a shell pipeline's does.
        let writeEnd = inPipe[1]
        // A child that stops reading must fail the write with EPIPE, not kill the test runner
        // (NIO ignores SIGPIPE process-wide as well, once it starts).
        signal(SIGPIPE, SIG_IGN)
        Thread {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
            close(writeEnd)
        }.start()
    }
    guard spawned == 0 else {
        if let terminal { close(terminal.leader) } else { close(outPipe[0]) }
        close(errPipe[0])
        throw SpawnError(message: "cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    let (outRead, errRead, child) = (terminal?.leader ?? outPipe[0], errPipe[0], pid)
    let peak = PeakMemory(pid: child, executable: executable)
    return await withCheckedContinuation { continuation in
        let errData = Mutex<[UInt8]>([])
        let errDone = DispatchSemaphore(value: 0)
        Thread {
            errData.withLock { $0 = readAll(errRead) }
            errDone.signal()
        }.start()
        Thread {
            // Both pipes are drained at once, so a large output cannot fill one and stall the child.
            var outData: [UInt8]
            if case .pipeClosedAfter(let limit) = standardOutput {
                // As `| head -c N` does: read N bytes, then go away.
                outData = readAll(outRead, upTo: limit)
            } else {
                outData = readAll(outRead)
            }
            errDone.wait()
            var status: Int32 = 0
            var usage = rusage()
            while wait4(child, &status, 0, &usage) == -1, errno == EINTR {}
            let maxRSS = peak.stop()
            let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            let errBytes = errData.withLock { $0 }
            continuation.resume(returning: ProcessResult(
                status: exitStatus,
                stdout: String(decoding: outData, as: UTF8.self),
                stderr: String(decoding: errBytes, as: UTF8.self),
                stdoutBytes: outData,
                maxRSSBytes: maxRSS))
        }.start()
    }
}

/// Follows a child's peak resident memory from /proc while it runs, every 2 ms.
private final class PeakMemory: Sendable {
    private let stopped = Mutex(false)
    private let peak = Mutex(0)
    private let finished = DispatchSemaphore(value: 0)

    init(pid: pid_t, executable: String) {
        // The kernel keeps the first 15 bytes of the program's name; before the exec, the name
        // (and the memory) is still the parent's, and is not counted.
        let name = String((executable as NSString).lastPathComponent.prefix(15))
        Thread { [self] in
            while !stopped.withLock({ $0 }) {
                if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) {
                    let fields = Dictionary(status.split(separator: "\n").compactMap { line -> (String, String)? in
                        guard let colon = line.firstIndex(of: ":") else { return nil }
                        return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                    }, uniquingKeysWith: { first, _ in first })
                    if fields["Name"] == name, let kilobytes = fields["VmHWM"]?.split(separator: " ").first.flatMap({ Int($0) }) {
                        peak.withLock { $0 = max($0, kilobytes * 1024) }
                    }
                }
                usleep(2000)
            }
            finished.signal()
        }.start()
    }

    /// Stops following, and returns the highest peak seen.
    func stop() -> Int {
        stopped.withLock { $0 = true }
        finished.wait()
        return peak.withLock { $0 }
    }
}

/// Runs `body` with spawn attributes that give the child no blocked signals and every signal's
/// default action.
///
/// A child inherits the spawning thread's signal mask and its ignored signals. Test threads run
/// with signals blocked (Dispatch's workers block most of them), so a tmux server started from
/// one ignored the SIGTERM that `kill-server` sends and outlived the test run, one per test.
public func withCleanSignals<T>(_ body: (UnsafePointer<posix_spawnattr_t>) -> T) -> T {
    SpawnAttributes.withCleanSignals(body)
}

/// glibc's posix_spawn_file_actions_addchdir_np (2.29+), hidden from Swift's Glibc module.
private let addChdir: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
        fatalError("glibc has no posix_spawn_file_actions_addchdir_np")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
}()

/// glibc's posix_spawn_file_actions_addclosefrom_np (2.34+), hidden from Swift's Glibc module.
let addCloseFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
        fatalError("glibc has no posix_spawn_file_actions_addclosefrom_np")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// Where a child's standard output goes.
public enum OutputTarget: Sendable {
    /// A pipe read to its end (``ProcessResult/stdout``).
    case pipe
    /// A pipe whose reader closes it after this many bytes, as `| head -c N` does; the
    /// child's later writes fail with EPIPE.
    case pipeClosedAfter(Int)
    /// A file opened for writing, such as `/dev/full`.
    case file(String)
    /// A pseudo-terminal for standard output and standard error both, in raw output mode (no
    /// line feed becomes CR LF): ``ProcessResult/stdout`` is every byte that reached the
    /// terminal, and `stderr` is empty.
    case terminal
}

/// A pseudo-terminal pair: the leader the test reads, the follower the child writes to.
struct PseudoTerminal {
    let leader: Int32
    let follower: Int32

    init() throws {
        let leader = Self.function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)(O_RDWR | O_NOCTTY)
        let grant = Self.function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        let unlock = Self.function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        let name = Self.function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        guard leader >= 0, grant(leader) == 0, unlock(leader) == 0, let name = name(leader) else {
            throw SpawnError(message: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let follower = open(name, O_RDWR | O_NOCTTY)
        guard follower >= 0 else {
            close(leader)
            throw SpawnError(message: "cannot open \(String(cString: name)): \(String(cString: strerror(errno)))")
        }
        // Output as written: no processing, so a carriage return or escape arrives as it was sent.
        var settings = termios()
        tcgetattr(follower, &settings)
        settings.c_oflag &= ~tcflag_t(OPOST)
        tcsetattr(follower, TCSANOW, &settings)
        self.leader = leader
        self.follower = follower
    }

    /// A glibc function Swift's Glibc module hides (it needs _XOPEN_SOURCE).
    private static func function<F>(_ name: String, as type: F.Type) -> F {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { fatalError("glibc has no \(name)") }
        return unsafeBitCast(symbol, to: type)
    }
}

/// What a child's standard input is.
public enum InputSource: Sendable {
    /// `/dev/null`, as CI gives a step: reads end at once.
    case null
    /// A file opened for reading, as `< FILE` does.
    case file(String)
    /// A pipe that these bytes are written to, then closed, as `printf … |` does; no bytes is a
    /// pipe closed at once.
    case pipe([UInt8])
}

/// Reads a descriptor to its end (or `limit` bytes) and closes it.
private func readAll(_ fd: Int32, upTo limit: Int = .max) -> [UInt8] {
    defer { close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while result.count < limit {
        let count = read(fd, &chunk, min(chunk.count, limit - result.count))
        if count > 0 {
            result += chunk[0..<count]
        } else if count == 0 || errno != EINTR {
            return result
        }
    }
    return result
}

/// A program that could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// A temporary directory that removes itself.
public final class TemporaryDirectory: Sendable {
    /// Its path.
    public let path: String

    /// Creates a new, empty directory.
    public init() throws {
        path = NSTemporaryDirectory() + "tincan-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to `name` inside the directory and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = (path as NSString).appendingPathComponent(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

import NIOSSL
import TincanCore
import TincanDemoServer

/// Runs the built `tincan` with `arguments` in a UTF-8 locale.
///
/// - Parameter environment: More variables, over the current ones and the locale.
public func tincan(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:], standardOutput: OutputTarget = .pipe, standardInput: InputSource = .null) async throws -> ProcessResult {
    try await run(BuiltProducts.tincan, arguments, environment: ["LANG": "en_US.UTF-8"].merging(environment) { $1 }, currentDirectory: directory, standardOutput: standardOutput, standardInput: standardInput)
}

/// Runs `body` with a demo server started in-process on 127.0.0.1 and a free port (https with `tls`).
public func withDemoServer<T>(tls: TLSConfiguration? = nil, _ body: (DemoServer) async throws -> T) async throws -> T {
    let server = try await DemoServer.start(tls: tls)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Builds and sends one request through a fresh session manager, then invalidates it.
public func send(
    _ draft: RequestDraft,
    configure: (inout TaskOptions) -> Void = { _ in }
) async throws -> TaskResult {
    var options = TaskOptions()
    configure(&options)
    let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: draft.baseURL))
    let result = try await manager.send(draft.build(), options: options)
    try await manager.invalidate(cancelingTasks: true)
    return result
}

extension TemporaryDirectory {
    /// A "full" device (every write fails with ENOSPC) of the test's own: a node made with mknod
    /// inside the directory when the tests may (as root), else the system's `/dev/full`.
    ///
    /// A regression that renames a file over the device then replaces only this node: code that
    /// did exactly that once turned a root machine's `/dev/full` into a regular file.
    public func fullDevice() -> String {
        let node = (path as NSString).appendingPathComponent("full")
        // Device 1,7 is Linux's full device (dev_t 0x107 is makedev(1, 7)).
        return mknod(node, S_IFCHR | 0o666, 0x107) == 0 ? node : "/dev/full"
    }
}

/// Writes an executable script (mode 0755) through a descriptor that is closed on exec.
///
/// A script written with `String.write(toFile:)` is open for writing, without close-on-exec, for
/// as long as the write takes; a child another test spawns meanwhile inherits that descriptor, and
/// then running the script fails with "Text file busy" (ETXTBSY) for as long as the child lives.
public func writeExecutable(_ text: String, to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw SpawnError(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 || errno == EINTR else { throw SpawnError(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
        written += max(count, 0)
    }
    guard fchmod(descriptor, 0o755) == 0 else { throw SpawnError(message: "cannot make \(path) executable: \(String(cString: strerror(errno)))") }
}
