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
    currentDirectory: String? = nil
) async throws -> ProcessResult {
    var outPipe: [Int32] = [0, 0]
    var errPipe: [Int32] = [0, 0]
    guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw SpawnError(message: "pipe: \(errno)") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
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
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    close(outPipe[1])
    close(errPipe[1])
    guard spawned == 0 else {
        close(outPipe[0])
        close(errPipe[0])
        throw SpawnError(message: "cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    let (outRead, errRead, child) = (outPipe[0], errPipe[0], pid)
    return await withCheckedContinuation { continuation in
        let errData = Mutex<[UInt8]>([])
        let errDone = DispatchSemaphore(value: 0)
        Thread {
            errData.withLock { $0 = readAll(errRead) }
            errDone.signal()
        }.start()
        Thread {
            // Both pipes are drained at once, so a large output cannot fill one and stall the child.
            let outData = readAll(outRead)
            errDone.wait()
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1, errno == EINTR {}
            let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            let errBytes = errData.withLock { $0 }
            continuation.resume(returning: ProcessResult(
                status: exitStatus,
                stdout: String(decoding: outData, as: UTF8.self),
                stderr: String(decoding: errBytes, as: UTF8.self),
                stdoutBytes: outData))
        }.start()
    }
}

/// glibc's posix_spawn_file_actions_addchdir_np (2.29+), hidden from Swift's Glibc module.
private let addChdir: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
        fatalError("glibc has no posix_spawn_file_actions_addchdir_np")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
}()

/// glibc's posix_spawn_file_actions_addclosefrom_np (2.34+), hidden from Swift's Glibc module.
private let addCloseFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
        fatalError("glibc has no posix_spawn_file_actions_addclosefrom_np")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// Reads a descriptor to its end and closes it.
private func readAll(_ fd: Int32) -> [UInt8] {
    defer { close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = read(fd, &chunk, chunk.count)
        if count > 0 {
            result += chunk[0..<count]
        } else if count == 0 || errno != EINTR {
            return result
        }
    }
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
public func tincan(_ arguments: [String], in directory: String? = nil) async throws -> ProcessResult {
    try await run(BuiltProducts.tincan, arguments, environment: ["LANG": "en_US.UTF-8"], currentDirectory: directory)
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
    configure: (inout SendingConfiguration) -> Void = { _ in }
) async throws -> TaskResult {
    var configuration = SendingConfiguration()
    configure(&configuration)
    let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: draft.baseURL), configuration: configuration)
    let result = try await manager.send(draft.build())
    try await manager.invalidate(cancelingTasks: true)
    return result
}
