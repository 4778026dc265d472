import Foundation
import Synchronization

/// What one run of a command cost.
struct ProcessCost {
    var seconds: Double
    /// Peak resident memory (the kernel's high-water mark, VmHWM, as GNU time reports it), or 0
    /// when the run was not measured for memory.
    var maxRSSBytes: Int
    /// CPU time in user space and in the kernel, as GNU time reports them (0 when not measured).
    var userSeconds: Double = 0
    var systemSeconds: Double = 0
}

/// Runs `arguments` (looked up on PATH) with standard output sent to `standardOutput` (a file,
/// or /dev/null) and standard error to /dev/null, and measures its wall time and, when
/// `peakMemory` is set, its peak RSS.
///
/// Every run has a time bound: a command still running after `limit` is killed with its whole
/// process group, and the benchmark fails saying so, instead of waiting on a stall for hours.
/// A command that exits with anything but 0 fails the benchmark too.
///
/// The peak RSS comes from GNU time, not from this process's own wait4: a child that
/// posix_spawn starts shares this process's memory until it execs, and Linux counts that
/// memory in the child's ru_maxrss, so every child would seem as large as the benchmark itself.
/// Start-up timings leave GNU time out (`peakMemory: false`), since its own fork and exec would
/// be a large part of what they measure.
///
/// Async callers wait on a thread of their own: a blocked `waitpid` on the cooperative pool
/// would hold one of its two threads for the whole run, and the in-process demo server, whose
/// routes and body writes run on that pool, served the measured client with half of it.
func measure(_ arguments: [String], standardOutput: String = "/dev/null", limit: Duration = .seconds(300), peakMemory: Bool = true) async throws -> ProcessCost {
    try await offThePool { try measure(arguments, standardOutput: standardOutput, limit: limit, peakMemory: peakMemory) }
}

/// Runs blocking `work` (a wait for a child, a read of its pipe) on a thread of its own, so that
/// it holds none of the cooperative pool's threads, which the in-process demo server needs.
/// (The tests' TestSupport has the same helper; the bench does not depend on test code.)
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
        Thread { continuation.resume(returning: Result { try work() }) }.start()
    }
    return try result.get()
}

/// ``measure(_:standardOutput:limit:peakMemory:)`` for callers that are not async: it blocks.
func measure(_ arguments: [String], standardOutput: String = "/dev/null", limit: Duration = .seconds(300), peakMemory: Bool = true) throws -> ProcessCost {
    let report = NSTemporaryDirectory() + "tincan-bench-rss-\(getpid())"
    defer { unlink(report) }
    let command = peakMemory ? ["/usr/bin/time", "-f", "%U %S %M", "-o", report] + arguments : arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // Its own process group, so that the time bound kills GNU time's child too.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let clock = ContinuousClock()
    let start = clock.now
    let spawned = posix_spawnp(&pid, command[0], &actions, &attributes, argv, environ)
    guard spawned == 0 else { throw BenchFailure("cannot start \(command[0]): \(String(cString: strerror(spawned)))") }
    let expired = ExpiryFlag()
    let child = pid
    let watchdog = DispatchWorkItem {
        expired.set()
        kill(-child, SIGKILL)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + limit.inSeconds, execute: watchdog)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { throw BenchFailure("wait4 failed: \(String(cString: strerror(errno)))") }
    }
    watchdog.cancel()
    let elapsed = clock.now - start
    let described = arguments.joined(separator: " ")
    if expired.isSet { throw BenchFailure("\(described) did not finish within \(limit): a stall, killed") }
    // WIFEXITED and WEXITSTATUS, which Swift does not import.
    guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
        throw BenchFailure("\(described) failed (wait status \(status))")
    }
    guard peakMemory else { return ProcessCost(seconds: elapsed.inSeconds, maxRSSBytes: 0) }
    let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
    let fields = text.split(separator: "\n").last?.split(separator: " ") ?? []
    guard fields.count == 3, let user = Double(fields[0]), let system = Double(fields[1]), let kibibytes = Int(fields[2]) else {
        throw BenchFailure("GNU time reported no CPU times and peak RSS for \(described): \(text)")
    }
    return ProcessCost(seconds: elapsed.inSeconds, maxRSSBytes: kibibytes * 1024, userSeconds: user, systemSeconds: system)
}

/// Set once by the watchdog that killed a run.
final class ExpiryFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { flag.load(ordering: .sequentiallyConsistent) }
}

/// Removes `paths` and flushes dirty pages to disk, so a run neither frees the last run's file
/// nor waits on its writeback.
func settle(removing paths: [String]) {
    for path in paths { unlink(path) }
    sync()
}

/// The median of a list of costs, by time; the memory is the highest seen.
func median(_ costs: [ProcessCost]) -> ProcessCost {
    let sorted = costs.sorted { $0.seconds < $1.seconds }
    var median = sorted[sorted.count / 2]
    median.maxRSSBytes = costs.map(\.maxRSSBytes).max() ?? 0
    return median
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Fails the benchmark run with `message` unless `condition` holds: a benchmark whose outputs are
/// incomplete or differ from the reference's measures nothing.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw BenchFailure("output check failed: \(message())") }
}

/// The tincan binary built next to this one (make bench builds both in release).
var tincanBinary: String {
    URL(fileURLWithPath: benchBinary).deletingLastPathComponent().appendingPathComponent("tincan").path
}

/// This benchmark binary, for the rows that run a mode of it as a process of their own.
var benchBinary: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
}

func mebibytes(_ bytes: Int) -> String {
    String(format: "%.1f MiB", Double(bytes) / 1_048_576)
}

/// A JSON object read from a file some command wrote, or a failure that names the file.
func jsonObject(atPath path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw BenchFailure("\(path) does not hold a JSON object: \(String(decoding: data.prefix(200), as: UTF8.self))")
    }
    return object
}

/// A new folder for one benchmark's files (`tincan-bench-NAME-PID` in the temporary folder); the
/// caller removes it when done.
func makeScratchDirectory(_ name: String) throws -> String {
    let directory = NSTemporaryDirectory() + "tincan-bench-" + (name.isEmpty ? "" : name + "-") + String(ProcessInfo.processInfo.processIdentifier)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory
}
