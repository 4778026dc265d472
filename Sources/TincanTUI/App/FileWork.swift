import TincanCore
import TincanSessions

/// Where the refusal of file work goes once the runner answers: back under the prompt or on the
/// command line that asked (as it showed when the work was done inside `update`), or to the
/// status line.
public enum Asker: Sendable, Equatable {
    /// The prompt as it was answered (its field's text kept).
    case prompt(Prompt)
    /// The command line, with the line that was run.
    case commandLine(String)
    /// Nothing open to answer under: the status line says it.
    case statusLine
}

/// A `key=@file` (or `key:=@file`) value a command line reads before it applies
/// (``Effect/readFileValues(_:workingDirectory:line:)``).
public struct FileValueRead: Sendable, Hashable {
    /// The parameter key the value goes to.
    public var key: String
    /// The file, as typed.
    public var path: String
    /// Whether the file holds JSON (`:=@`) rather than text.
    public var isJSON: Bool

    public init(key: String, path: String, isJSON: Bool) {
        self.key = key
        self.path = path
        self.isJSON = isJSON
    }
}

/// Why file work failed, in the words shown to the user.
public struct FileWorkFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// What became of a session save (``Effect/saveSession(_:path:overwriting:droppingComments:)``).
public enum SessionSaveOutcome: Sendable {
    /// Written; the session as read back from the file (so line numbers point into it), and the
    /// file's SHA-256 that a trust answer is remembered for.
    case saved(Session, digest: String?)
    /// A file is already there, and the save was not told to overwrite it.
    case exists
    /// Refused or failed, as ``SessionFile/save(_:to:allowDroppingComments:text:)`` says.
    case failed(SessionFile.SaveError)
}

/// A session file read (``Effect/openSession(path:discardingChanges:asker:)``).
public struct OpenedSessionFile: Sendable {
    public var session: Session
    /// The file's SHA-256, or nil when it could not be read a second time.
    public var digest: String?
    /// What it reads or writes outside its folder, with the file's own variables.
    public var filesOutside: [OutsideFile]

    public init(session: Session, digest: String?, filesOutside: [OutsideFile] = []) {
        self.session = session
        self.digest = digest
        self.filesOutside = filesOutside
    }
}

/// What became of saving the response body (``Effect/saveBody(_:path:overwriting:asker:)``).
public enum BodySaveOutcome: Sendable, Equatable {
    /// Written atomically: this many bytes.
    case saved(byteCount: Int)
    /// The path is a folder.
    case isFolder
    /// A file is already there, and the save was not told to overwrite it.
    case exists
    /// The write failed.
    case failed(String)
}
