import Foundation
import OrderedCollections
import TincanCore

/// `curl` command lines: importing one as a saved request, and exporting a built request as one.
///
/// The rule both ways: what Tincan sends for an imported command is what curl sends for it, and
/// an exported command makes curl send what Tincan sends. What cannot be carried over is named
/// in the warnings, never dropped silently.
public enum CurlCommand {
    /// An imported request, and what of the command it could not keep.
    public struct Imported: Sendable {
        public var request: SavedRequest
        /// One sentence per option or behaviour that Tincan does not send as curl does.
        public var warnings: [String]
    }

    /// The headers curl sends unless told not to (besides Host); curl's User-Agent differs from
    /// Tincan's by design.
    static let curlDefaultHeaders = ["User-Agent", "Accept"]

    /// SwiftNIO writes an empty field as `Name: ` and curl as `Name:`; HTTP reads them the same.
    static func emptyHeaderWarning(_ name: String) -> String {
        "\(name) is empty: Tincan's transport (SwiftNIO) sends '\(name): ' with a space, curl '\(name):' without; servers read both as empty"
    }

    /// Parses a curl command (with or without the leading `curl`) into a saved request.
    ///
    /// File paths are kept as written; `@file` data that curl would change (line breaks taken out
    /// by `-d`, escaping by `--data-urlencode`) is read now, as curl reads it when it runs. Only
    /// files in `workingDirectory` are read or kept: another is a placeholder the user sets, or
    /// left out, each named (``ImportedPaths``).
    /// - Parameter workingDirectory: Where the command would run: relative files are read from it.
    /// - Throws: ``InterchangeError`` naming the option that cannot be imported.
    public static func parse(_ command: String, workingDirectory: String = FileManager.default.currentDirectoryPath) throws(InterchangeError) -> Imported {
        var words = try ShellWords.splitBytes(command)
        if words.first == Array("curl".utf8) { words.removeFirst() }
        guard !words.isEmpty else { throw InterchangeError(.emptyCommand) }
        var reader = CurlCommandReader(workingDirectory: workingDirectory)
        try reader.read(words)
        var imported = try reader.finish()
        var session = Session(requests: [imported.request])
        imported.warnings += ImportChecks.finish(&session, folder: workingDirectory, origin: .commandLine)
        imported.request = session.requests[0]
        return imported
    }
}
