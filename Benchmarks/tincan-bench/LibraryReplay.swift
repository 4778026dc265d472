import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import TincanCore

/// The replay benchmark's requests sent through AsyncHTTPClient's delegate API and nothing else:
/// the floor under `tincan replay`, whose transport is that API (docs/ARCHITECTURE.md, "The shape of the product").
///
/// Run as `tincan-bench --library-replay BASE COUNT`, a process of its own like every other row.
/// It sends what `tincan replay` sends (the same headers and bodies, one kept-alive connection on
/// one event loop, as `AsyncHTTPClientTransport` configures it), each request from the previous
/// one's completion on the loop itself, with no request to build, no response to decode and no
/// check but the status: what no client on this library can go below. It prints each status on a
/// line, as `curl -K` does with `--write-out`.
enum LibraryReplay {
    static func run(base: String, count: Int) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        var configuration = HTTPClient.Configuration()
        configuration.decompression = .disabled
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroupProvider: .shared(loop), configuration: configuration)
        let statuses = Statuses()
        try loop.flatSubmit { send(0, of: count, base: base, client: client, loop: loop, statuses: statuses) }.wait()
        try client.syncShutdown()
        try group.syncShutdownGracefully()
        let text = statuses.codes.withLock { $0.map { "\($0)\n" }.joined() }
        try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    }

    /// The headers Tincan's request serializer sends by default, in their order.
    private static let defaultHeaders = RequestSettings.defaultHeaders(environment: ProcessInfo.processInfo.environment)

    private final class Statuses: Sendable {
        let codes = Mutex<[UInt]>([])
    }

    private static func send(_ index: Int, of count: Int, base: String, client: HTTPClient, loop: any EventLoop, statuses: Statuses) -> EventLoopFuture<Void> {
        guard index < count else { return loop.makeSucceededVoidFuture() }
        var request: HTTPClient.Request
        do {
            if index.isMultiple(of: 2) {
                request = try HTTPClient.Request(url: "\(base)/get?n=\(index)", method: .GET)
            } else {
                request = try HTTPClient.Request(url: "\(base)/post", method: .POST)
                request.body = .bytes(Array("{\"n\":\(index),\"name\":\"item\"}".utf8))
                request.headers.add(name: "Content-Type", value: "application/json")
            }
        } catch {
            return loop.makeFailedFuture(error)
        }
        for field in defaultHeaders { request.headers.add(name: field.name, value: field.value) }
        return client.execute(request: request, delegate: Collector(), eventLoop: .delegate(on: loop)).futureResult.flatMap { status in
            statuses.codes.withLock { $0.append(status) }
            return send(index + 1, of: count, base: base, client: client, loop: loop, statuses: statuses)
        }
    }

    /// Keeps the body in memory, as Tincan does, and answers the status.
    private final class Collector: HTTPClientResponseDelegate, Sendable {
        typealias Response = UInt
        private let state = Mutex<(status: UInt, body: ByteBuffer)>((0, ByteBuffer()))

        func didReceiveHead(task: HTTPClient.Task<UInt>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            state.withLock { $0.status = head.status.code }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<UInt>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            var buffer = buffer
            _ = state.withLock { $0.body.writeBuffer(&buffer) }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didFinishRequest(task: HTTPClient.Task<UInt>) throws -> UInt { state.withLock { $0.status } }
    }
}
