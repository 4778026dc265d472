import Foundation
import TerminalUI
import TestSupport
import Testing
import TincanCore
import TincanSessions
@testable import TincanTUI

/// Nothing the user typed is lost (issue 34 §2): the welcome request is a session like any other,
/// quitting with changes asks, and unsaved changes live in a draft until they are saved or let go.
@Suite("Nothing typed is lost")
struct NothingLostTests {
    /// The welcome state with its URL edited.
    private func editedWelcome() -> AppState {
        var state = Fixtures.welcome()
        state.focus = .url
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing("anything/mine"), into: &state)
        return state
    }

    @Test("an edit to the welcome request marks it modified, and quitting asks before anything is lost")
    func editingTheWelcomeMarksItAndQuittingAsks() {
        var state = Fixtures.welcome()
        #expect(!state.showsModified, "an untouched welcome has nothing to lose")
        #expect(state.update(.input(.key(.ctrl("c")))).contains { if case .quit = $0 { true } else { false } })
        state = editedWelcome()
        #expect(state.showsModified)
        let effects = state.update(.input(.key(.ctrl("c"))))
        #expect(!state.shouldQuit)
        #expect(effects.isEmpty)
        guard case .picker(let picker)? = state.modal else {
            Issue.record("expected the unsaved-changes question, got \(String(describing: state.modal))")
            return
        }
        #expect(picker.purpose == .unsaved(.quit))
        #expect(picker.options == ["Save as a file, then quit…", "Quit without saving", "Cancel"])
        // Cancel keeps everything as it was.
        Fixtures.press([.key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(KeyEvent(.enter))], into: &state)
        #expect(!state.shouldQuit && state.modal == nil && state.urlField.text == "anything/mine")
        // F10 asks too; ctrl+c at the question quits without saving.
        _ = state.update(.input(.key(KeyEvent(.function(10)))))
        #expect(state.modal != nil)
        _ = state.update(.input(.key(.ctrl("c"))))
        #expect(state.shouldQuit)
    }

    @Test("save, then quit, on the welcome asks for a file name, saves there and quits; escape keeps the app open")
    func savingTheWelcomeBeforeQuittingAsksForAName() throws {
        let folder = try TemporaryDirectory()
        var state = editedWelcome()
        _ = state.update(.input(.key(.ctrl("c"))))
        _ = state.update(.input(.key(KeyEvent(.enter))))
        guard case .prompt(let prompt)? = state.modal else {
            Issue.record("expected the file name to be asked, got \(String(describing: state.modal))")
            return
        }
        #expect(prompt.purpose == .saveAs)
        // Escape: no file, no quit, the question answered by staying.
        _ = state.update(.input(.key(KeyEvent(.escape))))
        #expect(!state.shouldQuit && state.pendingAfterSave == nil)
        _ = state.update(.input(.key(.ctrl("c"))))
        _ = state.update(.input(.key(KeyEvent(.enter))))
        let path = folder.path + "/mine.tincan.yaml"
        Fixtures.press([.key(.ctrl("u")), .paste(path), .key(KeyEvent(.enter))], into: &state)
        #expect(state.shouldQuit)
        let saved = try Session.load(path: path)
        #expect(saved.requests.first?.url == "anything/mine")
        #expect(saved.base == "{{$demo}}/", "the demo server's address is saved as a variable (issue 34 §3)")
    }

    @Test("the draft keeper writes unsaved changes at most once a second, and removes the draft once they are saved")
    func theDraftFollowsTheUnsavedChanges() throws {
        let folder = try TemporaryDirectory()
        let store = DraftStore(folder: folder.path + "/drafts")
        var keeper = DraftKeeper(store: store)
        // A draft the last run left stays while the first state is noted.
        try store.write(editedWelcome().workspace.session, for: nil)
        var state = Fixtures.welcome()
        keeper.begin(state)
        #expect(store.read(for: nil) != nil, "the last run's draft is kept until the user answers")
        // Once the user changes something with nothing left unsaved, there is no draft.
        state.focus = .url
        Fixtures.press(Fixtures.typing("x") + [.key(KeyEvent(.backspace))], into: &state)
        #expect(keeper.update(state, now: 0) == nil)
        #expect(store.read(for: nil) == nil, "nothing unsaved, no draft")
        state = editedWelcome()
        _ = keeper.update(state, now: 2)
        let written = try #require(store.read(for: nil))
        #expect(written.session.requests.first?.url == "anything/mine")
        let mode = try FileManager.default.attributesOfItem(atPath: written.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // More typing within the second waits; the keeper says how long.
        Fixtures.press(Fixtures.typing("/more"), into: &state)
        _ = keeper.update(state, now: 2.4)
        #expect(store.read(for: nil)?.session.requests.first?.url == "anything/mine")
        #expect(keeper.timeout(now: 2.4) == 600)
        _ = keeper.update(state, now: 3.0)
        #expect(store.read(for: nil)?.session.requests.first?.url == "anything/mine/more")
        #expect(keeper.timeout(now: 3.0) == nil)
        // Saved under a name: the untitled draft goes, and no draft is left for the file.
        let path = folder.path + "/saved.tincan.yaml"
        state.saveNow(to: path)
        _ = keeper.update(state, now: 4.5)
        #expect(store.read(for: nil) == nil)
        #expect(store.read(for: path) == nil)
    }

    @Test("a signal writes the draft at once; the next run offers it back, and restoring puts the edits in the panes")
    func aDraftLeftByASignalIsOfferedBack() throws {
        let folder = try TemporaryDirectory()
        let store = DraftStore(folder: folder.path + "/drafts")
        var keeper = DraftKeeper(store: store)
        let state = editedWelcome()
        keeper.flush(state)
        let draft = try #require(store.read(for: nil))
        var startup = Startup(demoServerURL: "http://127.0.0.1:8080", settings: TUISettings(theme: BuiltinThemes.dark))
        startup.draft = draft
        var next = AppState(startup)
        guard case .picker(let picker)? = next.modal else {
            Issue.record("expected the draft to be offered, got \(String(describing: next.modal))")
            return
        }
        #expect(picker.title.hasPrefix("Unsaved changes to welcome from "))
        #expect(next.urlField.text == "get")
        _ = next.update(.input(.key(KeyEvent(.enter))))
        #expect(next.urlField.text == "anything/mine")
        #expect(next.showsModified)
        // Discarding asks the runner to remove the draft.
        var declined = AppState(startup)
        let effects = Fixtures.press([.key(KeyEvent(.down)), .key(KeyEvent(.enter))], into: &declined)
        #expect(effects.contains { if case .discardDraft = $0 { true } else { false } })
        #expect(declined.urlField.text == "get")
    }

    @Test("a draft names its file by the file's absolute path, and the untitled session has one of its own")
    func draftsAreNamedByTheirFile() {
        let store = DraftStore(folder: "/state/drafts")
        #expect(store.path(for: nil) == "/state/drafts/untitled.draft.tincan.yaml")
        let one = store.path(for: "/work/a/api.tincan.yaml")
        let other = store.path(for: "/work/b/api.tincan.yaml")
        #expect(one.hasPrefix("/state/drafts/api.tincan.yaml-") && one.hasSuffix(".draft.tincan.yaml"))
        #expect(one != other)
        #expect(store.path(for: "/work/a/../a/api.tincan.yaml") == one)
    }
}
