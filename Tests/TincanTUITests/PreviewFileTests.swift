import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanDemoServer
@testable import TincanSessions
@testable import TincanTUI

/// The preview reads no file inside `update` (issue 35 §1): the files a request names are read by
/// the runner (``Effect/readPreviewFiles(_:)``), kept with their stamps, and read again only when
/// they change; the preview says it is reading until the answer comes.
@Suite("The preview's files, read by the runner")
struct PreviewFileTests {
    /// A session in `directory` whose one request posts `body.json` as its body, opened in the
    /// panes, with nothing read yet (the file need not exist).
    private func openBodyFile(in directory: TemporaryDirectory, base: String = "http://127.0.0.1:9") throws -> AppState {
        var request = SavedRequest(name: "Post", method: "POST", url: "/post")
        request.body = .file("body.json")
        let path = directory.path + "/post.tincan.yaml"
        try SessionFile.save(Session(name: "P", base: base, requests: [request]), to: path)
        var state = AppState(width: 120, height: 40)
        state.proxyEnvironment = ProxyEnvironment()
        state.open(Workspace(session: try Session.load(path: path), path: path))
        return state
    }

    private func previewText(_ state: AppState) -> String {
        guard case let .request(_, text) = state.preview else { return "not built: \(state.preview)" }
        return text
    }

    private func checks(in effects: [Effect]) -> [PreviewFileCheck] {
        effects.flatMap { effect -> [PreviewFileCheck] in if case let .readPreviewFiles(checks) = effect { checks } else { [] } }
    }

    @Test("editing a request that names a file asks the runner to read it, and update reads nothing")
    func editingAsksTheRunner() throws {
        let directory = try TemporaryDirectory()
        var state = try openBodyFile(in: directory)
        let file = directory.path + "/body.json"
        state.focus = .url
        let effects = Fixtures.pressWithoutRunner(Fixtures.typing("?a=1"), into: &state)
        #expect(checks(in: effects) == [PreviewFileCheck(read: .length(path: file), known: nil)], "asked once, however many keys: \(effects)")
        guard case let .reading(paths, _) = state.preview else {
            Issue.record("expected the placeholder, got \(state.preview)")
            return
        }
        #expect(paths == [file])
        #expect(state.previewLines.map { $0.map(\.text).joined() }.contains("  \(file)  reading…"))

        // The file appears after the edit: update does not look, so the preview still waits on the answer.
        try directory.write("body.json", Array(#"{"a": 1}"#.utf8))
        let more = Fixtures.pressWithoutRunner(Fixtures.typing("2"), into: &state)
        #expect(checks(in: more).isEmpty, "the read asked for is not answered yet: \(more)")
        guard case .reading = state.preview else {
            Issue.record("update read the file: \(state.preview)")
            return
        }

        // The runner's answer, delivered: the preview is built with the file's length.
        let answers = AppRunner.previewFileAnswers(checks(in: effects))
        let after = state.update(.previewFilesRead(answers))
        #expect(checks(in: after).isEmpty, "an answer does not ask again for what it answered")
        #expect(previewText(state).hasSuffix("Content-Length: 8\n\n<8 bytes streamed from \(file)>\n"), "\(previewText(state))")
    }

    @Test("what was read is kept: update builds from it even once the file is gone")
    func updateBuildsFromWhatWasRead() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("body.json", Array("12345".utf8))
        var state = try openBodyFile(in: directory)
        state.readPreviewFiles()
        #expect(previewText(state).contains("<5 bytes streamed from \(file)>"))
        try FileManager.default.removeItem(atPath: file)
        state.focus = .url
        let effects = Fixtures.pressWithoutRunner(Fixtures.typing("?b"), into: &state)
        #expect(previewText(state).contains("<5 bytes streamed from \(file)>"), "update read the disk: \(state.preview)")
        // Each change has the runner look at the file again, with the stamp of what is held.
        let check = try #require(checks(in: effects).last)
        #expect(check.read == .length(path: file) && check.known != nil)
    }

    @Test("typing on does not read an unchanged file again, and a changed file is read again")
    func unchangedFilesAreNotReadAgain() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("body.json", Array("12345".utf8))
        var state = try openBodyFile(in: directory)
        state.readPreviewFiles()
        state.focus = .url

        // Each key asks the runner to look; the file's stamp has not moved, so nothing is read or answered.
        for key in Fixtures.typing("?x=1") {
            let looked = checks(in: Fixtures.pressWithoutRunner([key], into: &state))
            #expect(looked.count == 1)
            #expect(AppRunner.previewFileAnswers(looked).isEmpty, "an unchanged file was read again")
        }

        // The file changes: the next key's check reads it again, and the preview follows.
        try Data("1234567890".utf8).write(to: URL(fileURLWithPath: file))
        let looked = checks(in: Fixtures.pressWithoutRunner([.key(.char("2"))], into: &state))
        let answers = AppRunner.previewFileAnswers(looked)
        #expect(answers.count == 1)
        _ = state.update(.previewFilesRead(answers))
        #expect(previewText(state).contains("<10 bytes streamed from \(file)>"), "\(state.preview)")
    }

    @Test("only the answers for the files the request names now are kept, however many paths were typed")
    func onlyTheRequestsOwnFilesAreKept() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("body.json", Array("12345".utf8))
        var state = try openBodyFile(in: directory)
        state.readPreviewFiles()
        #expect(Set(state.previewFiles.entries.keys) == [.length(path: file)])
        // Another path, read and answered: the first answer is let go.
        var session = state.editedSession
        session.requests[0].body = .file("other.json")
        state.workspace.session = session
        state.loadRequest(0, committing: false)
        state.readPreviewFiles()
        #expect(Set(state.previewFiles.entries.keys) == [.length(path: directory.path + "/other.json")])
    }

    @Test("a file that cannot be sent shows the error tincan send gives, by the same words")
    func errorsAreTheSendErrors() throws {
        let directory = try TemporaryDirectory()
        var state = try openBodyFile(in: directory)
        let file = directory.path + "/body.json"
        func sendError() -> String {
            do {
                _ = try state.resolveCurrent().draft.build(boundary: state.boundary)
                return "built"
            } catch {
                return "\(error)"
            }
        }

        // Missing.
        state.readPreviewFiles()
        #expect(sendError() == "File not reachable: '\(file)' does not exist.")
        guard case let .error(missing) = state.preview else {
            Issue.record("expected an error, got \(state.preview)")
            return
        }
        #expect(missing == sendError())

        // A folder in its place: the stamp moved, so the next look reads it again.
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        state.focus = .url
        Fixtures.press([.key(.char("?"))], into: &state)
        guard case let .error(folder) = state.preview else {
            Issue.record("expected an error, got \(state.preview)")
            return
        }
        #expect(folder == "'\(file)' is not a regular file.")
        #expect(folder == sendError())
    }

    @Test("the send key reads a file that could not be read again, and sends once the runner answers")
    func sendReadsAFailedFileAgain() throws {
        let directory = try TemporaryDirectory()
        var state = try openBodyFile(in: directory)
        state.readPreviewFiles()
        guard case .error = state.preview else {
            Issue.record("expected the missing file's error, got \(state.preview)")
            return
        }
        // The user puts the file right, then presses send at once: no key has had it looked at.
        let file = try directory.write("body.json", Array("[1]".utf8))
        let pressed = Fixtures.pressWithoutRunner([.key(.ctrl("r"))], into: &state)
        #expect(!pressed.contains { if case .send = $0 { true } else { false } }, "sent before the file was read: \(pressed)")
        #expect(checks(in: pressed).contains(PreviewFileCheck(read: .length(path: file), known: nil)), "\(pressed)")
        #expect(state.status?.text == "Reading \(file) again before sending…")
        let answered = state.update(.previewFilesRead(AppRunner.previewFileAnswers(checks(in: pressed))))
        guard case let .send(_, request, _)? = answered.first(where: { if case .send = $0 { true } else { false } }) else {
            Issue.record("the answer did not send: \(answered)")
            return
        }
        #expect(request.body.length == 3)
    }

    @Test("the session's client certificate is read by the runner too, and read again when its key file changes")
    func clientCertificateIsReadByTheRunner() throws {
        let directory = try TemporaryDirectory()
        let certificate = try TestCertificate.selfSigned()
        let cert = try directory.write("client.pem", Array(certificate.certificatePEM.utf8))
        let key = try directory.write("client.key", Array(certificate.privateKeyPEM.utf8))
        var session = Session(name: "T", base: "http://127.0.0.1:9", requests: [SavedRequest(url: "/get")])
        session.defaults.tls = ClientCertificateSettings(certificate: "client.pem", key: "client.key")
        let path = directory.path + "/t.tincan.yaml"
        try SessionFile.save(session, to: path)
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        state.focus = .url
        let effects = Fixtures.pressWithoutRunner(Fixtures.typing("?a"), into: &state)
        let read = PreviewFileRead.identity(certificate: cert, key: key)
        #expect(checks(in: effects) == [PreviewFileCheck(read: read, known: nil)], "\(effects)")
        guard case let .reading(paths, nil) = state.preview else {
            Issue.record("expected the placeholder, with nothing to send, got \(state.preview)")
            return
        }
        #expect(paths == ["\(cert) (key \(key))"])

        _ = state.update(.previewFilesRead(AppRunner.previewFileAnswers(checks(in: effects))))
        #expect(state.resolved?.options.clientIdentity?.certificatePath == cert)
        #expect(previewText(state).hasPrefix("GET /get?a HTTP/1.1\n"), "\(state.preview)")

        // The key file is replaced by one that is not a key: the next look reads both again.
        try directory.write("client.key", Array("not a key\n".utf8))
        Fixtures.press([.key(.char("b"))], into: &state)
        guard case let .error(message) = state.preview else {
            Issue.record("expected the key's error, got \(state.preview)")
            return
        }
        #expect(message.hasSuffix("tls: the private key file \(key) is not usable: no PEM private key in it"), "\(message)")
    }

    @Test("a key=@file value is read through the one reading, its errors word for word")
    func parameterValuesComeFromTheOneReading() throws {
        let directory = try TemporaryDirectory()
        try directory.write("name.txt", Array("Ada".utf8))
        try directory.write("bad.txt", [0xFF, 0xFE, 0x00])
        var draft = RequestDraft(method: "POST", url: "http://127.0.0.1:9/post")
        draft.workingDirectory = directory.path
        draft.items = [.parameterFromFile(key: "name", path: "name.txt", isJSON: false)]
        var files = PreviewFiles()

        // Not read yet: a stand-in, and the request is not one to send.
        let first = files.lookup()
        _ = try draft.build(files: first)
        #expect(first.missing == [.value(key: "name", path: "name.txt", isJSON: false, workingDirectory: directory.path)])
        #expect(first.lacksValues)
        files.record(first)
        guard case let .readPreviewFiles(checks)? = files.checkEffect(afterAnswer: false) else {
            Issue.record("no read asked for")
            return
        }
        files.take(AppRunner.previewFileAnswers(checks))
        let second = files.lookup()
        let request = try draft.build(files: second)
        #expect(second.missing.isEmpty)
        #expect(try request.body.collect() == Array("name=Ada".utf8))

        // A file that is not UTF-8: the error the command line gives.
        draft.items = [.parameterFromFile(key: "name", path: "bad.txt", isJSON: false)]
        let third = files.lookup()
        _ = try draft.build(files: third)
        files.record(third)
        guard case let .readPreviewFiles(more)? = files.checkEffect(afterAnswer: false) else {
            Issue.record("no read asked for")
            return
        }
        files.take(AppRunner.previewFileAnswers(more))
        let expected = #expect(throws: RequestItemError.self) { try draft.build() }
        let cached = #expect(throws: RequestItemError.self) { try draft.build(files: files.lookup()) }
        #expect(cached == expected)
        #expect(cached?.description.contains("is not UTF-8 text") == true, "\(String(describing: cached))")
    }

    @Test("a multipart file part's length comes from the runner too")
    func multipartFilesAreReadByTheRunner() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("photo.png", Array(repeating: 7, count: 300))
        var request = SavedRequest(name: "Up", method: "POST", url: "/post")
        request.serializer = .multipart
        request.files = [SavedFile(field: "photo", path: "photo.png")]
        let path = directory.path + "/m.tincan.yaml"
        try SessionFile.save(Session(name: "M", base: "http://127.0.0.1:9", requests: [request]), to: path)
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        guard case let .reading(paths, sendable?) = state.preview else {
            Issue.record("expected the placeholder with a request to send, got \(state.preview)")
            return
        }
        #expect(paths == [file])
        // A length stands in until the answer; the runner takes it again as the request leaves.
        #expect(try sendable.body.withCurrentFileLengths().length == sendable.body.length.map { $0 + 300 })
        state.readPreviewFiles()
        #expect(previewText(state).contains("<file \(file): 300 bytes>"), "\(state.preview)")
    }

    @Test("in the run loop, the preview shows the file once the runner has read it, and again when it changes")
    func runLoopShowsTheFile() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("body.json", Array(#"{"n": 1}"#.utf8))
        let state = try openBodyFile(in: directory)
        // The path is cut at the box's edge: the length and the start of the line are what show.
        #expect(file.hasPrefix("/"))
        let terminal = MemoryTerminal(width: 120, height: 40)
        let managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        let final = Fixtures.runLoop(state, on: terminal, managers: managers)
        let shown = await terminal.waitFor("<8 bytes streamed from /")
        let first = terminal.text
        try Data(#"{"n": 12345}"#.utf8).write(to: URL(fileURLWithPath: file))
        // Any key is a change the runner looks at the files after.
        terminal.type([.key(KeyEvent(.right))])
        let changed = await terminal.waitFor("<12 bytes streamed from /")
        let second = terminal.text
        terminal.type([.key(KeyEvent(.function(10)))])
        _ = await final.first { _ in true }
        await managers.invalidateAll()
        #expect(shown, "\(first)")
        #expect(changed, "\(second)")
    }

    @Test("a send sends the file as it is when it leaves, not as the preview last read it")
    func sendTakesTheFileAsItIsNow() async throws {
        let directory = try TemporaryDirectory()
        try await withDemoServer { server in
            let file = try directory.write("body.json", Array(#"{"n": 1}"#.utf8))
            let state = try openBodyFile(in: directory, base: server.baseURL)
            let terminal = MemoryTerminal(width: 120, height: 40)
            let managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
            let final = Fixtures.runLoop(state, on: terminal, managers: managers)
            let read = await terminal.waitFor("<8 bytes streamed from /")
            // Changed after the preview read it; the send key is the first change the runner sees.
            try Data(#"{"n": "grown"}"#.utf8).write(to: URL(fileURLWithPath: file))
            terminal.type([.key(.ctrl("r"))])
            let sent = await terminal.waitFor("200 OK in")
            terminal.type([.key(KeyEvent(.function(10)))])
            let ended = try #require(await final.first { _ in true })
            await managers.invalidateAll()
            #expect(read && sent, "\(terminal.text)")
            let echoed = ended.exchange?.result.map { String(decoding: $0.data, as: UTF8.self) } ?? ""
            // The session names no Content-Type, so the demo server reads the bytes as a form.
            #expect(echoed.contains(#""Content-Length": "14""#), "\(echoed)")
            #expect(echoed.contains(#""{\"n\": \"grown\"}": """#), "\(echoed)")
        }
    }
}
