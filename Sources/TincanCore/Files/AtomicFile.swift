import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Saving a whole file so that a reader sees the old content or the new, never half of either.
///
/// Every save Tincan makes (sessions, recordings, reports, the history's trim, a download's
/// validator) goes through ``write(_:to:)``, so the rules below hold everywhere:
/// - a symbolic link is followed to the file it names, and that file is replaced: the link stays
///   a link (editors and dotfile managers rely on this), relative targets read from the link's
///   directory;
/// - the new content goes to a temporary file in the *target's* directory (a rename cannot
///   cross file systems), is flushed with `fsync`, and is renamed over the target;
/// - a target that exists and is not a regular file (a device such as `/dev/stdout`, a FIFO)
///   is written in place, since renaming over it would replace the device node itself.
public enum AtomicFile {
    /// Writes `bytes` as the whole content of the file `path` names.
    ///
    /// The file keeps its permission bits; a new file is created 0644 (less the umask).
    /// - Parameter mode: Permission bits the file gets whatever it had, from its first byte on
    ///   (a cookie jar's 0600), or nil to keep them as above.
    /// - Throws: ``FileWriteError`` naming `path` and the reason; nothing is left behind.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t? = nil) throws(FileWriteError) {
        let target = try resolvingLinks(path)
        var info = stat()
        let exists = stat(target, &info) == 0
        if exists, (info.st_mode & S_IFMT) == S_IFDIR { throw FileWriteError(path: path, reason: .system(EISDIR)) }
        if exists, (info.st_mode & S_IFMT) != S_IFREG {
            try writeInPlace(bytes, to: target, reportedAs: path)
            return
        }
        try replace(target, reportedAs: path, mode: mode) { writeAll(bytes, to: $0) }
    }

    /// Moves the finished file `source` over the file `path` names, following symbolic links as
    /// ``write(_:to:)`` does, so a link stays a link to the new content (a completed download).
    ///
    /// `source` is renamed when it is on the target's file system; otherwise it is copied to a
    /// temporary file in the target's folder, flushed and renamed there, then removed.
    /// - Throws: ``FileWriteError`` naming `path`; `source` is left in place.
    public static func moveIntoPlace(_ source: String, over path: String) throws(FileWriteError) {
        let target = try resolvingLinks(path)
        if rename(source, target) == 0 { return }
        let code = errno
        guard code == EXDEV else { throw FileWriteError(path: path, reason: .system(code)) }
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw FileWriteError(path: path, reason: .system(errno)) }
        defer { close(input) }
        try replace(target, reportedAs: path) { descriptor in
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { return 0 }
                let failure = writeAll(Array(chunk[0..<count]), to: descriptor)
                if failure != 0 { return failure }
            }
        }
        unlink(source)
    }

    /// The path of the file `path` names once every symbolic link at its end is followed.
    ///
    /// A path that does not exist is returned as it is (the file will be created). Links in the
    /// directories above are left to the system, which follows them anyway.
    /// - Throws: ``FileWriteError`` for a link whose target does not exist, or a loop of links.
    public static func resolvingLinks(_ path: String) throws(FileWriteError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else {
                if current != path, lstat(current, &info) != 0 {
                    // The system can still open some links whose text names no file: /proc's
                    // links to a pipe or a socket (`/dev/stdout` -> `pipe:[…]`).
                    if stat(path, &info) == 0 { return path }
                    throw FileWriteError(path: path, reason: .danglingLink(target: current))
                }
                return current
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw FileWriteError(path: path, reason: .system(errno)) }
            let destination = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if destination.hasPrefix("/") {
                current = destination
            } else {
                let directory = (current as NSString).deletingLastPathComponent
                current = directory.isEmpty ? destination : (directory as NSString).appendingPathComponent(destination)
            }
        }
        throw FileWriteError(path: path, reason: .system(ELOOP))
    }

    /// Fills a temporary file in `target`'s folder with `fill` (which returns 0 or an `errno`),
    /// flushes it, and renames it over `target`, keeping an existing file's mode unless `mode` is given.
    private static func replace(_ target: String, reportedAs path: String, mode: mode_t? = nil, fill: (Int32) -> Int32) throws(FileWriteError) {
        var info = stat()
        let exists = stat(target, &info) == 0
        let directory = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        let folder = directory.isEmpty ? "." : directory
        let temporary = folder + "/.\(name).tincan-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode ?? 0o644)
        guard descriptor >= 0 else { throw FileWriteError(path: path, reason: .system(errno)) }
        var failure: Int32 = 0
        // An existing file keeps its mode exactly; open's mode would have gone through the umask.
        if let mode {
            if fchmod(descriptor, mode) != 0 { failure = errno }
        } else if exists, fchmod(descriptor, info.st_mode & 0o7777) != 0 {
            failure = errno
        }
        if failure == 0 { failure = fill(descriptor) }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, target) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw FileWriteError(path: path, reason: .system(failure))
        }
        // The rename is durable once the directory is; a failure here loses nothing already written.
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Writes into an existing file that is not a regular file, such as a device or a FIFO.
    private static func writeInPlace(_ bytes: [UInt8], to target: String, reportedAs path: String) throws(FileWriteError) {
        let descriptor = open(target, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileWriteError(path: path, reason: .system(errno)) }
        var failure = writeAll(bytes, to: descriptor)
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw FileWriteError(path: path, reason: .system(failure)) }
    }

    /// Writes every byte, continuing short writes and retrying interrupted ones.
    ///
    /// - Returns: 0, or the `errno` of the write that failed.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// Writes every byte of `buffer` (a chunk lent where it lies, never copied first).
    ///
    /// - Returns: 0, or the `errno` of the write that failed.
    public static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        guard let base = buffer.baseAddress else { return 0 }
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }
}

/// A file that could not be written: which, and why.
public struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the write failed.
    public enum Reason: Sendable, Equatable {
        /// The system's error number (`ENOSPC`, `EACCES`, `EPIPE`…).
        case system(Int32)
        /// The path is a symbolic link (possibly through others) to `target`, which does not exist.
        case danglingLink(target: String)
    }

    /// The path as the user gave it.
    public var path: String
    public var reason: Reason

    /// Creates an error.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The system's reason in words, or what is wrong with the link.
    public var reasonText: String {
        switch reason {
        case .system(let code): String(cString: strerror(code))
        case .danglingLink(let target): "it is a symbolic link to \(target), which does not exist"
        }
    }

    public var description: String { "cannot write to \(path): \(reasonText)" }
}
