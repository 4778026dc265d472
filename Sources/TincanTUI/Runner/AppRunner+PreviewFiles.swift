import Foundation
import TincanCore

/// The files the preview's request names, read for it off the UI thread (issue 35 §1): `update`
/// builds the preview from what was read, and asks again after each change; here each file's
/// stamp is taken, and only a file whose stamp moved (or that was never read) is read again.
extension AppRunner {
    /// Reads on the runner's one queue for preview files, so answers come in the order asked and
    /// a slow file never holds a key or a frame; the answer is posted when anything was read.
    func readPreviewFiles(_ checks: [PreviewFileCheck]) {
        let inbox = inbox
        previewReads.async {
            let answers = Self.previewFileAnswers(checks)
            if !answers.isEmpty { inbox.post(.previewFilesRead(answers)) }
        }
    }

    /// The answers to `checks`: each file whose stamp is not the one known, read as `tincan send`
    /// reads it (through the same functions), with the stamp it had just before.
    static func previewFileAnswers(_ checks: [PreviewFileCheck]) -> [PreviewFileRead: PreviewFileEntry] {
        var answers: [PreviewFileRead: PreviewFileEntry] = [:]
        for check in checks where answers[check.read] == nil {
            let stamp = check.read.stampedPaths.map(FileStamp.of)
            guard stamp != check.known else { continue }
            answers[check.read] = PreviewFileEntry(stamp: stamp, answer: read(check.read))
        }
        return answers
    }

    /// One read, by the one owner of its rules.
    private static func read(_ read: PreviewFileRead) -> PreviewFileAnswer {
        switch read {
        case .length(let path):
            .length(Result { () throws(RequestSerializationError) in try RequestBody.sendableFileLength(atPath: path) })
        case let .value(key, path, isJSON, workingDirectory):
            .value(Result { try RequestDraft.parameterValue(fromFile: path, isJSON: isJSON, key: key, workingDirectory: workingDirectory) })
        case let .identity(certificate, key):
            .identity(Result { () throws(ClientIdentityError) in try DiskFileReader().clientIdentity(certificate: certificate, key: key) })
        }
    }
}
