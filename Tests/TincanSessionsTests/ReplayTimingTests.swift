import Clocks
import Synchronization
import TestSupport
import Testing
import TincanCore
import TincanSessions

/// A replay's pauses (`delay:`, `retry-interval:`) are waited on the replay's clock, which a
/// test advances.
@Suite("A replay waits on its own clock")
struct ReplayTimingTests {
    @Test("delay: pauses before the request is sent, the whole delay and no less, and the report's duration is on that clock")
    func delayWaitsOnTheClock() async throws {
        try await withDemoServer { server in
            let session = try Session.parse("""
                base: "\(server.baseURL)"
                requests:
                  - url: /get?first
                  - url: /get?second
                    delay: 30
                """, path: "s.tincan.yaml")
            let clock = TestClock()
            var options = ReplayOptions()
            options.timing = Timing(clock)
            let finished = Mutex<[String]>([])
            let replay = Task {
                try await Replayer(session: session, path: "/tmp/s.tincan.yaml", options: options).run { outcome in
                    finished.withLock { $0.append(outcome.url) }
                }
            }
            await clock.untilSomethingSleeps()
            await clock.advance(by: .milliseconds(29_999))
            #expect(finished.withLock { $0.count } == 1, "the second request waits out its delay")
            await clock.advance(by: .milliseconds(1))
            let (report, _) = try await replay.value
            #expect(report.outcomes.map(\.state) == [.passed, .passed])
            #expect(report.duration == 30, "only the test clock's time passed: \(report.duration)")
        }
    }

    @Test("retry: sends again after each retry-interval on the clock, until the checks pass or the retries run out")
    func retryIntervalWaitsOnTheClock() async throws {
        try await withDemoServer { server in
            let session = try Session.parse("""
                base: "\(server.baseURL)"
                requests:
                  - url: /status/503
                    retry: 2
                    retry-interval: 10
                    assert:
                      status: 200
                """, path: "s.tincan.yaml")
            let clock = TestClock()
            var options = ReplayOptions()
            options.timing = Timing(clock)
            let replay = Task { try await Replayer(session: session, path: "/tmp/s.tincan.yaml", options: options).run() }
            for _ in 1...2 {
                await clock.untilSomethingSleeps()
                await clock.advance(by: .seconds(10))
            }
            let (report, _) = try await replay.value
            let outcome = try #require(report.outcomes.first)
            #expect(outcome.attempts == 3)
            #expect(outcome.state == .failed)
            #expect(report.duration == 20)
        }
    }
}
