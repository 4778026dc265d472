import Foundation

/// Reads a whole file into memory, but never more than a limit: a regular file, a pipe or a
/// device (`/dev/zero`) is read no further than one byte past it, so memory stays bounded
/// whatever the file holds.
public enum BoundedFile {
    /// Why a file was not read.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// It cannot be opened or read; `reason` is the system's words.
        case unreadable(reason: String)
        /// It is a folder.
        case folder
        /// It holds more than `limit` bytes.
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .unreadable(let reason): "cannot be read: \(reason)"
            case .folder: "is a folder, not a file"
            case .tooLarge(let limit): "holds more than \(RequestPreview.byteCount(Int64(limit))), the most read into memory"
            }
        }
    }

    /// The UTF-8 byte-order mark, which Notepad, Fiddler and some browsers' HAR export write
    /// before text. It says nothing in UTF-8, so a reader of text skips it.
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The bytes of a text file at `path` (at most `limit` of them), without a leading UTF-8
    /// byte-order mark: every file Tincan reads as text (sessions, collections, HAR logs, cookie
    /// files, config and themes, an `@file` value) is read here, so none of them is refused at
    /// 1:1 for the mark.
    public static func readText(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        var bytes = try read(path, limit: limit)
        if startsWithByteOrderMark(bytes) { bytes.removeFirst(byteOrderMark.count) }
        return bytes
    }

    /// Whether `bytes` start with the UTF-8 byte-order mark.
    public static func startsWithByteOrderMark(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: byteOrderMark)
    }

    /// `text` without a leading byte-order mark (U+FEFF), for text that reached memory another way.
    public static func droppingByteOrderMark(_ text: String) -> String {
        text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }

    /// The bytes of the file at `path`, at most `limit` of them.
    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        guard let bytes = try readIfPresent(path, limit: limit) else { throw .unreadable(reason: String(cString: strerror(ENOENT))) }
        return bytes
    }

    /// The bytes of the file at `path`, at most `limit` of them; nil when there is no such
    /// file (a history not written yet), while any other failure is thrown.
    public static func readIfPresent(_ path: String, limit: Int) throws(Failure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw .folder }
            if (info.st_mode & S_IFMT) == S_IFREG, info.st_size > limit { throw .tooLarge(limit: limit) }
        }
        var bytes: [UInt8] = []
        // A regular file's size is known; anything else grows in 64 KiB steps up to the limit.
        let expected = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        bytes.reserveCapacity(min(expected, limit) + 1)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
        throw .tooLarge(limit: limit)
    }
}
