import Foundation
import NIOCore
import Synchronization

/// Where the body of the response now arriving goes: nowhere (a redirect, a challenge, a 304),
/// into memory, into a download's partial file, or to a stream's receiver as it arrives. The
/// transport calls it on its event loop.
final class ReceivedBody: Sendable {
    enum Target {
        case discard
        case memory
        case file
        /// Cut into events and handed to ``ReceivedBody/stream``'s receiver; only a summary is kept.
        case stream
    }

    private struct State {
        var target = Target.discard
        var data: [UInt8] = []
        var descriptor: Int32 = -1
        var written: Int64 = 0
        /// Bytes the file held before this response: a resumed download's progress counts them.
        var offset: Int64 = 0
        var decoder: StreamDecoder?
        var summary: StreamSummary?
        /// A streamed body kept in memory passed the limit, and was let go.
        var streamedBodyDropped = false
    }

    /// The file a download writes to, when this body belongs to one.
    let download: DownloadFile?
    /// The most bytes kept in memory, or nil for no limit.
    let memoryLimit: Int64?
    /// The task's wish to see bodies as they arrive, or nil.
    let stream: StreamOptions?
    private let state = Mutex(State())

    /// The most bytes of a body that is dropped (a redirect's, a challenge's) read before the
    /// connection is given up instead: a server can send such a body without end.
    static let discardLimit: Int64 = 1 << 20

    init(download: DownloadFile?, memoryLimit: Int64? = nil, stream: StreamOptions? = nil) {
        self.download = download
        self.memoryLimit = memoryLimit
        self.stream = stream
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// Starts a response: its bytes go to `target`. For `.file`, opens the partial file,
    /// appending from `offset` or starting it afresh when `offset` is zero.
    func begin(_ target: Target, expectedLength: Int64?, offset: Int64 = 0) throws {
        if target == .memory, let memoryLimit, let expectedLength, expectedLength > memoryLimit {
            throw tooLarge("is \(RequestPreview.byteCount(expectedLength)), more than")
        }
        var descriptor: Int32 = -1
        if target == .file, let download {
            descriptor = try download.openPartial(appendingAt: offset)
        }
        state.withLock { state in
            if state.descriptor >= 0 { close(state.descriptor) }
            state = State(target: target, descriptor: descriptor, offset: target == .file ? offset : 0)
            // A body of known, modest length is gathered without regrowing the array.
            if target == .memory, let expectedLength, expectedLength <= 64 << 20 { state.data.reserveCapacity(Int(expectedLength)) }
        }
    }

    /// Starts a final response whose body is streamed in `format`, and hands its head on.
    func beginStream(_ head: HTTPResponse, format: StreamFormat) throws {
        guard let stream else { return try begin(.memory, expectedLength: head.expectedContentLength) }
        try begin(.stream, expectedLength: nil)
        state.withLock { state in
            state.decoder = StreamDecoder(format: format, maximumEventBytes: stream.maximumEventBytes)
            state.summary = StreamSummary(format: format)
        }
        try stream.receive(.started(head, format))
    }

    /// Ends a streamed body: the events its end completes go to the receiver.
    func endStream() throws {
        try state.withLock { state in
            guard state.target == .stream, var decoder = state.decoder else { return }
            state.decoder = nil
            let events = decoder.finish()
            state.summary?.add(events)
            // Lines passed through already went out as the bytes they came in.
            let passedThrough = decoder.format == .lines && stream?.passesLinesThrough == true
            try stream?.receive(.ended(passedThrough ? [] : events, at: .now))
        }
    }

    /// What is kept of a streamed body: its count, first and last events; nil when the body was not streamed.
    var streamSummary: StreamSummary? { state.withLock { $0.summary } }

    /// Takes in one chunk, and returns the bytes a resumed file held before this response, for
    /// the progress to count.
    func receive(_ buffer: ByteBuffer) throws -> Int64 {
        try state.withLock { state in
            switch state.target {
            case .discard:
                state.written += Int64(buffer.readableBytes)
                if state.written > Self.discardLimit { throw BodyNotNeeded() }
                return 0
            case .memory:
                let needed = state.data.count + buffer.readableBytes
                if let memoryLimit {
                    if Int64(needed) > memoryLimit { throw tooLarge("passed") }
                    // Grown by doubling, but never past the limit, and straight to it when a
                    // doubling would land just short (the array's header takes a few bytes of a
                    // power of two): one more growth would hold twice the limit for a moment.
                    if needed > state.data.capacity {
                        state.data.reserveCapacity(Int(min(Int64(max(needed, state.data.capacity * 2 + 65_536)), memoryLimit)))
                    }
                }
                state.data.append(contentsOf: buffer.readableBytesView)
            case .stream:
                if stream?.keepsBody == true, !state.streamedBodyDropped {
                    if let memoryLimit, Int64(state.data.count + buffer.readableBytes) > memoryLimit {
                        state.data = []
                        state.streamedBodyDropped = true
                    } else {
                        state.data.append(contentsOf: buffer.readableBytesView)
                    }
                }
                try Self.deliver(buffer, &state, to: stream)
            case .file:
                try buffer.withUnsafeReadableBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let count = write(state.descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                        if count < 0 {
                            if errno == EINTR { continue }
                            throw TransportError(.fileWrite(path: download?.partialPath ?? "", reason: String(cString: strerror(errno))))
                        }
                        offset += count
                    }
                }
            }
            state.written += Int64(buffer.readableBytes)
            return state.offset
        }
    }

    /// Cuts a streamed chunk into events and hands them (or, for raw bytes, the chunk) on, in
    /// the order the chunks came, under the lock the transport's one thread never waits on.
    private static func deliver(_ buffer: ByteBuffer, _ state: inout State, to stream: StreamOptions?) throws {
        guard let stream, var decoder = state.decoder else { return }
        // Out of the state while it changes, so its buffers are not copied on write.
        state.decoder = nil
        defer { state.decoder = decoder }
        state.summary?.bytes += Int64(buffer.readableBytes)
        guard decoder.format != .bytes else { return try stream.receive(.bytes(buffer)) }
        if decoder.format == .lines, stream.passesLinesThrough, var summary = state.summary {
            do {
                try decoder.tally(buffer, into: &summary)
            } catch {
                throw TransportError(.limitExceeded("\(error)"))
            }
            state.summary = summary
            return try stream.receive(.bytes(buffer))
        }
        let events: [StreamEvent]
        do {
            events = try decoder.decode(buffer)
        } catch {
            throw TransportError(.limitExceeded("\(error)"))
        }
        guard !events.isEmpty else { return }
        state.summary?.add(events)
        try stream.receive(.events(events, at: .now))
    }

    /// The body-size error; `what` reads "is 300 MB, more than" or "passed".
    private func tooLarge(_ what: String) -> TransportError {
        let limit = memoryLimit.map { RequestPreview.byteCount($0) } ?? ""
        return TransportError(.limitExceeded("the body \(what) the \(limit) kept in memory (max-body); save it to a file with --download FILE, or raise max-body"))
    }

    /// The bytes kept in memory.
    var data: [UInt8] { state.withLock { $0.data } }
    /// Bytes taken in for the current response.
    var written: Int64 { state.withLock { $0.written } }
    /// Where the current response's bytes go.
    var target: Target { state.withLock { $0.target } }

    /// Closes the partial file, if one is open.
    func closeFile() throws {
        let descriptor = state.withLock { state -> Int32 in
            defer { state.descriptor = -1 }
            return state.descriptor
        }
        if descriptor >= 0, close(descriptor) != 0, let download {
            throw TransportError(.fileWrite(path: download.partialPath, reason: String(cString: strerror(errno))))
        }
    }
}

/// A download's files: the destination, the partial file the bytes go to until the download
/// completes (`FILE.part`), and the validator kept beside it for resuming (`FILE.part.validator`).
///
/// The destination is replaced only when the whole body has arrived, by renaming the partial
/// file over it, so a failed download never destroys what was there.
///
/// A destination that is a device, a FIFO or a socket (`/dev/null`, `/dev/stdout`, a named
/// pipe), through any links, is written straight into instead: a partial file renamed over it
/// would replace the device node itself (run as root, `-o /dev/null` left a plain file where
/// `/dev/null` had been, and anyone else could not create `/dev/null.part` at all), and a stream
/// has nothing to resume.
struct DownloadFile: Sendable {
    let path: String
    /// Whether the body goes straight into the destination, which is not a regular file.
    let writesInPlace: Bool

    init(path: String) {
        self.path = path
        let target = (try? AtomicFile.resolvingLinks(path)) ?? path
        var info = stat()
        let kind = stat(target, &info) == 0 ? info.st_mode & S_IFMT : S_IFREG
        writesInPlace = kind != S_IFREG && kind != S_IFDIR
    }

    /// Where the bytes go until the body is whole: `FILE.part`, or the destination itself.
    var partialPath: String { writesInPlace ? path : path + ".part" }
    var validatorPath: String { path + ".part.validator" }

    /// The size of the partial file, or zero when there is none (or the destination is written in place).
    func partialSize() -> Int64 {
        var info = stat()
        return !writesInPlace && stat(partialPath, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int64(info.st_size) : 0
    }

    /// What is kept of a download that stopped short, for its message.
    var keptNote: String {
        writesInPlace ? "\(path) is not a file that can be resumed" : "\(partialPath) is kept for --continue"
    }

    /// The validator saved by the download that wrote the partial file: a strong ETag or a
    /// Last-Modified date, for `If-Range`.
    func savedValidator() -> String? {
        guard !writesInPlace else { return nil }
        // A validator is one short line; a file of more is not one Tincan wrote.
        guard let bytes = try? BoundedFile.read(validatorPath, limit: 64 * 1024), let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let line = text.split(separator: "\n").first.map(String.init)?.trimmingWhitespace()
        return line?.isEmpty == false ? line : nil
    }

    /// Saves the response's validator for a later `If-Range`, or removes a stale one.
    /// A weak ETag cannot be used in If-Range (RFC 9110 §13.1.5), so Last-Modified stands in.
    func saveValidator(from response: HTTPResponse) throws {
        guard !writesInPlace else { return }
        let etag = response.headers["ETag"].flatMap { $0.hasPrefix("W/") ? nil : $0 }
        guard let validator = etag ?? response.headers["Last-Modified"] else {
            try? FileManager.default.removeItem(atPath: validatorPath)
            return
        }
        do {
            try AtomicFile.write(Array((validator + "\n").utf8), to: validatorPath)
        } catch {
            throw TransportError(.fileWrite(path: validatorPath, reason: error.reasonText))
        }
    }

    /// Opens the partial file for writing: appending when `offset` is its size, truncated when zero.
    func openPartial(appendingAt offset: Int64) throws -> Int32 {
        let flags = writesInPlace ? O_WRONLY | O_CLOEXEC : O_WRONLY | O_CREAT | O_CLOEXEC | (offset > 0 ? O_APPEND : O_TRUNC)
        let descriptor = open(partialPath, flags, 0o644)
        guard descriptor >= 0 else {
            throw TransportError(.fileWrite(path: partialPath, reason: String(cString: strerror(errno))))
        }
        return descriptor
    }

    /// Moves the complete partial file over the destination and forgets the validator. A
    /// destination that is a symbolic link stays one: the file it names gets the content.
    func complete() throws {
        guard !writesInPlace else { return }
        do {
            try AtomicFile.moveIntoPlace(partialPath, over: path)
        } catch {
            throw TransportError(.fileWrite(path: path, reason: error.reasonText))
        }
        try? FileManager.default.removeItem(atPath: validatorPath)
    }

    /// The first byte a `Content-Range: bytes A-B/N` names, or nil when the header is not of that form.
    static func contentRangeStart(_ response: HTTPResponse) -> Int64? {
        guard let value = response.headers["Content-Range"]?.trimmingWhitespace(), value.lowercased().hasPrefix("bytes ") else { return nil }
        let range = value.dropFirst(6).split(separator: "/").first ?? ""
        return range.split(separator: "-").first.flatMap { Int64($0.trimmingWhitespace()) }
    }

    /// The complete length `Content-Range: bytes */N` (or `A-B/N`) names, or nil.
    static func contentRangeLength(_ response: HTTPResponse) -> Int64? {
        response.headers["Content-Range"]?.split(separator: "/").last.flatMap { Int64($0.trimmingWhitespace()) }
    }
}
