import Foundation
import TincanCore

/// The `:` command line's history: one command per line in `commands` beside the request
/// history. Lines arrive with their secrets already hidden (the command line's parser knows
/// where the values are).
public struct CommandHistoryStore: Sendable {
    public let path: String
    /// How many of the newest commands ``load()`` returns.
    public var limit: Int

    public init(path: String, limit: Int = 500) {
        self.path = path
        self.limit = limit
    }

    /// The standard file: `commands` in the history file's directory.
    public static func defaultPath(environment: [String: String] = ProcessEnvironment.values) -> String {
        ((HistoryStore.defaultPath(environment: environment) as NSString).deletingLastPathComponent as NSString).appendingPathComponent("commands")
    }

    /// Appends a command.
    public func append(_ line: String) throws(HistoryWriteError) {
        try HistoryStore.appendLine(line, to: path)
    }

    /// The most bytes of commands read: far more than ``limit`` lines of any length typed.
    public static let maximumFileBytes = 16 << 20

    /// The newest commands, oldest first; a missing file is an empty history, and so is one
    /// that cannot be read (a folder, or past ``maximumFileBytes``): recalling commands is a
    /// convenience that never stops the command line.
    public func load() -> [String] {
        guard let bytes = (try? BoundedFile.readIfPresent(path, limit: Self.maximumFileBytes)) ?? nil else { return [] }
        return Array(String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init).suffix(limit))
    }
}
