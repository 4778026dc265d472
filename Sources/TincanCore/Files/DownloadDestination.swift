import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The check a download's file must pass before its request is sent.
///
/// The body is streamed to `FILE.part` once the response arrives, so a folder that does not exist
/// used to show only after the request had gone out (and, for a POST, had done its work).
/// `tincan send --download`, replay and the TUI call ``check(_:)`` where they build the task, so
/// the user learns it first, as curl does without `--create-dirs`.
public enum DownloadDestination {
    /// Checks that the folder `path` goes in exists and is a folder.
    ///
    /// - Throws: ``DownloadDestinationError`` naming the folder.
    public static func check(_ path: String) throws(DownloadDestinationError) {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return try checkLink(path) }
        var info = stat()
        guard stat(folder, &info) == 0 else {
            throw DownloadDestinationError(path: path, folder: folder, reason: errno == ENOENT ? .missing : .unusable(errno))
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw DownloadDestinationError(path: path, folder: folder, reason: .notAFolder)
        }
        try checkLink(path)
    }

    /// A download over a symbolic link completes into the file the link names, so that file's
    /// folder must be there too.
    private static func checkLink(_ path: String) throws(DownloadDestinationError) {
        let target: String
        do {
            target = try AtomicFile.resolvingLinks(path)
        } catch {
            guard case .danglingLink(let target) = error.reason else { return }
            throw DownloadDestinationError(path: path, folder: (target as NSString).deletingLastPathComponent, reason: .danglingLink(target: target))
        }
        // A folder cannot take the body's place: said before the request goes out.
        var info = stat()
        if stat(target, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw DownloadDestinationError(path: path, folder: target, reason: .isAFolder)
        }
    }
}

/// A download whose folder cannot hold it.
public struct DownloadDestinationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the folder.
    public enum Reason: Sendable, Equatable {
        case missing
        case notAFolder
        /// `stat` failed for another reason (its `errno`), such as a folder that may not be searched.
        case unusable(Int32)
        /// The path is a symbolic link to `target`, which does not exist.
        case danglingLink(target: String)
        /// The path names a folder, not a file.
        case isAFolder
    }

    /// The download's file, as given.
    public var path: String
    /// The folder it would go in.
    public var folder: String
    public var reason: Reason

    /// Creates an error.
    public init(path: String, folder: String, reason: Reason) {
        self.path = path
        self.folder = folder
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .missing:
            "cannot download to \(path): the folder \(folder) does not exist; create it first (mkdir -p \(folder))"
        case .notAFolder:
            "cannot download to \(path): \(folder) is not a folder"
        case .unusable(let code):
            "cannot download to \(path): the folder \(folder) cannot be used: \(String(cString: strerror(code)))"
        case .danglingLink(let target):
            "cannot download to \(path): it is a symbolic link to \(target), which does not exist"
        case .isAFolder:
            "cannot download to \(path): it is a folder; name a file in it (\((path as NSString).appendingPathComponent("FILE")))"
        }
    }
}
