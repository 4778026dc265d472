import Foundation
import Clocks
import Synchronization
import TestSupport
import Testing
@testable import TincanCore

/// An executor that keeps the jobs it is given and never runs them: what was started on it
/// can be counted.
private final class HeldExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
    }

    var held: Int { jobs.withLock { $0.count } }
}

/// Cancels each task as it is told the task resumed: the cancel lands between `resume()`'s
/// change of state and the start of the task's work.
private struct CancelOnResume: EventMonitor {
    func task(_ task: SessionTask, didEmit event: TaskEvent) {
        if case .resumed = event { task.cancel() }
    }
}

private func ok(_ request: HTTPRequest, _ headers: HTTPHeaders = ["Content-Length": "0"]) -> ScriptedTransport.Reply {
    .response(HTTPResponse(url: request.url, statusCode: 200, headers: headers))
}

private func status(_ code: Int, _ request: HTTPRequest, _ headers: HTTPHeaders = ["Content-Length": "0"]) -> ScriptedTransport.Reply {
    .response(HTTPResponse(url: request.url, statusCode: code, headers: headers))
}

/// The request pipeline (retries, redirects, cookies, cancellation) over a scripted transport:
/// no socket, and time advanced by the test.
@Suite("The request pipeline over a scripted transport")
struct PipelineOverScriptTests {
    private static func manager(_ transport: ScriptedTransport, clock: TestClock<Duration> = TestClock()) throws -> URLSessionManager {
        URLSessionManager(http: try HTTPSessionManager(baseURL: nil), transport: transport, timing: Timing(clock, epoch: Date(timeIntervalSince1970: 1_800_000_000)))
    }

    private static func options(retries: Int = 0, delay: Double = 2) -> TaskOptions {
        var options = TaskOptions(responseSerializer: HTTPResponseSerializer())
        if retries > 0 { options.retryPolicy = RetryPolicy(limit: retries, delay: delay, random: { 1 }) }
        return options
    }

    @Test("a cancel that lands between resume and the start of the work ends the task, and no work starts")
    func aCancelDuringResumeStartsNoWork() async throws {
        let executor = HeldExecutor()
        let worked = Mutex(false)
        let request = try RequestDraft(method: "GET", url: "http://127.0.0.1:9/").build()
        let task = SessionTask(identifier: 1, request: request, kind: .data, executor: executor, monitors: [CancelOnResume()]) { task in
            worked.withLock { $0 = true }
            return TaskResult(request: task.originalRequest)
        }
        task.resume()
        let result = await task.result()
        #expect(result.transportError?.reason == .cancelled)
        #expect(task.state == .completed)
        // Before the fix the work was started after the cancel, on this executor, and sent.
        #expect(executor.held == 0)
        #expect(!worked.withLock { $0 })
    }

    @Test("a retry waits its backoff on the session's clock, doubling each time, and not a moment less")
    func retriesWaitOnTheInjectedClock() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport { request, index in index < 2 ? status(503, request) : ok(request) }
        let manager = try Self.manager(transport, clock: clock)
        let task = try manager.task(with: try RequestDraft(method: "GET", url: "http://127.0.0.1:9/flaky").build(), options: Self.options(retries: 3))
        task.resume()

        await transport.waitForRequests(1)
        await clock.untilSomethingSleeps { task.state == .completed }
        await clock.advance(by: .milliseconds(1_999))
        #expect(transport.requests.count == 1)
        await clock.advance(by: .milliseconds(1))
        await transport.waitForRequests(2)

        // The second backoff is twice the first.
        await clock.untilSomethingSleeps { task.state == .completed }
        await clock.advance(by: .milliseconds(3_999))
        #expect(transport.requests.count == 2)
        await clock.advance(by: .milliseconds(1))
        let result = await task.result()
        #expect(result.response?.statusCode == 200)
        #expect(result.retries.count == 2)
        #expect(transport.requests.count == 3)
    }

    @Test("Retry-After in seconds sets the wait instead of the backoff")
    func retryAfterSetsTheWait() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport { request, index in
            index == 0 ? status(429, request, ["Retry-After": "7", "Content-Length": "0"]) : ok(request)
        }
        let manager = try Self.manager(transport, clock: clock)
        let task = try manager.task(with: try RequestDraft(method: "GET", url: "http://127.0.0.1:9/").build(), options: Self.options(retries: 1, delay: 0.5))
        task.resume()
        await clock.untilSomethingSleeps { task.state == .completed }
        await clock.advance(by: .milliseconds(6_999))
        #expect(transport.requests.count == 1)
        await clock.advance(by: .milliseconds(1))
        let result = await task.result()
        #expect(result.response?.statusCode == 200)
        #expect(transport.requests.count == 2)
    }

    @Test("a cancel during a retry's wait ends the task at once, and the request is not sent again")
    func aCancelDuringTheWaitEndsTheTask() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport { request, _ in status(503, request) }
        let manager = try Self.manager(transport, clock: clock)
        let task = try manager.task(with: try RequestDraft(method: "GET", url: "http://127.0.0.1:9/").build(), options: Self.options(retries: 5))
        task.resume()
        await clock.untilSomethingSleeps { task.state == .completed }
        task.cancel()
        let result = await task.result()
        #expect(result.transportError?.reason == .cancelled)
        #expect(result.response == nil)
        #expect(transport.requests.count == 1)
    }

    @Test("a POST answered 303 is followed with a GET and no body; a 307 keeps the method and the body")
    func redirectsChangeTheMethodAsTheStatusSays() async throws {
        for (code, method, body) in [(303, "GET", false), (307, "POST", true)] {
            let transport = ScriptedTransport { request, index in
                index == 0 ? status(code, request, ["Location": "/next", "Content-Length": "0"]) : ok(request)
            }
            let manager = try Self.manager(transport)
            var draft = RequestDraft(method: "POST", url: "http://127.0.0.1:9/start")
            draft.items = [.parameter(key: "name", value: "Ada")]
            let task = try manager.task(with: try draft.build(), options: Self.options())
            task.resume()
            let result = await task.result()
            #expect(result.response?.statusCode == 200)
            let sent = transport.requests
            try #require(sent.count == 2)
            #expect(sent[1].url.path == "/next")
            #expect(sent[1].method == method, "after a \(code)")
            if case .bytes(let bytes) = sent[1].body { #expect(!bytes.isEmpty == body, "after a \(code)") } else { #expect(!body, "after a \(code)") }
            #expect(result.redirects.count == 1)
        }
    }

    @Test("a cookie set by one hop's response is sent with the next hop, and only to its site")
    func aCookieSetOnARedirectIsSentOnTheNextHop() async throws {
        let transport = ScriptedTransport { request, index in
            switch index {
            case 0: status(302, request, ["Location": "/next", "Set-Cookie": "flavour=oat; Path=/", "Content-Length": "0"])
            case 1: status(302, request, ["Location": "http://other.invalid:9/", "Content-Length": "0"])
            default: ok(request)
            }
        }
        let manager = try Self.manager(transport)
        let task = try manager.task(with: try RequestDraft(method: "GET", url: "http://127.0.0.1:9/start").build(), options: Self.options())
        task.resume()
        _ = await task.result()
        let sent = transport.requests
        try #require(sent.count == 3)
        #expect(sent[0].headers["Cookie"] == nil)
        #expect(sent[1].headers["Cookie"] == "flavour=oat")
        #expect(sent[2].headers["Cookie"] == nil)
    }

    @Test("a cached response is fresh until the session's clock passes its max-age, then revalidated and refreshed by a 304")
    func theCacheAgesOnTheSessionsClock() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport { request, index in
            index == 0
                ? .response(HTTPResponse(url: request.url, statusCode: 200, headers: ["Cache-Control": "max-age=10", "ETag": "\"v1\"", "Content-Length": "5"]), body: Array("hello".utf8))
                : status(304, request, ["ETag": "\"v1\"", "Cache-Control": "max-age=10"])
        }
        let manager = try Self.manager(transport, clock: clock)
        let request = try RequestDraft(method: "GET", url: "http://127.0.0.1:9/doc").build()
        let first = try await manager.send(request, options: Self.options())
        #expect(first.cache == .stored)

        await clock.advance(by: .seconds(9))
        let fresh = try await manager.send(request, options: Self.options())
        #expect(fresh.cache == .hit(age: 9))
        #expect(transport.requests.count == 1)

        await clock.advance(by: .seconds(2))
        let revalidated = try await manager.send(request, options: Self.options())
        #expect(revalidated.cache == .notModified)
        #expect(revalidated.data == Array("hello".utf8))
        #expect(transport.requests.count == 2)
        #expect(transport.requests[1].headers["If-None-Match"] == "\"v1\"")
    }

    @Test("a resumed download asks for the rest, appends the 206's bytes to its partial file, and moves it into place")
    func aResumedDownloadAppendsTheRest() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tincan-script-resume-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/file.txt"
        try Data("hello ".utf8).write(to: URL(fileURLWithPath: path + ".part"))
        let transport = ScriptedTransport { request, _ in
            .response(HTTPResponse(url: request.url, statusCode: 206, headers: ["Content-Range": "bytes 6-10/11", "Content-Length": "5"]), body: Array("world".utf8))
        }
        let manager = try Self.manager(transport)
        let task = try manager.downloadTask(with: try RequestDraft(method: "GET", url: "http://127.0.0.1:9/file").build(), to: path, resuming: true, options: Self.options())
        task.resume()
        let result = await task.result()
        #expect(transport.requests.first?.headers["Range"] == "bytes=6-")
        #expect(result.download?.completed == true)
        #expect(result.download?.resumedFrom == 6)
        #expect(FileManager.default.contents(atPath: path) == Data("hello world".utf8))
        #expect(!FileManager.default.fileExists(atPath: path + ".part"))
    }
}
