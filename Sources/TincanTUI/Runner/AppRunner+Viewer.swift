import Foundation
import TincanCore

/// Showing a response body in an outside program (issue 17 §3).
extension AppRunner {
    /// Writes the body to a temporary file (0600), runs `$PAGER` (else `less`) or `$VISUAL`,
    /// `$EDITOR` (else `vi`) on it, and removes the file.
    ///
    /// - Returns: The command that ran, or why it did not show the body.
    static func runViewer(_ viewer: ExternalViewer, _ bytes: [UInt8], fileExtension: String, environment: [String: String] = ProcessEnvironment.values) -> Result<String, EditorError> {
        func named(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let command = switch viewer {
        case .pager: named("PAGER") ?? "less"
        case .editor: named("VISUAL") ?? named("EDITOR") ?? "vi"
        }
        let path = temporaryPath(fileExtension: fileExtension)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            return .failure(EditorError(message: "could not write \(path)"))
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        if let failure = runCommand(command, on: path) { return .failure(EditorError(message: failure)) }
        return .success(command)
    }
}
