import Foundation

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

    /// Writes `session` to `path` through a temporary file and a rename, so that a reader sees the
    /// old file or the new one, never half of one.
    ///
    /// - Parameter allowDroppingComments: Whether to overwrite a file whose comments the writer would drop.
    /// - Returns: The text written.
    /// - Throws: ``SaveError``.
    @discardableResult
    public static func save(_ session: Session, to path: String, allowDroppingComments: Bool = false) throws(SaveError) -> String {
        let text = session.yamlText()
        if let data = FileManager.default.contents(atPath: path) {
            let existing = String(decoding: data, as: UTF8.self)
            if existing == text { return text }
            do {
                _ = try Session.parse(existing, path: path)
            } catch {
                throw .existingFileDoesNotParse(path: path, reason: "\(error)")
            }
            let comments = commentLines(in: existing)
            if !comments.isEmpty, !allowDroppingComments { throw .wouldDropComments(path: path, lines: comments) }
        }
        do {
            try writeAtomically(Array(text.utf8), to: path)
        } catch {
            throw .writeFailed(path: path, reason: "\(error)")
        }
        return text
    }

    /// Writes bytes to a temporary file beside `path`, flushes it to disk, and renames it over `path`,
    /// keeping the old file's permissions.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\(name).tincan-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        var info = stat()
        let mode = stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o644
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
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
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            if let last = trimmed.split(separator: " ").last, last.first == "|" || last.first == ">", last.count <= 3, !commented {
                blockIndent = indent
            }
        }
        return lines
    }
}
