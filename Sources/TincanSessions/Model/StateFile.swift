import Foundation
import TincanCore

/// A JSON file Tincan keeps for one user in its XDG state folder (the lessons' progress, the
/// answers about sessions' trust): read within a size, written atomically and privately (0600, in
/// a 0700 folder). Its owners say what its reasons mean for them.
enum StateFile {
    /// The file's JSON, or nil when there is no file.
    ///
    /// - Throws: The reason in words: the file cannot be read, is too large, or is not JSON.
    static func read(_ path: String, limit: Int) throws(StateFileError) -> ParameterValue? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, limit: limit)
        } catch {
            throw StateFileError(reason: "\(error)", readable: false)
        }
        do {
            return try JSONParser.parse(bytes: bytes)
        } catch {
            throw StateFileError(reason: "\(error)", readable: true)
        }
    }

    /// Writes `value` as indented JSON, atomically, 0600 in a 0700 folder.
    static func write(_ value: ParameterValue, to path: String) throws(StateFileError) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try AtomicFile.write(JSONWriter.bytes(value, indent: 2) + [0x0A], to: path, mode: 0o600)
        } catch {
            throw StateFileError(reason: "\(error)", readable: true)
        }
    }
}

/// Why a state file could not be read or written.
struct StateFileError: Error {
    var reason: String
    /// Whether the file could be read (a reason about its content or its writing, not its access).
    var readable: Bool
}
