import Synchronization
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

/// A task under slow motion, with the stages it stops at as they come.
private struct SteppedTask {
    let task: SessionTask
    let motion: SlowMotion
    let stops: AsyncStream<SendStage>
    let manager: URLSessionManager

    init(_ request: HTTPRequest, on server: DemoServer) throws {
        let (stops, continuation) = AsyncStream.makeStream(of: SendStage.self)
        let motion = SlowMotion { continuation.yield($0) }
        var options = TaskOptions()
        options.stageGate = motion.gate
        manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
        let task = try manager.task(with: request, options: options)
        // The stops end with the task, so a task that fails at a stop ends the loop over them
        // (and the test fails on what it expected) rather than waiting forever.
        Task {
            _ = await task.result()
            continuation.finish()
        }
        self.task = task
        self.motion = motion
        self.stops = stops
    }

    /// The milestones the task has reported so far, in AFNetworking's callback names.
    var callbacks: [String] { task.timeline.compactMap(\.delegateCallback) }
}

@Suite("Slow motion: a send that stops before each stage")
struct SlowMotionTests {
    @Test("a POST stops at each stage in order, and nothing passes a stop before it is stepped")
    func aPostStopsAtEachStageInOrder() async throws {
        try await withDemoServer { server in
            var request = try draft("POST", "post", ["name=Ann"], on: server).build()
            request.properties.timeoutInterval = 30
            let stepped = try SteppedTask(request, on: server)
            stepped.task.resume()
            var seen: [SendStage] = []
            for await stage in stepped.stops {
                seen.append(stage)
                #expect(stepped.motion.waitingStage == stage)
                switch stage {
                case .connect:
                    #expect(stepped.callbacks.allSatisfy { !$0.contains("didReceiveResponse") })
                case .requestBody:
                    // The head is out, the body is not: no byte of it was written.
                    #expect(stepped.task.uploadProgress.completed == 0)
                case .responseHead:
                    #expect(stepped.task.uploadProgress.completed == request.body.length)
                    #expect(!stepped.callbacks.contains { $0.contains("didReceiveResponse") })
                case .responseBody:
                    #expect(stepped.callbacks.contains { $0.contains("didReceiveResponse") })
                    // The first part is held: the delegate has not been given one byte.
                    #expect(stepped.task.downloadProgress.completed == 0)
                case .validate, .decode:
                    #expect(stepped.task.downloadProgress.completed > 0)
                    #expect(stepped.task.state == .running)
                default:
                    Issue.record("stopped at \(stage), which the core never stops at")
                }
                // Held: a while later the task still waits at the same stage.
                try await Task.sleep(for: .milliseconds(30))
                #expect(stepped.motion.waitingStage == stage)
                stepped.motion.step()
                if stage == .decode { break }
            }
            let result = await stepped.task.result()
            #expect(seen == [.connect, .requestBody, .responseHead, .responseBody, .validate, .decode])
            #expect(stepped.motion.passed == seen)
            #expect(result.transportError == nil)
            #expect(field(try json(result), "form", "name") == "Ann")
            try await stepped.manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("a bodiless GET sends its head and its end together: no request-body stop")
    func aBodilessRequestHasNoBodyStop() async throws {
        try await withDemoServer { server in
            let stepped = try SteppedTask(try draft("GET", "get", on: server).build(), on: server)
            stepped.task.resume()
            var seen: [SendStage] = []
            for await stage in stepped.stops {
                seen.append(stage)
                stepped.motion.step()
                if stage == .decode { break }
            }
            let result = await stepped.task.result()
            #expect(seen == [.connect, .responseHead, .responseBody, .validate, .decode])
            #expect(result.response?.statusCode == 200)
            #expect(result.serialization?.isValid == true)
            try await stepped.manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("a cancel while the task waits at a stop ends it as cancelled, at once",
          arguments: [SendStage.connect, .requestBody, .responseHead, .responseBody, .validate, .decode])
    func aCancelDuringAStopEndsTheSend(at stop: SendStage) async throws {
        try await withDemoServer { server in
            let stepped = try SteppedTask(try draft("POST", "post", ["name=Ann"], on: server).build(), on: server)
            stepped.task.resume()
            for await stage in stepped.stops {
                if stage == stop {
                    stepped.task.cancel()
                    break
                }
                stepped.motion.step()
            }
            let clock = ContinuousClock()
            let start = clock.now
            let result = await stepped.task.result()
            #expect(clock.now - start < .seconds(5))
            #expect(result.transportError?.reason == .cancelled)
            #expect(result.serialization == nil)
            #expect(stepped.motion.waitingStage == nil)
            try await stepped.manager.invalidate(cancelingTasks: true)
        }
    }

    /// Sends a POST with a 1 s idle timeout that waits 3 s at `stop`; nil when the task ended
    /// before it got there (a loaded machine's in-process server may not answer within a second).
    private func longStop(at stop: SendStage, on server: DemoServer) async throws -> (runningAtTheEnd: Bool, result: TaskResult, sinceStep: Duration)? {
        var request = try draft("POST", "post", ["name=Ann"], on: server).build()
        request.properties.timeoutInterval = 1
        let stepped = try SteppedTask(request, on: server)
        let clock = ContinuousClock()
        var steppedAt: ContinuousClock.Instant?
        var runningAtTheEnd = false
        stepped.task.resume()
        for await stage in stepped.stops {
            if stage == stop {
                // Three idle timeouts long.
                try await Task.sleep(for: .seconds(3))
                runningAtTheEnd = stepped.task.state == .running
                steppedAt = clock.now
            }
            stepped.motion.step()
            if stage == .decode { break }
        }
        let result = await stepped.task.result()
        try await stepped.manager.invalidate(cancelingTasks: true)
        return steppedAt.map { (runningAtTheEnd, result, clock.now - $0) }
    }

    @Test("a long stop does not trip the idle timeout, whose clock starts again when the stop is stepped",
          arguments: [SendStage.requestBody, .responseHead, .responseBody])
    func aLongStopIsNotIdleness(at stop: SendStage) async throws {
        try await withDemoServer { server in
            // Up to three tries, for a machine too loaded to reach the stop within the idle timeout.
            var outcome: (runningAtTheEnd: Bool, result: TaskResult, sinceStep: Duration)?
            for _ in 1...3 where outcome == nil {
                outcome = try await longStop(at: stop, on: server)
            }
            guard let (runningAtTheEnd, result, sinceStep) = outcome else {
                Issue.record("never stopped before \(stop) in three tries")
                return
            }
            #expect(runningAtTheEnd)
            if let error = result.transportError {
                // A machine loaded enough to keep the in-process server from answering for a
                // second may time out after the step, but never sooner: the idle clock starts
                // again at the step, not before the stop.
                #expect(error.reason == .timedOut(.idle, seconds: 1))
                #expect(sinceStep >= .seconds(1), "timed out \(sinceStep) after the step")
            } else {
                #expect(result.response?.statusCode == 200)
            }
        }
    }

    @Test("the idle timeout still fires when the server goes quiet after a stop")
    func theIdleTimeoutStillWorksUnderSlowMotion() async throws {
        try await withDemoServer { server in
            var request = try draft("GET", "delay/3", on: server).build()
            request.properties.timeoutInterval = 0.3
            let stepped = try SteppedTask(request, on: server)
            stepped.task.resume()
            for await stage in stepped.stops {
                #expect(stage == .connect)
                stepped.motion.step()
                break
            }
            let result = await stepped.task.result()
            #expect(result.transportError?.reason == .timedOut(.idle, seconds: 0.3))
            try await stepped.manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("a gate that refuses a stage ends the task as cancelled")
    func aRefusingGateCancels() async throws {
        try await withDemoServer { server in
            let motion = SlowMotion()
            motion.cancel()
            let result = try await send(try draft("GET", "get", on: server)) { $0.stageGate = motion.gate }
            #expect(result.transportError?.reason == .cancelled)
            #expect(result.response == nil)
        }
    }
}
