import Foundation

/// What `stat(2)` says of a file, to tell whether it changed since it was read: which file it is
/// (device and inode), its size, its mode, and when its content (mtime) and its metadata (ctime)
/// last changed, to the nanosecond the file system keeps. A file that cannot be looked at is
/// stamped with the reason (`errno`), so a missing file stays missing without being read again.
///
/// The TUI's preview keeps what it read of a file with its stamp and reads it again only when
/// the stamp moved (issue 35 §1). A rewrite of the same size within one tick of the file
/// system's clock keeps its stamp; a send takes the lengths again as it leaves
/// (``RequestBody/withCurrentFileLengths()``).
public enum FileStamp: Sendable, Hashable {
    /// The file is there.
    case present(device: UInt64, inode: UInt64, size: Int64, mode: UInt32, modified: Int64, modifiedNanoseconds: Int, changed: Int64, changedNanoseconds: Int)
    /// `stat` failed with this `errno` (`ENOENT`, `EACCES`…).
    case absent(errno: Int32)

    /// The stamp of the file at `path` now, symbolic links followed.
    public static func of(_ path: String) -> FileStamp {
        var info = stat()
        guard stat(path, &info) == 0 else { return .absent(errno: errno) }
        return .present(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), mode: UInt32(info.st_mode),
                        modified: Int64(info.st_mtim.tv_sec), modifiedNanoseconds: info.st_mtim.tv_nsec,
                        changed: Int64(info.st_ctim.tv_sec), changedNanoseconds: info.st_ctim.tv_nsec)
    }
}
