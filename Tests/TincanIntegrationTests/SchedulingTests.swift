import NIOCore
import Synchronization
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

/// A transport that notes, for every request, whether it was sent from the thread of its own
/// event loop, and otherwise sends as AsyncHTTPClientTransport does.
private final class ThreadNotingTransport: Transport {
    let inner = AsyncHTTPClientTransport()
    let sentFromLoop = Mutex<[Bool]>([])

    var taskExecutor: (any TaskExecutor)? { inner.taskExecutor }

    func send(_ request: HTTPRequest, options: TransportOptions, events: @escaping @Sendable (TransportEvent) throws -> Void) async throws -> HTTPResponse {
        let onLoop = (inner.taskExecutor as? EventLoopExecutor)?.eventLoop.inEventLoop ?? false
        sentFromLoop.withLock { $0.append(onLoop) }
        return try await inner.send(request, options: options, events: events)
    }

    func shutdown() async throws { try await inner.shutdown() }
}

@Suite("Where a manager's tasks run")
struct SchedulingTests {
    @Test("code that prefers the transport's executor runs on its event loop, before and after a wait")
    func theExecutorRunsJobsOnItsLoop() async throws {
        let transport = AsyncHTTPClientTransport()
        let executor = try #require(transport.taskExecutor as? EventLoopExecutor)
        let (before, after) = await withTaskExecutorPreference(executor) {
            let before = executor.eventLoop.inEventLoop
            try? await Task.sleep(for: .milliseconds(5))
            return (before, executor.eventLoop.inEventLoop)
        }
        #expect(before && after)
        #expect(!executor.eventLoop.inEventLoop)
        try await transport.shutdown()
    }

    @Test("a transport-loop manager sends from the transport's thread, a shared one from Swift's pool, with the same answers",
          arguments: [URLSessionManager.TaskScheduling.transportLoop, .shared])
    func tasksRunWhereTheManagerSays(scheduling: URLSessionManager.TaskScheduling) async throws {
        try await withDemoServer { server in
            let transport = ThreadNotingTransport()
            let manager = URLSessionManager(http: try HTTPSessionManager(), transport: transport, scheduling: scheduling)
            #expect((manager.taskExecutor != nil) == (scheduling == .transportLoop))
            // A redirect, so that one task sends twice.
            let request = try draft("GET", "redirect/1", on: server).build()
            let result = await withTaskExecutorPreference(manager.taskExecutor) {
                let task = try? manager.task(with: request)
                task?.resume()
                return await task?.result()
            }
            #expect(result?.response?.statusCode == 200)
            #expect(result?.redirects.count == 1)
            #expect(transport.sentFromLoop.withLock { $0 } == [scheduling == .transportLoop, scheduling == .transportLoop])
            try await manager.invalidate(cancelingTasks: true)
        }
    }
}
