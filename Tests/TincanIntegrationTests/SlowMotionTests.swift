import Clocks
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

    /// A task of `request` that stops at each stage; its transport's time (the idle timeout) is
    /// `clock`'s, which only the test moves.
    init(_ request: HTTPRequest, on server: DemoServer, clock: TestClock<Duration> = TestClock()) throws {
        let (stops, continuation) = AsyncStream.makeStream(of: SendStage.self)
        let motion = SlowMotion { continuation.yield($0) }
        var options = TaskOptions()
        options.stageGate = motion.gate
        manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL), transportTiming: Timing(clock))
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
            let clock = TestClock()
            let stepped = try SteppedTask(request, on: server, clock: clock)
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
                if [.requestBody, .responseHead, .responseBody].contains(stage) {
                    // Held: ten idle timeouts later on the transport's clock (its idle timer is the
                    // one thing that sleeps on it), the task still waits at the same stage and
                    // nothing has moved.
                    let before = (stepped.callbacks, stepped.task.uploadProgress, stepped.task.downloadProgress)
                    await clock.untilSomethingSleeps { stepped.task.state == .completed }
                    await clock.advance(by: .seconds(300))
                    #expect(stepped.motion.waitingStage == stage)
                    #expect(stepped.task.state == .running)
                    #expect(stepped.callbacks == before.0)
                    #expect(stepped.task.uploadProgress == before.1 && stepped.task.downloadProgress == before.2)
                }
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

    @Test("a long stop does not trip the idle timeout: three idle timeouts at a stop, and the send still succeeds",
          arguments: [SendStage.requestBody, .responseHead, .responseBody])
    func aLongStopIsNotIdleness(at stop: SendStage) async throws {
        try await withDemoServer { server in
            var request = try draft("POST", "post", ["name=Ann"], on: server).build()
            request.properties.timeoutInterval = 1
            let clock = TestClock()
            let stepped = try SteppedTask(request, on: server, clock: clock)
            stepped.task.resume()
            for await stage in stepped.stops {
                if stage == stop {
                    // The idle timer wakes after each timeout, finds the stop holding, and sleeps again.
                    for _ in 1...3 {
                        // (A task that ended instead fails the expectations below, rather than waiting here.)
                        await clock.untilSomethingSleeps { stepped.task.state == .completed }
                        await clock.advance(by: .seconds(1))
                    }
                    #expect(stepped.task.state == .running)
                    #expect(stepped.motion.waitingStage == stop)
                }
                stepped.motion.step()
                if stage == .decode { break }
            }
            let result = await stepped.task.result()
            #expect(result.transportError == nil)
            #expect(result.response?.statusCode == 200)
            try await stepped.manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("the idle timeout still fires when the server goes quiet after a stop")
    func theIdleTimeoutStillWorksUnderSlowMotion() async throws {
        try await withDemoServer { server in
            var request = try draft("GET", "delay/3", on: server).build()
            request.properties.timeoutInterval = 0.3
            let clock = TestClock()
            let stepped = try SteppedTask(request, on: server, clock: clock)
            stepped.task.resume()
            for await stage in stepped.stops {
                #expect(stage == .connect)
                stepped.motion.step()
                break
            }
            // The server answers after 3 s of its own; the transport's clock passes the idle
            // timeout long before. (The head may go out after a first advance: the timeout then
            // counts from it, and the next advance passes it.)
            while stepped.task.state != .completed {
                await clock.untilSomethingSleeps { stepped.task.state == .completed }
                await clock.advance(by: .milliseconds(300))
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
