import Foundation
import TincanCore

/// The TUI's unsaved edits, kept on disk while it runs (issue 34 §2): a crash, a closed terminal
/// or a `kill` loses at most the last second of typing, and the next run on the same file (or on
/// the welcome request) offers them back.
///
/// One draft per session file, named after the file's absolute path, and one for the untitled
/// session, in `$XDG_STATE_HOME/tincan/drafts/` (else `~/.local/state/tincan/drafts/`): a folder
/// of mode 0700 and files of mode 0600, since a draft holds what the session holds, credentials
/// included. A draft is the session in its file format, so it reads back with every check a
/// session file gets.
public struct DraftStore: Sendable {
    /// The folder the drafts live in.
    public let folder: String

    /// A store in `folder`.
    public init(folder: String) {
        self.folder = folder
    }

    /// The drafts folder under the XDG state directory.
    public static func defaultFolder(environment: [String: String] = ProcessEnvironment.values) -> String {
        (XDGDirectory.state.tincanFolder(environment: environment) as NSString).appendingPathComponent("drafts")
    }

    /// A draft read back.
    public struct Draft: Sendable {
        /// The session as it was when the draft was written.
        public var session: Session
        /// When it was written.
        public var written: Date
        /// Where it is.
        public var path: String
    }

    /// Where the draft of the session saved at `sessionPath` (nil: the untitled session) lives.
    public func path(for sessionPath: String?) -> String {
        guard let sessionPath else { return (folder as NSString).appendingPathComponent("untitled.draft.tincan.yaml") }
        let absolute = sessionPath.hasPrefix("/") ? sessionPath : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(sessionPath)
        let standard = (absolute as NSString).standardizingPath
        let name = (standard as NSString).lastPathComponent.prefix(100)
        return (folder as NSString).appendingPathComponent("\(name)-\(Self.hash(standard)).draft.tincan.yaml")
    }

    /// Writes the draft of a session, atomically, readable by this user alone.
    ///
    /// - Throws: ``FileWriteError`` when the folder or the file cannot be written.
    public func write(_ session: Session, for sessionPath: String?) throws(FileWriteError) {
        try Self.makeFolder(folder)
        try AtomicFile.write(Array(session.yamlText().utf8), to: path(for: sessionPath), mode: 0o600)
    }

    /// The draft of a session, if one was left and it reads as a session.
    public func read(for sessionPath: String?) -> Draft? {
        let draftPath = path(for: sessionPath)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: draftPath),
              let session = try? Session.load(path: draftPath) else { return nil }
        return Draft(session: session, written: attributes[.modificationDate] as? Date ?? Date(), path: draftPath)
    }

    /// Removes the draft of a session, if there is one.
    public func remove(for sessionPath: String?) {
        unlink(path(for: sessionPath))
    }

    /// Makes `path` and the folders above it that are missing, each of mode 0700.
    static func makeFolder(_ path: String) throws(FileWriteError) {
        var info = stat()
        if stat(path, &info) == 0 { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeFolder(parent) }
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw FileWriteError(path: path, reason: .system(errno)) }
    }

    /// FNV-1a over the path's bytes: a short, stable name part (file names have a length limit;
    /// paths do not).
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
        return HexText.number(value, width: 16)
    }
}
