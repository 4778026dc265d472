import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
@testable import TincanSessions
@testable import TincanTUI

@Suite("A saved upload is shown wherever the request is")
struct UploadPreviewTests {
    /// A session whose one request streams a 24 KiB file, opened in the panes.
    private func openUpload(in directory: TemporaryDirectory) throws -> (AppState, file: String) {
        let file = try directory.write("sample.txt", Array(repeating: UInt8(ascii: "a"), count: 24_576))
        var request = SavedRequest(name: "Up", method: "POST", url: "http://127.0.0.1:9/upload")
        request.upload = SavedUpload(file: "sample.txt")
        let path = directory.path + "/up.tincan.yaml"
        try SessionFile.save(Session(name: "U", requests: [request]), to: path)
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        state.readPreviewFiles()
        return (state, file)
    }

    private func previewText(_ state: AppState) -> String {
        guard case let .request(_, text) = state.preview else { return "error: \(state.preview)" }
        return text
    }

    @Test("the preview shows the file's size and path, with its Content-Length and type")
    func previewShowsTheUpload() throws {
        let directory = try TemporaryDirectory()
        let (state, file) = try openUpload(in: directory)
        let preview = previewText(state)
        #expect(preview.contains("Content-Length: 24576\n"), "\(preview)")
        #expect(preview.contains("Content-Type: text/plain\n"), "\(preview)")
        #expect(preview.hasSuffix("\n\n<24,576 bytes (24.0 KiB) streamed from \(file)>\n"), "\(preview)")
    }

    @Test("the Explain view says the body is streamed from the file")
    func explainShowsTheUpload() throws {
        let directory = try TemporaryDirectory()
        var (state, file) = try openUpload(in: directory)
        state.previewView = .explain
        state.refreshPreview()
        let lines = state.explanation?.step(.parameters)?.lines.map(\.text) ?? []
        #expect(lines.contains("A raw body is sent as it is (24,576 bytes (24.0 KiB) streamed from `\(file)`); no serializer encodes it."), "\(lines)")
    }

    @Test("copy as curl sends the file with -T, as the upload task does")
    func copyAsCurlUploadsTheFile() throws {
        let directory = try TemporaryDirectory()
        var (state, file) = try openUpload(in: directory)
        let effects = state.copyAsCurl()
        let copied = effects.compactMap { effect -> String? in if case .copyToClipboard(let text) = effect { text } else { nil } }.first ?? ""
        #expect(copied.contains("-T \(file)"), "\(copied)")
        #expect(copied.contains("-X POST"), "-T alone would be a PUT: \(copied)")
    }

    @Test("a method change keeps the upload, and it stays in sight")
    func methodChangeKeepsItVisible() throws {
        let directory = try TemporaryDirectory()
        var (state, file) = try openUpload(in: directory)
        state.method = "PUT"
        state.refreshPreview()
        #expect(previewText(state).hasPrefix("PUT /upload HTTP/1.1\n"))
        #expect(previewText(state).contains("streamed from \(file)"))
    }

    @Test("a pasted curl command replaces the request, upload and all")
    func pasteDropsTheUpload() throws {
        let directory = try TemporaryDirectory()
        var (state, _) = try openUpload(in: directory)
        state.focus = .url
        Fixtures.press([.paste("curl http://127.0.0.1:9/post -d a=1")], into: &state)
        let preview = previewText(state)
        #expect(!preview.contains("streamed"), "\(preview)")
        #expect(preview.hasSuffix("Content-Length: 3\n\na=1\n"), "\(preview)")
        #expect(state.editedSession.requests[0].upload == nil)
        #expect(state.editedSession.requests[0].name == "Up", "the name stays")
    }

    @Test("a pasted curl -T becomes the request's upload; a file outside the current folder is a placeholder the preview names")
    func pastedUploadIsKept() throws {
        let directory = try TemporaryDirectory()
        var (state, file) = try openUpload(in: directory)
        state.focus = .url
        // The temporary folder is not where Tincan runs: a pasted command does not read a file there
        // until the user says which file it is (issue 36 §1).
        Fixtures.press([.paste("curl -T '\(file)' http://127.0.0.1:9/put")], into: &state)
        #expect(state.method == "PUT")
        #expect(state.editedSession.requests[0].upload == SavedUpload(file: "{{file:sample.txt}}"))
        #expect(previewText(state).contains("{{file:sample.txt}} stands for a file that an import named outside the folder it came from"), "\(previewText(state))")
        // Set, it is the upload.
        state.workspace.overrides["file:sample.txt"] = file
        state.refreshPreview()
        state.readPreviewFiles()
        #expect(previewText(state).contains("<24,576 bytes (24.0 KiB) streamed from \(file)>"), "\(previewText(state))")
    }

    @Test("a pasted command's relative paths still name the same files from the session's folder")
    func pastedPathsAreRebased() throws {
        let directory = try TemporaryDirectory()
        var (state, _) = try openUpload(in: directory)
        state.focus = .url
        Fixtures.press([.paste("curl -T relative/data.bin -o out/result.json http://127.0.0.1:9/put")], into: &state)
        let saved = state.editedSession.requests[0]
        let here = FileManager.default.currentDirectoryPath
        let upload = (resolveSessionPath(try #require(saved.upload?.file), in: directory.path) as NSString).standardizingPath
        let download = (resolveSessionPath(try #require(saved.download), in: directory.path) as NSString).standardizingPath
        #expect(upload == (here as NSString).appendingPathComponent("relative/data.bin"), "\(saved.upload?.file ?? "")")
        #expect(download == (here as NSString).appendingPathComponent("out/result.json"), "\(saved.download ?? "")")
    }
}

@Suite("The preview names the HTTP version the request will try")
struct VersionPreviewTests {
    @Test("a request's http-version: 1.1 makes an https preview HTTP/1.1, and the Explain view says why")
    func previewFollowsTheRequestsVersion() throws {
        let directory = try TemporaryDirectory()
        var pinned = SavedRequest(name: "Pinned", method: "GET", url: "https://127.0.0.1:9/a")
        pinned.httpVersion = .http1_1
        let path = directory.path + "/v.tincan.yaml"
        try SessionFile.save(Session(name: "V", requests: [pinned, SavedRequest(name: "Auto", method: "GET", url: "https://127.0.0.1:9/b")]), to: path)
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        state.previewView = .explain
        state.refreshPreview()
        guard case let .request(_, first) = state.preview else { Issue.record("no preview: \(state.preview)"); return }
        #expect(first.hasPrefix("GET /a HTTP/1.1\n"), "\(first)")
        #expect(state.explanation?.step(.url)?.lines.contains { $0.text.hasPrefix("HTTP/1.1 only was asked for") } == true)
        state.loadRequest(1)
        guard case let .request(_, second) = state.preview else { Issue.record("no preview: \(state.preview)"); return }
        #expect(second.hasPrefix("GET /b HTTP/2\n"), "\(second)")
    }
}
