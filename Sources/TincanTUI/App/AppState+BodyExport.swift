import Foundation
import TerminalUI
import TincanCore

/// The response body outside the TUI: in `$PAGER` or `$EDITOR`, or saved to a file (issue 17 §3).
///
/// The Pretty view gives the decoded body written out (indented JSON, the XML as laid out); the
/// Raw view the text as received, or the bytes of a binary body.
extension AppState {
    /// The shown body for an outside program, or nil (with a status saying why) when there is none.
    private mutating func bodyForExport() -> BodyDocument? {
        guard let document = bodyDocument else {
            status = StatusMessage(exchange?.result == nil ? "No response body yet." : "The Pretty and Raw views have a body to open or save (F3 switches).", .warning)
            return nil
        }
        return document
    }

    /// Asks the runner to show the body in `$PAGER` or `$EDITOR`.
    mutating func viewBody(in viewer: ExternalViewer) -> [Effect] {
        guard let document = bodyForExport() else { return [] }
        return [.viewExternally(bytes: document.exportedBytes, fileExtension: document.exportedFileExtension, viewer: viewer)]
    }

    /// Asks where to save the body, suggesting the URL's last name with the body's extension.
    mutating func promptSaveBody() {
        guard let document = bodyForExport() else { return }
        let name = (exchange?.result ?? exchange?.decoding)?.response?.url.path.split(separator: "/").last.map(String.init) ?? "response"
        let suggestion = (name as NSString).pathExtension.isEmpty ? "\(name).\(document.exportedFileExtension)" : name
        mode = .modal(.prompt(Prompt(.saveBody, title: "Save the body (\(responseView.rawValue))", question: "File", text: suggestion)))
    }

    /// Answers the save prompt: a refusal to show under the field, or nil when the runner was
    /// asked to write (``Effect/saveBody(_:path:overwriting:asker:)``; its answer comes to
    /// ``bodySaved(_:at:asker:)``, which asks before overwriting a file).
    mutating func answerSaveBody(_ answer: String) -> String? {
        let trimmed = answer.trimmingWhitespace()
        guard !trimmed.isEmpty else { return "expected a file name" }
        let path = expandingHome(trimmed)
        guard let document = bodyForExport() else { return "no body to save" }
        queuedEffects.append(.saveBody(document.exportedBytes, path: path, overwriting: false, asker: promptAsker))
        return nil
    }

    /// The answer to "overwrite?": writes, or says nothing was saved.
    mutating func chooseBodyOverwrite(_ option: String, path: String) {
        guard option == "Overwrite it" else {
            status = StatusMessage("Not saved: \(path) is left as it was.")
            return
        }
        guard let document = bodyForExport() else {
            status = StatusMessage("Not saved: no body to save", .error)
            return
        }
        queuedEffects.append(.saveBody(document.exportedBytes, path: path, overwriting: true, asker: .statusLine))
    }

    /// Takes the runner's answer to a body save: the news, the question before overwriting, or
    /// the refusal where it was asked for.
    mutating func bodySaved(_ outcome: BodySaveOutcome, at path: String, asker: Asker) {
        switch outcome {
        case .saved(let byteCount):
            status = StatusMessage("Saved the body (\(RequestPreview.byteCount(Int64(byteCount)))) to \(path).", .success)
        case .exists:
            mode = .modal(.picker(Picker(.confirmBodyOverwrite(path: path), title: "\((path as NSString).lastPathComponent) exists", options: ["Overwrite it", "Cancel"], selected: "Cancel")))
        case .isFolder:
            refuse("\(path) is a folder: name a file in it", to: asker, statusPrefix: "Not saved")
        case .failed(let reason):
            refuse(reason, to: asker, statusPrefix: "Not saved")
        }
    }
}
