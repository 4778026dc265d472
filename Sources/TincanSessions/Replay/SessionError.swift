import TincanCore

/// A session that cannot run as asked: an unknown environment, a download folder that is not
/// there, a base or security policy that does not apply.
public struct SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The environment asked for is not one of the session's (`defined`, in file order).
        case unknownEnvironment(String, defined: [String])
        /// A request (`#1 name`, from line `line`; 0 when not from a file) would download into a
        /// folder that cannot hold the file, so the replay stops before anything is sent.
        case downloadFolder(request: String, line: Int, DownloadDestinationError)
        /// The session's `cookies: {file: …}` cannot be read (a malformed line, named by file and
        /// line); nothing is sent and the file is left as it is.
        case cookieFile(CookieFileError)
        /// The session's cookie file cannot be saved after the run.
        case cookieFileNotSaved(FileWriteError)
        /// A reason in words, for what has no case yet: the replayer's session manager, whose
        /// set-up is being rewritten, words its own.
        case other(String)
    }

    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    /// Creates an error whose reason is a sentence (``Reason/other(_:)``).
    public init(_ message: String) {
        self.init(.other(message))
    }

    public var description: String {
        switch reason {
        case .unknownEnvironment(let name, let defined):
            "there is no environment '\(name)'; " + (defined.isEmpty ? "the session defines none" : "expected one of: \(defined.joined(separator: ", "))")
        case .downloadFolder(let request, let line, let error):
            "request '\(request)'\(line > 0 ? " (line \(line))" : ""): \(error)"
        case .cookieFile(let error):
            "cookies: \(error)"
        case .cookieFileNotSaved(let error):
            "cookies: the cookie file cannot be saved: \(error)"
        case .other(let message):
            message
        }
    }
}
