import Foundation
import TestSupport
import Testing

/// Whether process `pid` is alive (a zombie is not).
private func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state != "Z" && state != "X"
}

@Suite("Processes the tests start get a clean signal state")
struct ProcessSpawnTests {
    @Test("a child starts with no blocked and no ignored signals")
    func childSignalsAreClean() async throws {
        let status = try await run("/bin/cat", ["/proc/self/status"]).stdout
        func mask(_ name: String) -> UInt64? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap { UInt64($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) }
        }
        // Signals 1 to 31; glibc keeps 32 and 33 for its own threads, whatever the spawn asks.
        let standard: UInt64 = 0x7FFF_FFFF
        #expect(mask("SigBlk").map { $0 & standard } == 0)
        #expect(mask("SigIgn").map { $0 & standard } == 0)
    }

    @Test("a tmux server is gone once its session is released")
    func tmuxServersDoNotOutliveTheirTest() async throws {
        var session: TmuxSession? = try await TmuxSession(command: "sleep 60")
        let pid = try #require(Int32(try await session?.format("#{pid}") ?? ""))
        #expect(isRunning(pid))
        session = nil
        let deadline = Date().addingTimeInterval(5)
        while isRunning(pid), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!isRunning(pid), "tmux server \(pid) ignored kill-server's SIGTERM")
        if isRunning(pid) { kill(pid, SIGKILL) }
    }
}
