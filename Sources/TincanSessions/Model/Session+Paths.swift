import Foundation
import TincanCore

extension Session {
    /// Where a session's relative file paths are read from: the session file's directory.
    public static func directory(of path: String) -> String {
        sessionDirectory(of: path)
    }

    /// Whether a request's body file, upload or multipart file is `-`, standard input, so the
    /// front end must read it before the replay (issue 18 §7). Paths are looked at as written: one
    /// that only becomes `-` through a variable is not read, and its request fails naming it.
    public var readsStandardInput: Bool {
        requests.contains { request in
            if case .file(RequestDraft.standardInputPath)? = request.body { return true }
            return request.upload?.file == RequestDraft.standardInputPath
                || request.files.contains { $0.path == RequestDraft.standardInputPath }
        }
    }

    /// The session's cookie file (`cookies: {file: …}`) as a path, relative ones taken from
    /// `directory` (the session file's folder); nil when the session keeps no cookie file.
    public func cookieFilePath(in directory: String) -> String? {
        cookieFile.map { resolveSessionPath($0, in: directory) }
    }

    /// Loads the session's cookie file into `jar`; nothing when it keeps none or the file does
    /// not exist yet.
    ///
    /// - Throws: ``SessionError/Reason/cookieFile(_:)`` naming the file and line at fault.
    public func loadCookies(into jar: CookieJar, directory: String) throws(SessionError) {
        guard let path = cookieFilePath(in: directory) else { return }
        do {
            jar.insert(try CookieFile.load(from: path))
        } catch {
            throw SessionError(.cookieFile(error))
        }
    }

    /// Saves `jar` to the session's cookie file, atomically and with mode 0600; nothing when it
    /// keeps none.
    ///
    /// - Throws: ``SessionError/Reason/cookieFileNotSaved(_:)``.
    public func saveCookies(from jar: CookieJar, directory: String) throws(SessionError) {
        guard let path = cookieFilePath(in: directory) else { return }
        do {
            try CookieFile.save(jar, to: path)
        } catch {
            throw SessionError(.cookieFileNotSaved(error))
        }
    }
}

/// Where a session's relative file paths are read from: the session file's directory.
func sessionDirectory(of path: String) -> String {
    let directory = (path as NSString).deletingLastPathComponent
    return directory.isEmpty ? FileManager.default.currentDirectoryPath : directory
}

/// A file path from a session, with `~` expanded and a relative path taken from `directory`.
func resolveSessionPath(_ path: String, in directory: @autoclosure () -> String) -> String {
    let expanded = (path as NSString).expandingTildeInPath
    return expanded.hasPrefix("/") ? expanded : (directory() as NSString).appendingPathComponent(expanded)
}
