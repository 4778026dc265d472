import Foundation

extension Session {
    /// Where a session's relative file paths are read from: the session file's directory.
    public static func directory(of path: String) -> String {
        sessionDirectory(of: path)
    }
}

/// Where a session's relative file paths are read from: the session file's directory.
func sessionDirectory(of path: String) -> String {
    let directory = (path as NSString).deletingLastPathComponent
    return directory.isEmpty ? FileManager.default.currentDirectoryPath : directory
}

/// A file path from a session, with `~` expanded and a relative path taken from `directory`.
func resolveSessionPath(_ path: String, in directory: String) -> String {
    let expanded = (path as NSString).expandingTildeInPath
    return expanded.hasPrefix("/") ? expanded : (directory as NSString).appendingPathComponent(expanded)
}
