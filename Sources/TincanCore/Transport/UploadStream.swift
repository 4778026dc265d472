import AsyncHTTPClient
import NIOCore
import Synchronization

/// Streams one request body into AsyncHTTPClient, and keeps the request and its connection
/// whole when the response comes before the body has been sent.
///
/// AsyncHTTPClient's request object (`RequestBag`) ends a request as soon as the response is
/// complete, whether or not the body stream has ended, and then drops the stream's end instead of
/// passing it to the connection. A connection whose request never saw the body's end is never
/// returned to the pool: after eight of them every request waits for a connection until
/// `getConnectionFromPoolTimeout`. And once a response of 300 or more has arrived it pauses the
/// body for good; a response that then ends while the body stream waits on that pause completes
/// nothing, and the request dies at the idle timeout. Three rules keep both from happening:
///
/// - **The end goes with the last bytes.** The last chunk is written and the stream ended in one
///   turn of the request's event loop, so no response can be handled between the two. A body in
///   memory of up to ``inlineLimit`` bytes is written whole when the stream starts.
/// - **A response under 300 that comes early waits for the end.** The response head is handed to
///   the caller at once, but AsyncHTTPClient is told it was consumed only after the stream has
///   ended, so the request cannot complete before the connection has seen the body's end.
/// - **A response of 300 or more stops the body** (AsyncHTTPClient sends no more of it and closes
///   the connection afterwards). The writer stops, waits until the response is complete when its
///   length says when that is, and then ends the stream with ``UploadStopped``, which the
///   transport turns back into the response.
final class UploadStream: Sendable {
    /// Bodies in memory up to this size are written in one piece as the stream starts.
    static let inlineLimit = 4 * 1024 * 1024
    /// How many body writes may be in flight: enough to keep the socket busy, few enough that
    /// memory stays at a few chunks.
    static let writesInFlight = 4
    /// The size of a chunk at full speed: 512 KiB measured 1.2 times curl's upload here, against
    /// 0.9 times at 256 KiB; 1 MiB was no faster, and took peak memory past 32 MiB.
    static let chunkSize = 512 * 1024

    /// Ends the body stream when a response of 300 or more stopped it.
    struct UploadStopped: Error {}

    private struct State {
        /// The stream's end has been handed to AsyncHTTPClient.
        var ended = false
        /// A response of 300 or more arrived first: no more body is sent.
        var stopped = false
        /// The response is complete, or the request is over.
        var responseComplete = false
        /// The early response head, held until the stream has ended.
        var heldHead: EventLoopPromise<Void>?
        /// The writer, waiting for a write or for a stop.
        var writeWaiter: CheckedContinuation<Bool, any Error>?
        /// The writer, stopped, waiting for the response to be complete.
        var completionWaiter: CheckedContinuation<Void, Never>?
        /// The stream's future, completed when the streamed body ends or fails.
        var finished: EventLoopPromise<Void>?
    }

    private let body: RequestBody
    private let length: Int64
    private let bytesPerSecond: Int?
    /// The clock the pace is kept by.
    private let timing: Timing
    /// The request's event loop: AsyncHTTPClient calls the stream and the delegate on it.
    let eventLoop: any EventLoop
    private let state = Mutex(State())
    /// The request's slow-motion stops: the body waits before its first write.
    private let pauses: StagePauses?

    init(body: RequestBody, length: Int64, bytesPerSecond: Int?, timing: Timing = .continuous, eventLoop: any EventLoop, pauses: StagePauses? = nil) {
        self.timing = timing
        self.pauses = pauses
        self.body = body
        self.length = length
        self.bytesPerSecond = bytesPerSecond
        self.eventLoop = eventLoop
    }

    // MARK: - The stream

    /// Starts writing; AsyncHTTPClient calls this on ``eventLoop`` once the head is sent.
    func start(_ writer: HTTPClient.Body.StreamWriter) -> EventLoopFuture<Void> {
        guard let pauses else { return begin(writer) }
        // Slow motion: the head is on the wire; the body waits for its turn.
        return pauses.pause(before: .requestBody).flatMap { self.begin(writer) }
    }

    private func begin(_ writer: HTTPClient.Body.StreamWriter) -> EventLoopFuture<Void> {
        if length == 0 {
            markEnded()
            return eventLoop.makeSucceededVoidFuture()
        }
        if case .bytes(let bytes) = body, bytesPerSecond == nil, bytes.count <= Self.inlineLimit {
            let written = writer.write(.byteBuffer(ByteBuffer(bytes: bytes)))
            markEnded()
            return written
        }
        let finished = eventLoop.makePromise(of: Void.self)
        state.withLock { $0.finished = finished }
        // A file at full speed is read on the event loop itself, like curl's one thread: each
        // chunk then goes to the socket, and each write's completion comes back, without a
        // hop between threads. Paced bodies, and bodies that compute their bytes, stay off it.
        let readsOnTheLoop = if case .file = body, bytesPerSecond == nil { true } else { false }
        Task(executorPreference: readsOnTheLoop ? EventLoopExecutor(eventLoop) : nil) {
            do {
                try await self.write(to: writer, finished: finished)
            } catch {
                self.eventLoop.execute {
                    // An abort may have ended the stream already.
                    let ended = self.state.withLock { state in
                        defer { state.ended = true }
                        return state.ended
                    }
                    if !ended { finished.fail(error) }
                    self.releaseHead()
                }
            }
        }
        return finished.futureResult
    }

    /// Reads and writes the body off the event loop. Files are read straight into the buffers
    /// that are sent; with a rate limit, each chunk waits until the limit allows it.
    private func write(to writer: HTTPClient.Body.StreamWriter, finished: EventLoopPromise<Void>) async throws {
        let chunkSize = bytesPerSecond.map { max(1024, min(256 * 1024, $0 / 20)) } ?? Self.chunkSize
        let start = timing.now()
        var sent: Int64 = 0
        var pending: [EventLoopFuture<Void>] = []
        let file: FileReader?
        var reader: (any BodyReader)?
        if case .file(let path, _) = body {
            file = try FileReader(path: path, chunkSize: chunkSize)
        } else {
            file = nil
            reader = try body.makeReader(chunkSize: chunkSize)
        }
        while !isStopped {
            let next: ByteBuffer? = if let file { try file.readBuffer() } else { try reader?.read().map { ByteBuffer(bytes: $0) } }
            guard var buffer = next else {
                throw RequestSerializationError(.fileUnreadable(path: body.sourceDescription, reason: "the body ended after \(sent) of its \(length) bytes (did the file change while it was sent?)"))
            }
            if let bytesPerSecond {
                let due = start + .microseconds(Int64(min(Double(sent) / Double(bytesPerSecond) * 1_000_000, 1e15)))
                let now = timing.now()
                if due > now { try await timing.sleep(due - now) }
            }
            if sent + Int64(buffer.readableBytes) > length {
                // The file grew since its length was taken: the body is the length announced.
                buffer = buffer.getSlice(at: buffer.readerIndex, length: Int(length - sent)) ?? buffer
            }
            sent += Int64(buffer.readableBytes)
            if sent >= length {
                // The last bytes and the end in one turn of the event loop, unless a response
                // stopped the body meanwhile (the end would then be refused as too short).
                let last = buffer
                let ended = try await eventLoop.submit {
                    guard self.state.withLock({ state in
                        guard !state.stopped, !state.ended else { return false }
                        state.ended = true
                        return true
                    }) else { return false }
                    _ = writer.write(.byteBuffer(last))
                    finished.succeed(())
                    self.releaseHead()
                    return true
                }.get()
                if ended { return }
                break
            }
            pending.append(writer.write(.byteBuffer(buffer)))
            if pending.count >= Self.writesInFlight || bytesPerSecond != nil {
                guard try await wait(for: pending.removeFirst()) else { break }
            }
        }
        // Stopped by a response of 300 or more: wait for it to be complete, then end the stream.
        await responseCompletion()
        throw UploadStopped()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// Waits for one write; false when a response stopped the body first.
    private func wait(for write: EventLoopFuture<Void>) async throws -> Bool {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let stopped = state.withLock { state in
                    if state.stopped { return true }
                    state.writeWaiter = continuation
                    return false
                }
                if stopped { return continuation.resume(returning: false) }
                write.whenComplete { result in
                    guard let waiter = self.state.withLock({ state in defer { state.writeWaiter = nil }; return state.writeWaiter }) else { return }
                    waiter.resume(with: result.map { true })
                }
            }
        } catch let error as HTTPClientError where error == .requestStreamCancelled {
            // The request is already over; nothing more to send.
            return false
        }
    }

    private func responseCompletion() async {
        await withCheckedContinuation { continuation in
            let complete = state.withLock { state in
                if state.responseComplete { return true }
                state.completionWaiter = continuation
                return false
            }
            if complete { continuation.resume() }
        }
    }

    private func markEnded() {
        state.withLock { $0.ended = true }
    }

    private func releaseHead() {
        state.withLock { state in defer { state.heldHead = nil }; return state.heldHead }?.succeed(())
    }

    // MARK: - What the response delegate reports

    /// What an early response head does to the body.
    enum EarlyHead {
        /// The body had ended: nothing to do.
        case none
        /// Under 300: give AsyncHTTPClient this future for the head; it waits for the body's end.
        case held(EventLoopFuture<Void>)
        /// 300 or more: the writer stopped; report ``responseCompleted()`` when the response is.
        case stopped
    }

    /// A response head arrived: one under 300 is held until the body has ended, and one of 300
    /// or more stops the writer (AsyncHTTPClient sends no more of the body).
    func responseHeadArrived(status: Int) -> EarlyHead {
        let (outcome, waiter) = state.withLock { state -> (EarlyHead, CheckedContinuation<Bool, any Error>?) in
            guard !state.ended else { return (.none, nil) }
            if status >= 300 {
                state.stopped = true
                defer { state.writeWaiter = nil }
                return (.stopped, state.writeWaiter)
            }
            let promise = eventLoop.makePromise(of: Void.self)
            state.heldHead = promise
            return (.held(promise.futureResult), nil)
        }
        waiter?.resume(returning: false)
        return outcome
    }

    /// The response is complete (its length reached), or the request is over: a stopped writer
    /// may end the stream, a writer waiting on a write stops waiting, and a held head is let go.
    func responseCompleted() {
        let (waiter, writeWaiter, head) = state.withLock { state in
            state.responseComplete = true
            defer {
                state.completionWaiter = nil
                state.writeWaiter = nil
                state.heldHead = nil
            }
            return (state.completionWaiter, state.writeWaiter, state.heldHead)
        }
        waiter?.resume()
        writeWaiter?.resume(returning: false)
        head?.succeed(())
    }

    /// Ends the body stream with `error` before the request is failed or cancelled.
    ///
    /// AsyncHTTPClient fails a request whose response is complete but held back (see above) only
    /// once its body stream has ended, and drops a paused write's future without completing it;
    /// so a timeout or a cancel first fails the stream here, which fails the request, and wakes
    /// the writer.
    func abort(_ error: any Error) {
        eventLoop.execute {
            let finished = self.state.withLock { state -> EventLoopPromise<Void>? in
                guard !state.ended else { return nil }
                state.ended = true
                return state.finished
            }
            finished?.fail(error)
            self.responseCompleted()
        }
    }
}

extension RequestBody {
    /// Names the body's source in errors.
    var sourceDescription: String {
        switch self {
        case .file(let path, _): path
        case .multipart: "the multipart body"
        case .bytes, .none: "the body"
        }
    }
}
