import Foundation
import OrderedCollections
import TincanCore

/// What the user answered about session files that weaken TLS trust (`security: insecure: true`,
/// a `tls-min:` below 1.2, a `ca-file:`; ``SecuritySettings/weakenings``): whether the TUI
/// applies the file's settings, remembered per file and per content. An answer holds for the
/// file as it was when answered (its SHA-256): a file someone changed since is asked about again.
///
/// Kept in `$XDG_STATE_HOME/tincan/trust.json` (else `~/.local/state/tincan/`), private to the
/// user (0600), the newest ``maximumFiles`` files. A file that does not read as answers is never
/// written over; the error names it.
public struct SessionTrust: Sendable, Equatable {
    /// The answer about one file.
    public enum Answer: String, Sendable, Equatable {
        /// Its settings apply, weaker trust and all.
        case apply
        /// It is used with full verification: its weakening settings are left out.
        case refuse
    }

    /// One file's answer, and the content it was given for.
    public struct Entry: Sendable, Equatable {
        /// The SHA-256 of the file's bytes, lowercase hexadecimal.
        public var digest: String
        public var answer: Answer

        public init(digest: String, answer: Answer) {
            self.digest = digest
            self.answer = answer
        }
    }

    /// The most files remembered; the oldest answers go first.
    public static let maximumFiles = 500
    /// The file holds at most this many bytes.
    public static let maximumFileBytes = 1 << 20

    /// Each file's answer, by absolute path, oldest first.
    public var files: OrderedDictionary<String, Entry> = [:]

    /// No answers yet.
    public init() {}

    /// The answers file for an environment.
    public static func defaultPath(environment: [String: String] = ProcessEnvironment.values) -> String {
        (XDGDirectory.state.tincanFolder(environment: environment) as NSString).appendingPathComponent("trust.json")
    }

    /// The key of a session file: its absolute path.
    public static func key(for file: String) -> String {
        URL(fileURLWithPath: file).standardizedFileURL.path
    }

    /// The answer given for `file` with this content, or nil when none was (or the file changed).
    public func answer(for file: String, digest: String) -> Answer? {
        guard let entry = files[Self.key(for: file)], entry.digest == digest else { return nil }
        return entry.answer
    }

    /// Why the answers could not be read or saved.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Reads the answers file; a missing file is no answer yet.
    ///
    /// - Throws: ``Failure`` for a file that cannot be read or does not hold answers.
    public static func load(path: String) throws(Failure) -> SessionTrust {
        let kept = "; it is kept as it is, and no answer is remembered until it reads"
        let value: ParameterValue
        do {
            guard let read = try StateFile.read(path, limit: maximumFileBytes) else { return SessionTrust() }
            value = read
        } catch {
            throw Failure(path: path, reason: error.readable ? error.reason + kept : error.reason)
        }
        guard case .dictionary(let top) = value, case .dictionary(let entries)? = top["files"] else {
            throw Failure(path: path, reason: "expected {\"files\": {PATH: {\"sha256\": …, \"answer\": \"apply\" or \"refuse\"}}}" + kept)
        }
        var trust = SessionTrust()
        for (file, entry) in entries {
            guard case .dictionary(let fields) = entry, case .string(let digest)? = fields["sha256"], case .string(let word)? = fields["answer"],
                  let answer = Answer(rawValue: word) else {
                throw Failure(path: path, reason: "'\(file)': expected {\"sha256\": HEX, \"answer\": \"apply\" or \"refuse\"}" + kept)
            }
            trust.files[file] = Entry(digest: digest, answer: answer)
        }
        return trust
    }

    /// Records the answer for `file` in the answers file as it is now (another Tincan may have
    /// recorded one since): read again, the entry put last, written back atomically.
    ///
    /// - Throws: ``Failure`` naming the file and what went wrong; a file that does not read is
    ///   not written over.
    public static func record(_ answer: Answer, digest: String, for file: String, path: String) throws(Failure) {
        var trust = try load(path: path)
        trust.remember(answer, digest: digest, for: file)
        try trust.save(path: path)
    }

    /// Remembers the answer for `file` (its newest), forgetting the oldest past ``maximumFiles``.
    public mutating func remember(_ answer: Answer, digest: String, for file: String) {
        let key = Self.key(for: file)
        files.removeValue(forKey: key)
        files[key] = Entry(digest: digest, answer: answer)
        if files.count > Self.maximumFiles { files.removeFirst(files.count - Self.maximumFiles) }
    }

    /// Writes the answers file atomically, private to the user (0600, in a 0700 folder).
    public func save(path: String) throws(Failure) {
        let json = ParameterValue.dictionary(["files": .dictionary(OrderedDictionary(uniqueKeysWithValues: files.map { file, entry in
            (file, ParameterValue.dictionary(["sha256": .string(entry.digest), "answer": .string(entry.answer.rawValue)]))
        }))])
        do {
            try StateFile.write(json, to: path)
        } catch {
            throw Failure(path: path, reason: "could not save the answer: \(error.reason)")
        }
    }
}

extension SecuritySettings {
    /// These settings without what weakens trust: verification on, TLS 1.2 at least, the
    /// system's authorities (pins stay, as they only narrow trust).
    public var withoutWeakenings: SecuritySettings {
        var settings = self
        settings.insecure = false
        settings.minimumTLSVersion = .standard
        if pins.isEmpty { settings.caFile = nil }
        return settings
    }
}
