import Foundation
import Synchronization
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

/// A milestone's name, for comparing timelines.
private func name(_ event: TaskEvent) -> String? {
    switch event {
    case .resumed: "resumed"
    case .requestSent: "sent"
    case .responseHead(let head): "\(head.statusCode)"
    case .retried(.transient(let cause, let attempt, _)): "retry \(attempt) (\(cause.kind))"
    case .retried(.authentication(let scheme, _)): "retry (\(scheme))"
    case .redirected: "redirect"
    case .cache: "cache"
    case .bodyReceived: "body"
    case .completed: "completed"
    case .uploadProgress, .downloadProgress: nil
    }
}

/// A policy that waits as little as possible and jitters to the lower bound.
private func quick(_ limit: Int, delay: Double = 0.001, maximumDelay: Double = 30) -> RetryPolicy {
    RetryPolicy(limit: limit, delay: delay, maximumDelay: maximumDelay, random: { 0 })
}

private func options(_ policy: RetryPolicy?, deadline: Double? = nil) -> TaskOptions {
    var options = TaskOptions(responseSerializer: HTTPResponseSerializer())
    options.retryPolicy = policy
    options.deadline = deadline
    return options
}

/// An event monitor that keeps every event it is told, by task.
private final class Recorder: EventMonitor {
    let events = Mutex<[Int: [String]]>([:])

    func task(_ task: SessionTask, didEmit event: TaskEvent) {
        guard let name = name(event) else { return }
        events.withLock { $0[task.identifier, default: []].append(name) }
    }
}

/// Adds a header to every request it sees, and counts them.
private struct StampAdapter: RequestInterceptor {
    var count = 0

    mutating func adapt(_ request: inout HTTPRequest) {
        count += 1
        request.headers.set(name: "X-Attempt", value: String(count))
    }
}

@Suite("Retries")
struct RetryTests {
    @Test("a 503 is retried up to the limit, each retry in the timeline between the sends")
    func a503IsRetriedUpToTheLimit() async throws {
        try await withDemoServer { server in
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
            let task = try manager.task(with: try draft("GET", "status/503", on: server).build(), options: options(quick(2)))
            task.resume()
            let result = await task.result()
            #expect(task.timeline.compactMap(name) == [
                "resumed", "sent", "503", "retry 1 (status)", "sent", "503", "retry 2 (status)", "sent", "503", "completed",
            ])
            #expect(result.response?.statusCode == 503)
            #expect(result.metrics.requestCount == 3)
            #expect(result.retries.count == 2)
            #expect(result.retryNote == "status 503: gave up after 2 retries")
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("a request that fails twice and then succeeds returns the success")
    func aFlakyRouteSucceedsAfterItsFailures() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("GET", "flaky/twice/2", on: server)) { $0.retryPolicy = quick(3) }
            #expect(result.response?.statusCode == 200)
            #expect(field(try json(result), "attempt") == 3)
            #expect(result.metrics.requestCount == 3)
            #expect(result.retries == [
                .transient(.status(503, retryAfter: nil), attempt: 1, delay: 0.0005),
                .transient(.status(503, retryAfter: nil), attempt: 2, delay: 0.001),
            ])
            #expect(result.retryNote == nil)
        }
    }

    @Test("a POST is not retried by default: the server sees it once, and the note says why")
    func aPostIsNotRetried() async throws {
        try await withDemoServer { server in
            let post = try await send(try draft("POST", "flaky/post/1", ["a=1"], on: server)) {
                $0.retryPolicy = quick(3)
                $0.responseSerializer = HTTPResponseSerializer()
            }
            #expect(post.response?.statusCode == 503)
            #expect(post.metrics.requestCount == 1)
            #expect(post.retries.isEmpty)
            #expect(post.retryNote?.contains("POST is not one of the retried methods") == true)
            // The route counted one request for the id: the next one is its second.
            let next = try await send(try draft("GET", "flaky/post/1", on: server))
            #expect(field(try json(next), "attempt") == 2)
        }
    }

    @Test("a refused connection (a closed loopback port) is retried, then its error stands")
    func aRefusedConnectionIsRetried() async throws {
        let refusing = try RefusingPort()
        var draft = RequestDraft(method: "GET", url: "http://127.0.0.1:\(refusing.port)/get")
        draft.observed.timeoutInterval = 5
        let result = try await send(draft) { $0.retryPolicy = quick(2) }
        withExtendedLifetime(refusing) {}
        #expect(result.response == nil)
        guard case .cannotConnect? = result.transportError?.reason else {
            Issue.record("expected a refused connection, got \(String(describing: result.transportError))")
            return
        }
        #expect(result.metrics.requestCount == 3)
        #expect(result.retries.map { if case .transient(.connectionRefused, let attempt, _) = $0 { attempt } else { 0 } } == [1, 2])
        #expect(result.retryNote?.contains("gave up after 2 retries") == true)
    }

    @Test("Retry-After replaces the backoff: 0 retries at once even with a long delay, a long one is capped")
    func retryAfterIsHonoured() async throws {
        try await withDemoServer { server in
            let now = try await send(try draft("GET", "flaky/now/1?retry-after=0", on: server)) { $0.retryPolicy = quick(1, delay: 3_000) }
            #expect(now.response?.statusCode == 200)
            #expect(now.retries == [.transient(.status(503, retryAfter: 0), attempt: 1, delay: 0)])

            let capped = try await send(try draft("GET", "flaky/later/1?retry-after=3600", on: server)) { $0.retryPolicy = quick(1, maximumDelay: 0.05) }
            #expect(capped.response?.statusCode == 200)
            #expect(capped.retries == [.transient(.status(503, retryAfter: 3_600), attempt: 1, delay: 0.05)])
            #expect(capped.metrics.total >= .milliseconds(50), "the wait was taken")
        }
    }

    @Test("a wait that would pass the deadline is not started: the 503 stands, with the reason")
    func aWaitNeverOutlivesTheDeadline() async throws {
        try await withDemoServer { server in
            let clock = ContinuousClock()
            let start = clock.now
            let result = try await send(try draft("GET", "status/503", on: server)) {
                $0.retryPolicy = quick(3, delay: 600, maximumDelay: 600)
                $0.deadline = 20
                $0.responseSerializer = HTTPResponseSerializer()
            }
            #expect(clock.now - start < .seconds(20))
            #expect(result.response?.statusCode == 503)
            #expect(result.metrics.requestCount == 1)
            #expect(result.retryNote?.contains("would pass the deadline") == true)
        }
    }

    @Test("a download that stopped part way is not retried: its .part is kept for --continue, and the note says so")
    func aDownloadStoppedPartWayIsNotRetried() async throws {
        let directory = try TemporaryDirectory()
        // Three bytes of the ten promised, then the connection closes.
        let server = try RawHTTPServer { _, socket in
            _ = RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nContent-Type: application/octet-stream\r\n\r\nabc")
        }
        defer { server.stop() }
        let result = try await send(RequestDraft(method: "GET", url: "http://127.0.0.1:\(server.port)/file")) {
            $0.download = TaskOptions.Download(path: directory.path + "/file.bin")
            $0.retryPolicy = quick(3)
        }
        #expect(result.transportError != nil)
        #expect(result.metrics.requestCount == 1)
        #expect(server.connections == 1)
        #expect(result.retries.isEmpty)
        #expect(result.retryNote?.contains("the download stopped after 3 bytes; \(directory.path)/file.bin.part is kept for --continue") == true, "\(result.retryNote ?? "no note") \(String(describing: result.transportError))")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/file.bin.part"))
    }

    @Test("cancelling a task stops its wait at once")
    func cancellingStopsAWait() async throws {
        try await withDemoServer { server in
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
            let task = try manager.task(with: try draft("GET", "status/503", on: server).build(), options: options(quick(3, delay: 120, maximumDelay: 120)))
            let events = task.events
            task.resume()
            for await event in events {
                if case .retried = event { task.cancel() }
            }
            let result = await task.result()
            #expect(result.transportError?.reason == .cancelled)
            #expect(result.response == nil, "the retried 503 is not the task's answer")
            #expect(result.metrics.total < .seconds(60), "the two-minute wait did not run")
            #expect(result.metrics.requestCount == 1)
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("the policy is per task: two tasks on one manager retry differently")
    func thePolicyIsPerTask() async throws {
        try await withDemoServer { server in
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
            let request = try draft("GET", "status/503", on: server).build()
            async let retried = manager.send(request, options: options(quick(2)))
            async let once = manager.send(request, options: options(nil))
            let (a, b) = try await (retried, once)
            #expect(a.metrics.requestCount == 3)
            #expect(b.metrics.requestCount == 1)
            #expect(b.retries.isEmpty && b.retryNote == nil)
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("a task's own interceptor adapts every send, retries included, with state of its own")
    func anInterceptorAdaptsEachSend() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("GET", "flaky/stamp/1", on: server)) {
                $0.interceptors = [StampAdapter()]
                $0.retryPolicy = quick(1)
            }
            #expect(result.metrics.requestCount == 2)
            #expect(result.request.headers["X-Attempt"] == nil, "the task's request stays as built")
            let again = try await send(try draft("GET", "headers", on: server)) { $0.interceptors = [StampAdapter()] }
            #expect(field(try json(again), "headers", "X-Attempt") == "1", "a new task starts its own count")
        }
    }

    @Test("an event monitor sees every event of two tasks, each in its own order")
    func anEventMonitorSeesTwoTasks() async throws {
        try await withDemoServer { server in
            let recorder = Recorder()
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL), eventMonitors: [recorder])
            let first = try manager.task(with: try draft("GET", "flaky/monitor/1", on: server).build(), options: options(quick(1)))
            let second = try manager.task(with: try draft("GET", "get", on: server).build(), options: options(nil))
            first.resume()
            second.resume()
            _ = await first.result()
            _ = await second.result()
            let seen = recorder.events.withLock { $0 }
            #expect(seen[first.identifier] == ["resumed", "sent", "503", "retry 1 (status)", "sent", "200", "completed"])
            #expect(seen[second.identifier] == ["resumed", "sent", "200", "completed"])
            #expect(seen[first.identifier] == first.timeline.compactMap(name))
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("a Digest challenge still goes through the interceptor chain, before the retry policy")
    func authenticationBeforeThePolicy() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("GET", "digest-auth/auth/bo/secret", on: server)) {
                $0.credential = Credential(user: "bo", password: "secret")
                $0.retryPolicy = quick(2, delay: 0.001)
            }
            #expect(result.response?.statusCode == 200)
            #expect(result.retries.map(\.description) == ["retried with Digest authentication"])
            #expect(result.metrics.requestCount == 2)
        }
    }
}
