import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
@testable import TincanSessions
@testable import TincanTUI

/// `update` reads and writes no file (issue 35 §1): saving, opening, exporting a body, reading a
/// command line's `@file` values, pasting curl and checking a cookie file are effects the runner
/// carries out and answers. These tests call `update` alone, with paths under a folder that does
/// not exist, so any file work inside it would fail or show.
@Suite("File work as effects")
struct FileEffectTests {
    /// A folder nothing can be written in: a save that ran inside `update` would fail there.
    static let nowhere = "/nonexistent-tincan-\(UInt32.random(in: 0...UInt32.max))"

    /// A state on a session "saved" at a path in ``nowhere``, its URL edited.
    static func edited() -> AppState {
        var state = AppState(width: 120, height: 40)
        state.launch = LaunchContext(workingDirectory: nowhere, environment: ["HOME": "/home/ada"])
        var session = Session(name: "s")
        session.requests = [SavedRequest(url: "http://127.0.0.1:9/a")]
        state.open(Workspace(session: session, path: nowhere + "/s.tincan.yaml"))
        state.focus = .url
        Fixtures.pressWithoutRunner([.key(.ctrl("e"))] + Fixtures.typing("?b=1"), into: &state)
        return state
    }

    @Test func savingEmitsTheEditedSessionForTheRunnerAndChangesNothingUntilItAnswers() throws {
        var state = Self.edited()
        let effects = Fixtures.pressWithoutRunner([.key(KeyEvent(.function(6)))], into: &state)
        guard case let .saveSession(session, path, overwriting, droppingComments)? = effects.first else {
            Issue.record("expected a save effect, got \(effects)")
            return
        }
        #expect(path == Self.nowhere + "/s.tincan.yaml")
        #expect(session.requests[0].url == "http://127.0.0.1:9/a?b=1")
        #expect(overwriting && !droppingComments)
        #expect(state.isModified, "nothing is saved until the runner answers")
        #expect(!FileManager.default.fileExists(atPath: Self.nowhere))
    }

    @Test func theSaveAnswerMakesTheFileTheSavedSessionAndSaysSo() {
        var state = Self.edited()
        let effects = Fixtures.pressWithoutRunner([.key(KeyEvent(.function(6)))], into: &state)
        guard case let .saveSession(session, path, _, _)? = effects.first else {
            Issue.record("expected a save effect, got \(effects)")
            return
        }
        _ = state.update(.sessionSaved(path: path, .saved(session, digest: "abc")))
        #expect(!state.isModified)
        #expect(state.workspace.digest == "abc")
        #expect(state.status?.text == "Saved 1 request to \(path).")
    }

    @Test func quittingWithSaveAndQuitQuitsOnlyOnceTheSaveIsAnswered() {
        var state = Self.edited()
        Fixtures.pressWithoutRunner([.key(.ctrl("c"))], into: &state)
        #expect(state.modal.map { if case .picker(let picker) = $0 { picker.purpose == .unsaved(.quit) } else { false } } == true)
        // "Save and quit" is the first option.
        let effects = Fixtures.pressWithoutRunner([.key(KeyEvent(.enter))], into: &state)
        #expect(!state.shouldQuit, "the save has not been answered yet")
        guard case let .saveSession(session, path, _, _)? = effects.first else {
            Issue.record("expected a save effect, got \(effects)")
            return
        }
        let answered = state.update(.sessionSaved(path: path, .saved(session, digest: nil)))
        #expect(state.shouldQuit)
        #expect(answered.contains { if case .quit = $0 { true } else { false } })
    }

    @Test func aFailedSaveNamesTheErrorAndDropsTheQuitThatWaitedOnIt() {
        var state = Self.edited()
        Fixtures.pressWithoutRunner([.key(.ctrl("c")), .key(KeyEvent(.enter))], into: &state)
        let path = Self.nowhere + "/s.tincan.yaml"
        _ = state.update(.sessionSaved(path: path, .failed(.writeFailed(path: path, reason: "No such file or directory"))))
        #expect(!state.shouldQuit)
        #expect(state.pendingAfterSave == nil)
        #expect(state.status?.kind == .error)
        #expect(state.status?.text == "Not saved: could not save \(path): No such file or directory")
    }

    @Test func saveAsOverAFileThatExistsAsksBeforeOverwritingOnceTheRunnerSaysSo() {
        var state = Self.edited()
        Fixtures.pressWithoutRunner([.key(KeyEvent(.function(7))), .key(.ctrl("u"))] + Fixtures.typing("~/other") + [.key(KeyEvent(.enter))], into: &state)
        let path = "/home/ada/other.tincan.yaml"
        _ = state.update(.sessionSaved(path: path, .exists))
        guard case .picker(let picker)? = state.modal else {
            Issue.record("expected the overwrite question, got \(String(describing: state.modal))")
            return
        }
        #expect(picker.purpose == .confirmOverwrite(path: path))
        #expect(picker.title == "other.tincan.yaml exists")
    }

    @Test func saveAsAsksTheRunnerNotToOverwriteAnotherFile() {
        var state = Self.edited()
        let effects = Fixtures.pressWithoutRunner([.key(KeyEvent(.function(7))), .key(.ctrl("u"))] + Fixtures.typing("~/other") + [.key(KeyEvent(.enter))], into: &state)
        guard case let .saveSession(_, path, overwriting, _)? = effects.last else {
            Issue.record("expected a save effect, got \(effects)")
            return
        }
        #expect(path == "/home/ada/other.tincan.yaml")
        #expect(!overwriting)
        #expect(state.modal == nil)
    }

    @Test func openingAFileThatDoesNotReadShowsWhyUnderThePromptAgain() {
        var state = Self.edited()
        let effects = Fixtures.pressWithoutRunner([.key(.alt("o")), .key(.ctrl("u"))] + Fixtures.typing("missing.tincan.yaml") + [.key(KeyEvent(.enter))], into: &state)
        guard case let .openSession(path, discardingChanges, asker)? = effects.last else {
            Issue.record("expected an open effect, got \(effects)")
            return
        }
        #expect(path == "missing.tincan.yaml")
        #expect(!discardingChanges)
        _ = state.update(.sessionOpened(path: path, .failure(FileWorkFailure("missing.tincan.yaml does not exist")), discardingChanges: false, asker: asker))
        guard case .prompt(let prompt)? = state.modal else {
            Issue.record("expected the open prompt back, got \(String(describing: state.modal))")
            return
        }
        #expect(prompt.purpose == .openSession)
        #expect(prompt.dialog.field?.text == "missing.tincan.yaml")
        #expect(prompt.error == "missing.tincan.yaml does not exist")
    }

    @Test func anOpenedFileAsksAboutUnsavedChangesBeforeReplacingThem() {
        var state = Self.edited()
        let other = Session(name: "other", requests: [SavedRequest(url: "http://127.0.0.1:9/other")])
        _ = state.update(.sessionOpened(path: "/x/other.tincan.yaml", .success(OpenedSessionFile(session: other, digest: nil)), discardingChanges: false, asker: .statusLine))
        guard case .picker(let picker)? = state.modal else {
            Issue.record("expected the unsaved-changes question")
            return
        }
        #expect(picker.purpose == .unsaved(.open("/x/other.tincan.yaml")))
        // "Open without saving" asks the runner to read it again, discarding the changes.
        let effects = Fixtures.pressWithoutRunner([.key(KeyEvent(.down)), .key(KeyEvent(.enter))], into: &state)
        guard case let .openSession(path, discardingChanges, _)? = effects.last else {
            Issue.record("expected an open effect, got \(effects)")
            return
        }
        #expect(path == "/x/other.tincan.yaml" && discardingChanges)
        _ = state.update(.sessionOpened(path: path, .success(OpenedSessionFile(session: other, digest: "d")), discardingChanges: true, asker: .statusLine))
        #expect(state.workspace.path == "/x/other.tincan.yaml")
        #expect(state.workspace.digest == "d")
        #expect(state.urlField.text == "http://127.0.0.1:9/other")
        #expect(state.status?.text == "Opened /x/other.tincan.yaml: 1 request.")
    }

    @Test func aCommandLineFileValueIsReadByTheRunnerThenTheLineApplies() {
        var state = Self.edited()
        state.focus = .preview
        let line = "post /x note=@note.txt n:=@n.json a=1"
        let effects = Fixtures.pressWithoutRunner([.key(.alt("x"))] + Fixtures.typing(line) + [.key(KeyEvent(.enter))], into: &state)
        guard case let .readFileValues(reads, workingDirectory, asked)? = effects.last else {
            Issue.record("expected a file read, got \(effects)")
            return
        }
        #expect(reads == [FileValueRead(key: "note", path: "note.txt", isJSON: false), FileValueRead(key: "n", path: "n.json", isJSON: true)])
        #expect(workingDirectory == Self.nowhere)
        #expect(asked == line)
        #expect(state.method == "GET", "nothing applies before the files are read")
        #expect(state.commandLine != nil)
        _ = state.update(.fileValuesRead(line: line, .success([reads[0]: .string("hello"), reads[1]: .integer(2)])))
        #expect(state.method == "POST")
        #expect(AppState.parameterValue(state.parameters.root) == .dictionary(["note": .string("hello"), "n": .integer(2), "a": .string("1")]))
        #expect(state.commandLine == nil)
        #expect(state.replHistory.filter { $0 == line }.count == 1, "the line is in the history once")
    }

    @Test func aCommandLineFileThatCannotBeReadLeavesTheLineWithTheReason() {
        var state = Self.edited()
        state.focus = .preview
        let line = "post /x note=@note.txt"
        Fixtures.pressWithoutRunner([.key(.alt("x"))] + Fixtures.typing(line) + [.key(KeyEvent(.enter))], into: &state)
        _ = state.update(.fileValuesRead(line: line, .failure(FileWorkFailure("note=@note.txt: note.txt does not exist"))))
        #expect(state.method == "GET")
        #expect(state.commandLine?.field.text == line)
        #expect(state.commandLine?.error == "note=@note.txt: note.txt does not exist")
    }

    @Test func pastingACurlCommandAsksTheRunnerToReadItFromTheStartingFolder() {
        var state = Self.edited()
        let effects = Fixtures.pressWithoutRunner([.paste("curl -d @body.json http://127.0.0.1:9/p")], into: &state)
        guard case let .importCurl(text, workingDirectory, sessionDirectory)? = effects.last else {
            Issue.record("expected a curl import, got \(effects)")
            return
        }
        #expect(text == "curl -d @body.json http://127.0.0.1:9/p")
        #expect(workingDirectory == Self.nowhere && sessionDirectory == Self.nowhere)
        #expect(state.urlField.text == "http://127.0.0.1:9/a?b=1", "the request changes only with the answer")
        var imported = SavedRequest(method: "POST", url: "http://127.0.0.1:9/p")
        imported.body = .text("{}")
        _ = state.update(.curlImported(.success(CurlCommand.Imported(request: imported, warnings: []))))
        #expect(state.method == "POST")
        #expect(state.urlField.text == "http://127.0.0.1:9/p")
    }

    @Test func historyEntriesAreDatedFromTheStartNotFromTheClock() {
        var state = Fixtures.welcome()
        state.startedAt = Date(timeIntervalSince1970: 1_000_000)
        Fixtures.send(&state, body: "{}")
        #expect(state.history.last?.time == Date(timeIntervalSince1970: 1_000_000.012))
    }

    @Test func theVariablesViewReadsTheEnvironmentGivenAtStartUp() {
        var state = Fixtures.welcome(width: 120, height: 40)
        state.workspace.session.variables = ["who": .string("{{$env.TINCAN_WHO}}")]
        state.launch.environment = ["TINCAN_WHO": "ada"]
        state.revealsSecrets = true
        state.showVariables()
        guard case .message(let dialog)? = state.modal else {
            Issue.record("expected the variables view")
            return
        }
        let text = dialog.lines.map { $0.map(\.text).joined() }.joined(separator: "\n")
        #expect(text.contains("who = ada"), "\(text)")
    }
}

/// The same file work through the real run loop over `MemoryTerminal`: the runner carries out
/// each effect between two frames and hands its answer back, so the screen shows the outcome in
/// the frame of the key that asked.
@Suite("File work in the run loop")
struct FileEffectRunLoopTests {
    /// Runs `state` in the loop, types `keys`, waits for `needle`, quits with ctrl+c (twice,
    /// past an unsaved-changes question) and returns whether it showed, the screen, and the end state.
    private func run(_ state: AppState, typing keys: [InputEvent], waitingFor needle: String) async throws -> (Bool, String, AppState) {
        let terminal = MemoryTerminal(width: 120, height: 40)
        let managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        let final = Fixtures.runLoop(state, on: terminal, managers: managers)
        terminal.type(keys)
        let shown = await terminal.waitFor(needle)
        let screen = terminal.text
        terminal.type([.key(.ctrl("c"))])
        terminal.type([.key(.ctrl("c"))])
        let ended = try #require(await final.first { _ in true })
        await managers.invalidateAll()
        return (shown, screen, ended)
    }

    @Test func f6WritesTheSessionAtomicallyAndTheStatusLineSaysSo() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/new.tincan.yaml"
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: Session(name: "new", requests: [SavedRequest(url: "http://127.0.0.1:9/a")]), path: path))
        let (shown, screen, ended) = try await run(state, typing: [.key(KeyEvent(.function(6)))], waitingFor: "Saved 1 request to \(path).")
        #expect(shown, "\(screen)")
        #expect(try Session.load(path: path).requests.map(\.url) == ["http://127.0.0.1:9/a"])
        #expect(!ended.isModified)
        #expect(ended.workspace.digest == (try FileDigest.sha256(ofFile: path)))
    }

    @Test func aCommandLineReadsItsFileValueFromTheStartingFolder() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("note.txt", Array("from a file".utf8))
        var state = Fixtures.welcome(width: 120, height: 40)
        state.launch = LaunchContext(workingDirectory: directory.path)
        state.focus = .preview
        let keys: [InputEvent] = [.key(.alt("x"))] + Fixtures.typing("post /x note=@note.txt") + [.key(KeyEvent(.enter))]
        let (shown, screen, ended) = try await run(state, typing: keys, waitingFor: "POST /x: the whole request")
        #expect(shown, "\(screen)")
        #expect(AppState.parameterValue(ended.parameters.root) == .dictionary(["note": .string("from a file")]))
    }

    @Test func savingTheBodyOverAFileAsksFirstThenWritesIt() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("body.json", Array("old".utf8))
        var state = Fixtures.welcome(width: 120, height: 40)
        Fixtures.send(&state, body: #"{"a": 1}"#)
        state.focus = .response
        state.responseView = .raw
        let keys: [InputEvent] = [.key(.char("s")), .key(.ctrl("u"))] + Fixtures.typing(path) + [.key(KeyEvent(.enter)), .key(KeyEvent(.up)), .key(KeyEvent(.enter))]
        let (shown, screen, _) = try await run(state, typing: keys, waitingFor: "Saved the body (8 bytes) to \(path).")
        #expect(shown, "\(screen)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == #"{"a": 1}"#)
    }
}
