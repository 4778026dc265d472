import Foundation
import TincanCore

/// Saving sessions: atomically, never over a file that does not parse, and never dropping a
/// hand-written file's comments without saying so.
public enum SessionFile {
    /// Why a save was refused.
    public enum SaveError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file on disk does not parse as a session, so it may hold work that is not in memory.
        case existingFileDoesNotParse(path: String, reason: String)
        /// The file has comments that Tincan's writer would drop; save with `allowDroppingComments`
        /// or to another path.
        case wouldDropComments(path: String, lines: [Int])
        /// The file could not be written.
        case writeFailed(path: String, reason: String)

        public var description: String {
            switch self {
            case .existingFileDoesNotParse(let path, let reason):
                "not saving over \(path): it does not parse as a session (\(reason)), so saving would lose what is in it; save to another file"
            case .wouldDropComments(let path, let lines):
                "saving over \(path) would drop its comments (line\(lines.count == 1 ? "" : "s") \(lines.prefix(8).map(String.init).joined(separator: ", "))\(lines.count > 8 ? ", …" : "")); save to another file, or save again to confirm dropping them"
            case .writeFailed(let path, let reason):
                "could not save \(path): \(reason)"
            }
        }
    }

    /// Writes `session` to `path` through ``AtomicFile``, so that a reader sees the old file or the
    /// new one, never half of one, and a symbolic link stays a link to the saved file.
    ///
    /// - Parameters:
    ///   - allowDroppingComments: Whether to overwrite a file whose comments the writer would drop.
    ///   - written: The session's text when the caller has it already (`session.yamlText()`).
    /// - Returns: The text written.
    /// - Throws: ``SaveError``.
    @discardableResult
    public static func save(_ session: Session, to path: String, allowDroppingComments: Bool = false, text written: String? = nil) throws(SaveError) -> String {
        let text = written ?? session.yamlText()
        // Only a regular file can hold a session to protect: reading a device such as
        // /dev/full or a FIFO would never end.
        var info = stat()
        let isRegular = stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        if isRegular {
            // Read as a session is loaded (bounded, UTF-8): a file Tincan could not open is
            // not one it may overwrite.
            let existing: String
            do {
                existing = String(decoding: try ConfigFile.readText(path: path, limit: ConfigFile.maximumFileBytes), as: UTF8.self)
                if existing == text { return text }
                _ = try Session.parse(existing, path: path)
            } catch {
                throw .existingFileDoesNotParse(path: path, reason: "\(error)")
            }
            let comments = commentLines(in: existing)
            if !comments.isEmpty, !allowDroppingComments { throw .wouldDropComments(path: path, lines: comments) }
        }
        do {
            // A new file that holds a secret is private; an existing one keeps its mode.
            let exists = stat(path, &info) == 0
            try AtomicFile.write(Array(text.utf8), to: path, mode: !exists && session.holdsSecrets ? 0o600 : nil)
        } catch {
            throw .writeFailed(path: path, reason: error.reasonText)
        }
        return text
    }

    /// The 1-based lines that hold a YAML comment. A `#` starts a comment at the start of a line or
    /// after a space, outside quotes and outside literal and folded blocks.
    public static func commentLines(in text: String) -> [Int] {
        var lines: [Int] = []
        var blockIndent: Int?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let content = line.dropFirst(indent)
            if let block = blockIndent {
                if content.isEmpty || indent > block { continue }
                blockIndent = nil
            }
            var quote: Character?
            var previous: Character = " "
            var commented = false
            for character in content {
                if let open = quote {
                    if character == open { quote = nil }
                } else if character == "\"" || character == "'", previous == " " || previous == ":" || previous == "[" || previous == "," || previous == "-" {
                    quote = character
                } else if character == "#", previous == " " || previous == "\t" {
                    commented = true
                    break
                }
                previous = character
            }
            if commented { lines.append(number + 1) }
            let trimmed = content.trimmingWhitespace()
            if let last = trimmed.split(separator: " ").last, last.first == "|" || last.first == ">", last.count <= 3, !commented {
                blockIndent = indent
            }
        }
        return lines
    }
}

extension Session {
    /// Whether the session holds a secret as it is written (not as a `{{reference}}`): a
    /// password in `auth:`, or a header, query field or variable whose name names a secret
    /// (``Redaction/isSecret(name:)``) with a literal value. A new file that holds one is
    /// written 0600, as the cookie jar is.
    public var holdsSecrets: Bool {
        func literal(_ text: String?) -> Bool { text.map { !$0.isEmpty && !Template.mayHoldReferences($0) } ?? false }
        func secretValue(_ name: String, _ value: ParameterValue) -> Bool {
            guard Redaction.isSecret(name: name) else { return false }
            if case .string(let text) = value { return literal(text) }
            return !value.isCollection && value != .null
        }
        let headers = defaults.headers + requests.flatMap(\.headers)
        if headers.contains(where: { Redaction.isSecret(name: $0.name) && literal($0.value) }) { return true }
        func literalCredentials(_ auth: SavedAuth?) -> Bool {
            literal(auth?.password) || literal(auth?.oauth2?.clientSecret) || literal(auth?.oauth2?.refreshToken)
        }
        if literalCredentials(defaults.auth) { return true }
        if requests.contains(where: { literalCredentials($0.auth) || $0.query.contains { Redaction.isSecret(name: $0.name) && literal($0.value) } }) { return true }
        let variableSets = [variables] + Array(environments.values)
        return variableSets.contains { $0.contains { secretValue($0.key, $0.value) } }
    }
}
