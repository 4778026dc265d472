import Foundation
import TincanCore

/// Keeps the theme chosen with ctrl+t for the next run (issue 34 §9): the `theme:` line of
/// `config.yaml` is written in place, so the file's other lines and its comments stay as the user
/// wrote them; a file without one gets it appended, and a missing file is created with it.
public enum ConfigThemeLine {
    /// `text` with its top-level `theme:` set to `name`.
    static func setting(_ name: String, in text: String) -> String {
        let line = "theme: " + quoted(name)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let index = lines.firstIndex(where: { $0.hasPrefix("theme:") }) {
            lines[index] = line
            return lines.joined(separator: "\n")
        }
        if lines.last == "" { lines.removeLast() }
        return (lines + [line]).joined(separator: "\n") + "\n"
    }

    /// A theme name as a YAML scalar: plain when it reads back as the same text.
    static func quoted(_ name: String) -> String {
        let plain = name.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) } && !["true", "false", "null", "yes", "no", "on", "off", "~"].contains(name.lowercased())
            && Double(name) == nil
        return plain ? name : "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Writes the theme into the config file at `path` (created with its folder when missing).
    ///
    /// - Throws: ``FileWriteError`` when it cannot be written, or when the file is too large to be a config.
    public static func save(_ name: String, to path: String) throws(FileWriteError) {
        var existing = ""
        if FileManager.default.fileExists(atPath: path) {
            guard let bytes = try? BoundedFile.read(path, limit: 1 << 20) else { throw FileWriteError(path: path, reason: .system(EFBIG)) }
            existing = String(decoding: bytes, as: UTF8.self)
        } else {
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        }
        try AtomicFile.write(Array(setting(name, in: existing).utf8), to: path)
    }
}
