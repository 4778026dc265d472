import Foundation
import TincanCore
import TincanSessions

/// The file work `update` asks for: the runner does it on the UI thread, between two frames, and
/// answers with the message that the state applies, so nothing reads or writes a file inside
/// `update` (issue 35 §1).
extension AppRunner {
    /// `effects` with each piece of file work done and its answer applied to `state`, in order,
    /// and what those answers ask for after it (a save's answer may open a file, or quit).
    ///
    /// - Returns: Every effect, the file work's among them, for the loop to carry out the rest.
    static func answeringFileWork(_ effects: [Effect], in state: inout AppState) -> [Effect] {
        var all = effects
        var next = 0
        while next < all.count {
            if let answer = answer(all[next]) { all += state.update(answer) }
            next += 1
        }
        return all
    }

    /// Does one piece of file work and returns its answer; nil for an effect that is not file work.
    static func answer(_ effect: Effect) -> Message? {
        switch effect {
        case let .saveSession(session, path, overwriting, droppingComments):
            return .sessionSaved(path: path, saveSession(session, to: path, overwriting: overwriting, droppingComments: droppingComments))
        case let .openSession(path, discardingChanges, asker):
            return .sessionOpened(path: path, openSession(path), discardingChanges: discardingChanges, asker: asker)
        case let .saveBody(bytes, path, overwriting, asker):
            return .bodySaved(path: path, saveBody(bytes, to: path, overwriting: overwriting), asker: asker)
        case let .readFileValues(reads, workingDirectory, line):
            return .fileValuesRead(line: line, readFileValues(reads, workingDirectory: workingDirectory))
        case let .importCurl(text, workingDirectory, sessionDirectory):
            return .curlImported(importCurl(text, workingDirectory: workingDirectory, sessionDirectory: sessionDirectory))
        case let .checkCookieFile(path, value, asker):
            return .cookieFileChecked(value: value, failure: checkCookieFile(path), asker: asker)
        default:
            return nil
        }
    }

    /// Saves through ``SessionFile`` and reads the file back, so line numbers in later errors
    /// point into the new file.
    static func saveSession(_ session: Session, to path: String, overwriting: Bool, droppingComments: Bool) -> SessionSaveOutcome {
        if !overwriting, FileManager.default.fileExists(atPath: path) { return .exists }
        do {
            try SessionFile.save(session, to: path, allowDroppingComments: droppingComments)
        } catch {
            return .failed(error)
        }
        return .saved((try? Session.load(path: path)) ?? session, digest: try? FileDigest.sha256(ofFile: path))
    }

    /// Reads a session file and its digest (what a trust answer is remembered for).
    static func openSession(_ path: String) -> Result<OpenedSessionFile, FileWorkFailure> {
        do {
            let session = try Session.load(path: path)
            let outside = (try? session.template(environment: nil, overrides: [:])).map { session.filesOutsideFolder(of: path, template: $0) } ?? []
            return .success(OpenedSessionFile(session: session, digest: try? FileDigest.sha256(ofFile: path), filesOutside: outside))
        } catch {
            return .failure(FileWorkFailure("\(error)"))
        }
    }

    /// Writes bytes atomically, first refusing a folder and, unless told to overwrite, a file.
    static func saveBody(_ bytes: [UInt8], to path: String, overwriting: Bool) -> BodySaveOutcome {
        var isFolder: ObjCBool = false
        if !overwriting, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            return isFolder.boolValue ? .isFolder : .exists
        }
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            return .failed("\(error)")
        }
        return .saved(byteCount: bytes.count)
    }

    /// Reads each value as `tincan send` does; the first that fails is the answer.
    static func readFileValues(_ reads: [FileValueRead], workingDirectory: String) -> Result<[FileValueRead: ParameterValue], FileWorkFailure> {
        var values: [FileValueRead: ParameterValue] = [:]
        for read in reads where values[read] == nil {
            do {
                values[read] = try RequestDraft.parameterValue(fromFile: read.path, isJSON: read.isJSON, key: read.key, workingDirectory: workingDirectory)
            } catch {
                return .failure(FileWorkFailure("\(error)"))
            }
        }
        return .success(values)
    }

    /// Reads a curl command as `tincan import curl` does, then takes its relative paths (curl's,
    /// from where Tincan runs) from the session's folder.
    static func importCurl(_ text: String, workingDirectory: String, sessionDirectory: String) -> Result<CurlCommand.Imported, InterchangeError> {
        do {
            var imported = try CurlCommand.parse(text, workingDirectory: workingDirectory)
            imported.request = imported.request.rebasingPaths(from: workingDirectory, to: sessionDirectory)
            return .success(imported)
        } catch {
            return .failure(error)
        }
    }

    /// Why the cookie file cannot be used, or nil.
    static func checkCookieFile(_ path: String) -> String? {
        do {
            _ = try CookieFile.load(from: path)
            return nil
        } catch {
            return "\(error)"
        }
    }
}
