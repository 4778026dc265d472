import Clocks
import Foundation
import Synchronization
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
import TincanSessions

@Suite("Per-request flow: redirects, retries, delays and repeats")
struct RequestFlowTests {
    static let flowFile = """
        requests:
          - name: Poll
            url: http://h/poll
            follow-redirects: false
            retry: 5
            retry-interval: 250ms
            delay: 2s
            repeat: 3
          - url: http://h/capped
            max-redirects: 2
        """

    @Test("the flow keys are read as written and a save writes them back the same")
    func flowKeysRoundTrip() throws {
        let session = try Session.parse(Self.flowFile, path: "f.tincan.yaml")
        let flow = session.requests[0].flow
        #expect(flow.followRedirects == false)
        #expect(flow.redirectPolicy == .doNotFollow)
        #expect(flow.retry == 5 && flow.sends == 6)
        #expect(flow.retryInterval == 0.25)
        #expect(flow.delay == 2)
        #expect(flow.repeatCount == 3 && flow.runs == 3)
        #expect(session.requests[1].flow.redirectPolicy == .follow(maximum: 2))
        #expect(session.requests[1].flow.runs == 1 && session.requests[1].flow.sends == 1)
        let written = session.yamlText()
        #expect(written.contains("retry-interval: 250ms"))
        #expect(written.contains("delay: 2s"))
        let reread = try Session.parse(written, path: "f.tincan.yaml")
        #expect(reread.requests.map(\.flow) == session.requests.map(\.flow))
    }

    @Test("a flow value out of its range is refused at its line and column with the range", arguments: [
        ("retry: -1", "retry: -1 is out of range (0…10000)"),
        ("retry: 10001", "retry: 10001 is out of range (0…10000)"),
        ("repeat: 0", "repeat: 0 is out of range (1…100000)"),
        ("max-redirects: 1.5", "max-redirects: 1.5"),
        ("delay: 2 days", "delay: '2 days' is not a number"),
        ("retry-interval: .inf", "retry-interval: .inf is out of range"),
        ("follow-redirects: maybe", "expected true or false"),
    ])
    func outOfRangeFlowValues(line: String, message: String) throws {
        let text = "requests:\n  - url: http://h/\n    \(line)\n"
        let error = try #require(throws: ConfigFileError.self) { try Session.parse(text, path: "f.tincan.yaml") }
        #expect(error.line == 3, "\(error)")
        #expect(error.column == line.firstIndex(of: ":").map { line.distance(from: line.startIndex, to: $0) + 7 }, "\(error)")
        #expect("\(error)".contains(message), "\(error)")
    }

    @Test("not following redirects and a maximum above 0 contradict each other and are refused")
    func contradictoryRedirectSettings() throws {
        let text = "requests:\n  - url: http://h/\n    follow-redirects: false\n    max-redirects: 3\n"
        let error = try #require(throws: ConfigFileError.self) { try Session.parse(text, path: "f.tincan.yaml") }
        #expect("\(error)".contains("max-redirects: 3 cannot apply"))
        // 0 says the same as follow-redirects: false, so the two go together.
        let agreeing = try Session.parse("requests:\n  - url: http://h/\n    follow-redirects: false\n    max-redirects: 0\n", path: "f.tincan.yaml")
        #expect(agreeing.requests[0].flow.redirectPolicy == .doNotFollow)
    }

    @Test("a request that does not follow redirects gets the 302 itself, and its Location can be asserted")
    func aRedirectIsAssertedWhenNotFollowed() async throws {
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - name: Stops at the redirect
                url: redirect/3
                follow-redirects: false
                capture:
                  next: {header: Location}
                assert:
                  status: 302
                  headers:
                    Location: /redirect/2
              - name: Two hops of three
                url: redirect/3
                max-redirects: 2
                assert:
                  status: 302
                  headers:
                    Location: /get
              - name: Followed by default
                url: redirect/3
                assert:
                  status: 200
            """, path: "r.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            #expect(report.outcomes.map(\.state) == [.passed, .passed, .passed], "\(report.outcomes.map(\.checks))")
            #expect(report.outcomes[0].result?.redirects.isEmpty == true)
            #expect(report.outcomes[1].result?.redirects.count == 2)
            #expect(report.outcomes[0].captures.first?.value == .string("/redirect/2"))
        }
    }

    @Test("a retried request is sent again until its checks pass, and its captures come from the passing send")
    func retryPollsUntilTheChecksPass() async throws {
        let id = UUID().uuidString
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - name: Wait for the job
                url: poll/\(id)/3
                retry: 5
                retry-interval: 10ms
                capture:
                  calls: {json: $.calls}
                assert:
                  status: 200
                  body:
                    $.ready: true
              - name: Uses the capture
                url: anything/{{calls}}
                assert:
                  body:
                    $.url: {contains: "/anything/3"}
            """, path: "p.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            #expect(report.outcomes[0].state == .passed, "\(report.outcomes[0].checks)")
            #expect(report.outcomes[0].attempts == 3)
            #expect(report.outcomes[0].captures.first?.value == .integer(3))
            #expect(report.outcomes[1].state == .passed, "\(report.outcomes[1].checks)")
            #expect(ReportWriter.outcomeText(report.outcomes[0]).contains("(sent 3 times)"))
        }
    }

    @Test("a retried request that never passes stops at its limit and reports the last send's failure")
    func retryStopsAtItsLimit() async throws {
        let id = UUID().uuidString
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - url: poll/\(id)/100
                retry: 2
                retry-interval: 0
                assert:
                  status: 200
            """, path: "p.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            #expect(report.outcomes.count == 1)
            #expect(report.outcomes[0].state == .failed)
            #expect(report.outcomes[0].attempts == 3)
            #expect(report.outcomes[0].checks.first { !$0.passed }?.failure?.contains("202") == true)
            // The server counted exactly three calls: the next one is the fourth.
            let (after, _) = try await replay(try Session.parse("base: \"{{server}}/\"\nrequests:\n  - url: poll/\(id)/100\n    capture:\n      calls: {json: $.calls}\n", path: "q.yaml"), on: server)
            #expect(after.outcomes[0].captures.first?.value == .integer(4))
        }
    }

    @Test("a repeated request runs and is reported once a run; a delay waits before each run")
    func repeatAndDelay() async throws {
        let id = UUID().uuidString
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - name: Count
                url: poll/\(id)/1000
                repeat: 3
                delay: 50ms
                capture:
                  calls: {json: $.calls}
            """, path: "p.tincan.yaml")
        try await withDemoServer { server in
            // Every pause is taken at once, and counted on the replay's clock.
            let (report, _) = try await replay(session, on: server) { $0.timing = Timing(ImmediateClock()) }
            #expect(report.outcomes.map(\.name) == ["Count [1/3]", "Count [2/3]", "Count [3/3]"])
            #expect(report.outcomes.map { $0.captures.first?.value } == [.integer(1), .integer(2), .integer(3)])
            #expect(report.outcomes.allSatisfy { $0.index == 0 && $0.attempts == 1 })
            #expect(report.duration == 0.15, "three runs, each 50 ms after the last: \(report.duration)")
        }
    }

    @Test("a request that cannot be built is not retried")
    func anUnbuildableRequestIsNotRetried() async throws {
        let session = try Session.parse("base: \"{{server}}/\"\nrequests:\n  - url: anything/{{missing}}\n    retry: 3\n    retry-interval: 60s\n", path: "m.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server) { $0.timing = Timing(ImmediateClock()) }
            #expect(report.outcomes[0].state == .failed)
            #expect(report.outcomes[0].attempts == 0)
            // Three retries would have waited three minutes on the replay's clock.
            #expect(report.duration == 0, "no retry interval was waited")
        }
    }
}

@Suite("Replaying several session files")
struct ReplayBatchTests {
    /// A session that sets a cookie, then checks the cookies it has: `fresh` must be absent at
    /// first, so a file that saw another file's cookie fails.
    static func cookieSession(_ name: String) throws -> Session {
        try Session.parse("""
            name: \(name)
            base: "{{server}}/"
            requests:
              - url: cookies
                assert:
                  body:
                    $.cookies.fresh: {exists: false}
              - url: cookies/set?fresh=\(name)
                assert:
                  body:
                    $.cookies.fresh: \(name)
              - url: delay/0.05
            """, path: "\(name).tincan.yaml")
    }

    @Test("files replayed side by side keep their own cookies and come back in file order", arguments: [1, 3])
    func filesRunSideBySide(jobs: Int) async throws {
        try await withDemoServer { server in
            var options = ReplayOptions()
            options.variables["server"] = server.baseURL
            let names = (1...6).map { "file\($0)" }
            let files = try names.map { ReplayBatch.File(session: try Self.cookieSession($0), path: "\($0).tincan.yaml") }
            let order = OrderLog()
            let results = await ReplayBatch(files: files, jobs: jobs, options: options).run(finished: { index, _ in order.append(index) })
            let reports = try results.map { try $0.get().report }
            #expect(reports.map(\.sessionName) == names)
            let failed = reports.flatMap(\.outcomes).flatMap(\.checks).filter { !$0.passed }
            #expect(failed.isEmpty, "\(failed)")
            #expect(reports.count { $0.passed } == names.count)
            #expect(order.values == Array(0..<6), "each file is handed over in file order")
        }
    }

    @Test("--jobs N runs up to N files at the same time, and --jobs 1 one after another", arguments: [(1, 1...1), (4, 2...4)])
    func jobsOverlap(jobs: Int, expected: ClosedRange<Int>) async throws {
        try await withDemoServer { server in
            var options = ReplayOptions()
            options.variables["server"] = server.baseURL
            let slow = try Session.parse("base: \"{{server}}/\"\nrequests:\n  - url: delay/0.5\n", path: "s.yaml")
            let files = (1...4).map { ReplayBatch.File(session: slow, path: "s\($0).yaml") }
            // Each request's time on the wire, from when it was sent to when it finished: the
            // most that overlap is how many files ran at once, however loaded the machine is.
            let intervals = Intervals()
            let results = await ReplayBatch(files: files, jobs: jobs, options: options).run(progress: { _, outcome in
                intervals.add(ending: ContinuousClock.now, lasting: outcome.result?.metrics.total ?? .zero)
            })
            #expect(try results.allSatisfy { try $0.get().report.passed })
            // Never more than --jobs; with four, at least two at once (all four on a quiet machine).
            #expect(expected.contains(intervals.mostAtOnce), "\(intervals.mostAtOnce) at once")
        }
    }

    @Test("a file that cannot run is reported as its own failure while the others run")
    func aFailingFileDoesNotStopTheOthers() async throws {
        try await withDemoServer { server in
            var options = ReplayOptions()
            options.variables["server"] = server.baseURL
            options.environment = "ci"
            let withEnvironment = try Session.parse("base: \"{{server}}/\"\nenvironments:\n  ci:\n    x: 1\nrequests:\n  - url: get\n", path: "a.yaml")
            let without = try Session.parse("base: \"{{server}}/\"\nrequests:\n  - url: get\n", path: "b.yaml")
            let results = await ReplayBatch(files: [.init(session: withEnvironment, path: "a.yaml"), .init(session: without, path: "b.yaml"), .init(session: withEnvironment, path: "c.yaml")], jobs: 2, options: options).run()
            #expect(try results[0].get().report.passed)
            #expect(throws: SessionError.self) { try results[1].get() }
            #expect(try results[2].get().report.passed)
        }
    }

    @Test("a shard takes every Nth file from the Kth, and the shards share the files out exactly")
    func shardsShareTheFilesOut() throws {
        let files = Array(1...10)
        #expect(ReplayBatch.shard(files, 1, of: 3) == [1, 4, 7, 10])
        #expect(ReplayBatch.shard(files, 3, of: 3) == [3, 6, 9])
        let all = (1...4).flatMap { ReplayBatch.shard(files, $0, of: 4) }
        #expect(all.sorted() == files)
        #expect(ReplayBatch.shard(files, 12, of: 12).isEmpty)
    }

    @Test("--shard is read as K/N and anything else is refused with what was expected", arguments: [
        ("0/3", "a shard K from 1 to 3"),
        ("4/3", "a shard K from 1 to 3"),
        ("1/0", "a shard count N from 1 to 10000"),
        ("1/10001", "a shard count N from 1 to 10000"),
        ("1", "K/N"),
        ("a/b", "K/N"),
        ("1/2/3", "K/N"),
        ("-1/2", "a shard K from 1 to 2"),
        ("99999999999999999999/2", "K/N"),
    ])
    func badShards(text: String, expected: String) throws {
        let error = try #require(throws: ShardError.self) { try Shard(parsing: text) }
        #expect(error.description.contains(expected), "\(error)")
        #expect(error.description.hasPrefix("--shard '\(text)'"))
        let read = try Shard(parsing: "2/5")
        #expect(read.index == 2 && read.count == 5)
    }
}

/// Spans of time, and how many of them overlap at most.
private final class Intervals: Sendable {
    private let spans = Mutex<[(start: ContinuousClock.Instant, end: ContinuousClock.Instant)]>([])
    func add(ending end: ContinuousClock.Instant, lasting duration: Duration) { spans.withLock { $0.append((end - duration, end)) } }
    var mostAtOnce: Int {
        let spans = spans.withLock { $0 }
        // At each start, the spans that began no later and have not ended.
        return spans.map { span in spans.count { $0.start <= span.start && $0.end > span.start } }.max() ?? 0
    }
}

/// Indexes in the order they were handed over.
private final class OrderLog: Sendable {
    private let storage = Mutex<[Int]>([])
    func append(_ value: Int) { storage.withLock { $0.append(value) } }
    var values: [Int] { storage.withLock { $0 } }
}
