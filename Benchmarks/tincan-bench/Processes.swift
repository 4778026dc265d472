import Foundation

/// What one run of a command cost.
struct ProcessCost {
    var seconds: Double
    /// Peak resident memory, from wait4's rusage.
    var maxRSSBytes: Int
}

/// Runs `arguments` (looked up on PATH) with stdout and stderr sent to /dev/null, and measures
/// its wall time and peak RSS.
///
/// The peak RSS comes from GNU time, not from this process's own wait4: a child that
/// posix_spawn starts shares this process's memory until it execs, and Linux counts that
/// memory in the child's ru_maxrss, so every child would seem as large as the benchmark itself.
func measure(_ arguments: [String]) throws -> ProcessCost {
    let report = NSTemporaryDirectory() + "tincan-bench-rss-\(getpid())"
    defer { unlink(report) }
    let arguments = ["/usr/bin/time", "-f", "%M", "-o", report] + arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let clock = ContinuousClock()
    let start = clock.now
    let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
    guard spawned == 0 else { throw BenchFailure("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { throw BenchFailure("wait4 failed: \(String(cString: strerror(errno)))") }
    }
    let elapsed = clock.now - start
    // WIFEXITED and WEXITSTATUS, which Swift does not import.
    guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
        throw BenchFailure("\(arguments.joined(separator: " ")) failed (wait status \(status))")
    }
    let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
    guard let kibibytes = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
        throw BenchFailure("GNU time reported no peak RSS for \(arguments.joined(separator: " ")): \(text)")
    }
    return ProcessCost(seconds: elapsed.inSeconds, maxRSSBytes: kibibytes * 1024)
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
    return ProcessCost(seconds: sorted[sorted.count / 2].seconds, maxRSSBytes: costs.map(\.maxRSSBytes).max() ?? 0)
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The tincan binary built next to this one (make bench builds both in release).
var tincanBinary: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("tincan").path
}

func mebibytes(_ bytes: Int) -> String {
    String(format: "%.1f MiB", Double(bytes) / 1_048_576)
}
