import Foundation
import NIOCore

/// A request body: nothing, bytes in memory, a file streamed from disk, or multipart form data.
public enum RequestBody: Sendable {
    case none
    case bytes([UInt8])
    /// A file, read from disk in chunks as it is sent.
    case file(path: String, length: Int64)
    case multipart(MultipartFormData)

    /// The body that streams the regular file at `path` from disk, with its length.
    ///
    /// - Throws: ``RequestSerializationError``; see ``sendableFileLength(atPath:)``.
    public static func file(atPath path: String) throws(RequestSerializationError) -> RequestBody {
        .file(path: path, length: try sendableFileLength(atPath: path))
    }

    /// The length of the regular, readable file at `path`: the one check of a file a request
    /// sends (a raw body, an upload, a multipart part).
    ///
    /// - Throws: ``RequestSerializationError`` naming the path: not reachable (missing, or a
    ///   folder on the way is not one), not a regular file, or unreadable with the system's reason.
    public static func sendableFileLength(atPath path: String) throws(RequestSerializationError) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw RequestSerializationError(.fileNotReachable(path: path)) }
            throw RequestSerializationError(.fileUnreadable(path: path, reason: String(cString: strerror(errno))))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw RequestSerializationError(.notARegularFile(path: path)) }
        guard access(path, R_OK) == 0 else {
            throw RequestSerializationError(.fileUnreadable(path: path, reason: String(cString: strerror(errno))))
        }
        return Int64(info.st_size)
    }

    /// This body with each file's length taken again now (a raw file body, a multipart file part),
    /// for a request built earlier from lengths read then (the TUI's preview): what is sent is the
    /// file as it is when the request leaves.
    ///
    /// - Throws: ``RequestSerializationError`` naming a file that can no longer be sent.
    public func withCurrentFileLengths() throws(RequestSerializationError) -> RequestBody {
        switch self {
        case .none, .bytes: return self
        case .file(let path, _): return try .file(atPath: path)
        case .multipart(let form): return .multipart(try form.withCurrentFileLengths())
        }
    }

    /// The length in bytes, or nil when there is no body.
    public var length: Int64? {
        switch self {
        case .none: nil
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, let length): length
        case .multipart(let form): form.contentLength
        }
    }

    /// A reader that yields the body in chunks; a new one starts again from the first byte.
    ///
    /// - Throws: ``RequestSerializationError`` when a file or stream cannot be opened.
    public func makeReader(chunkSize: Int = 64 * 1024) throws -> any BodyReader {
        switch self {
        case .none: return BytesReader(bytes: [], chunkSize: chunkSize)
        case .bytes(let bytes): return BytesReader(bytes: bytes, chunkSize: chunkSize)
        case .file(let path, _): return try FileReader(path: path, chunkSize: chunkSize)
        case .multipart(let form): return try form.makeReader(chunkSize: chunkSize)
        }
    }

    /// The whole body in memory. For previews of small bodies and tests; sending streams instead.
    public func collect() throws -> [UInt8] {
        var reader = try makeReader()
        var result: [UInt8] = []
        while let chunk = try reader.read() { result.append(contentsOf: chunk) }
        return result
    }
}

/// Yields a body in chunks, so that large bodies are never held whole in memory.
///
/// A reader is made and driven inside one task and never crosses to another, so it need not be
/// Sendable; make a new one with ``RequestBody/makeReader(chunkSize:)`` wherever it is needed.
public protocol BodyReader {
    /// The next chunk, or nil at the end.
    mutating func read() throws -> [UInt8]?
}

/// Reads bytes that are already in memory.
struct BytesReader: BodyReader {
    let bytes: [UInt8]
    let chunkSize: Int
    var offset = 0

    mutating func read() -> [UInt8]? {
        guard offset < bytes.count else { return nil }
        let end = min(offset + chunkSize, bytes.count)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}

/// Reads a file from disk, one chunk at a time.
final class FileReader: BodyReader {
    private let descriptor: Int32
    private let path: String
    private let chunkSize: Int

    init(path: String, chunkSize: Int) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RequestSerializationError(.fileUnreadable(path: path, reason: String(cString: strerror(errno))))
        }
        self.descriptor = descriptor
        self.path = path
        self.chunkSize = chunkSize
    }

    deinit { close(descriptor) }

    func read() throws -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, chunkSize) }
        if count < 0 {
            throw RequestSerializationError(.fileUnreadable(path: path, reason: String(cString: strerror(errno))))
        }
        guard count > 0 else { return nil }
        chunk.removeSubrange(count...)
        return chunk
    }

    /// The next chunk read straight into a buffer that can be sent as it is, or nil at the end.
    func readBuffer() throws -> ByteBuffer? {
        var buffer = ByteBufferAllocator().buffer(capacity: chunkSize)
        var failure: Int32 = 0
        let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: chunkSize) { pointer in
            let count = Glibc.read(descriptor, pointer.baseAddress, chunkSize)
            if count < 0 { failure = errno }
            return max(0, count)
        }
        if failure != 0 {
            throw RequestSerializationError(.fileUnreadable(path: path, reason: String(cString: strerror(failure))))
        }
        return count > 0 ? buffer : nil
    }
}
