import Foundation
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
/// The waiting happens on Dispatch threads, never on Swift's cooperative pool: that pool has one
/// thread per core, and a test blocked on a child process would starve the in-process demo
/// server that the child is talking to.
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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // The blocking reads and the wait run on threads of their own. On Linux, Swift's global
    // executor is Dispatch's global queue: blocking its threads starves every task in the test
    // process, the in-process demo server's included, until Dispatch adds threads about a
    // second later.
    return await withCheckedContinuation { continuation in
        let errData = Mutex(Data())
        let errDone = DispatchSemaphore(value: 0)
        Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
            errDone.signal()
        }.start()
        Thread {
            // Both pipes are drained at once, so a large output cannot fill one and stall the child.
            let outData = out.fileHandleForReading.readDataToEndOfFile()
            errDone.wait()
            process.waitUntilExit()
            continuation.resume(returning: ProcessResult(
                status: process.terminationStatus,
                stdout: String(decoding: outData, as: UTF8.self),
                stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self),
                stdoutBytes: Array(outData)))
        }.start()
    }
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
