import Foundation
import TincanCore

/// The history file: one JSON object per line, appended to as requests are sent, under the XDG
/// data directory (`$XDG_DATA_HOME/tincan/history.jsonl`, else `~/.local/share/tincan/`).
///
/// Appends are single `write`s to a file opened with `O_APPEND`, so two Tincans can share it.
/// The directory is created private (0700) and the file 0600. Secrets are hidden before an entry
/// is written unless ``keepsSecrets`` is set.
public struct HistoryStore: Sendable {
    /// The file's path.
    public let path: String
    /// Write secrets as they are (the user opted in with `history-secrets: true`).
    public var keepsSecrets: Bool
    /// When the file holds more entries than this, loading rewrites it with the newest ones.
    public var capacity: Int

    /// The most bytes of history read: a thousand entries with their text bodies fit many
    /// times over; a larger file is reported and left as it is.
    public static let maximumFileBytes = 256 << 20

    /// Creates a store for a file.
    public init(path: String, keepsSecrets: Bool = false, capacity: Int = 1000) {
        self.path = path
        self.keepsSecrets = keepsSecrets
        self.capacity = capacity
    }

    /// The standard history file for an environment.
    public static func defaultPath(environment: [String: String] = ProcessEnvironment.values) -> String {
        (XDGDirectory.data.tincanFolder(environment: environment) as NSString).appendingPathComponent("history.jsonl")
    }

    /// Appends an entry (redacted unless ``keepsSecrets``).
    ///
    /// - Throws: ``HistoryWriteError`` naming the file and the system's reason.
    public func append(_ entry: HistoryEntry) throws(HistoryWriteError) {
        try Self.appendLine((keepsSecrets ? entry : entry.redacted()).jsonLine(), to: path)
    }

    /// Appends one line to a private file with one `O_APPEND` write, creating the file (0600)
    /// and its directory (0700) when missing.
    public static func appendLine(_ line: String, to path: String) throws(HistoryWriteError) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw HistoryWriteError(path: path, reason: .directoryNotCreated(error.localizedDescription))
        }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw HistoryWriteError(path: path, reason: .cannotOpen(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        let bytes = Array((line + "\n").utf8)
        let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard count == bytes.count else {
            throw HistoryWriteError(path: path, reason: count < 0 ? .cannotWrite(String(cString: strerror(errno))) : .shortWrite)
        }
    }

    /// What ``load()`` read.
    public struct Loaded: Sendable {
        /// The entries, oldest first.
        public var entries: [HistoryEntry]
        /// Lines that were not read, each as `file:line: reason`. They stay in the file.
        public var problems: [String]
    }

    /// Reads the file, oldest entry first. A missing file is an empty history.
    ///
    /// When the file holds more than ``capacity`` entries and every line read, it is rewritten
    /// atomically with the newest ``capacity``; a file with unreadable lines is never rewritten.
    public func load() -> Loaded {
        let bytes: [UInt8]
        do {
            guard let read = try BoundedFile.readIfPresent(path, limit: Self.maximumFileBytes) else { return Loaded(entries: [], problems: []) }
            bytes = read
        } catch {
            return Loaded(entries: [], problems: ["\(path): \(error); the history was not read"])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return Loaded(entries: [], problems: ["\(path): not UTF-8 text; the history was not read"])
        }
        var entries: [HistoryEntry] = []
        var problems: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            do {
                entries.append(try HistoryEntry(jsonLine: String(line)))
            } catch {
                problems.append("\(path):\(number + 1): \(error); the line was skipped")
            }
        }
        if entries.count > capacity, problems.isEmpty {
            entries.removeFirst(entries.count - capacity)
            let kept = entries.map { $0.jsonLine() + "\n" }.joined()
            try? AtomicFile.write(Array(kept.utf8), to: path, mode: 0o600)
        }
        return Loaded(entries: entries, problems: problems)
    }
}

/// Why an entry was not added to the history file.
public struct HistoryWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why, in the system's words where it gave some.
    public enum Reason: Sendable, Equatable {
        /// The file's folder could not be created.
        case directoryNotCreated(String)
        /// The file could not be opened for appending.
        case cannotOpen(String)
        /// The write failed.
        case cannotWrite(String)
        /// Fewer bytes were written than the line holds.
        case shortWrite
    }

    /// The history file.
    public var path: String
    /// Why.
    public var reason: Reason

    /// Creates an error.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let why = switch reason {
        case .directoryNotCreated(let detail): "its directory could not be created: \(detail)"
        case .cannotOpen(let detail), .cannotWrite(let detail): detail
        case .shortWrite: "a short write"
        }
        return "\(path): the history entry was not written: \(why)"
    }
}
