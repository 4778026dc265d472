import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanSessions
@testable import TincanTUI

/// A session file someone else wrote that weakens TLS trust (`security: insecure: true`, an old
/// `tls-min:`, a `ca-file:`) is asked about the first time it is opened, the answer remembered
/// per file and content; while weaker trust applies the title and the Explain view say so.
@Suite("A session that weakens TLS trust is asked about and shown")
struct SessionTrustTests {
    static let weakening = """
        name: Shared
        base: https://example.com/
        defaults:
          security:
            insecure: true
            tls-min: "1.0"
        requests:
          - url: items
        """

    /// A file with `text`, opened in a fresh state that remembers answers in `directory`.
    static func opened(_ text: String = weakening, in directory: TemporaryDirectory, answers: SessionTrust = SessionTrust()) throws -> (AppState, String) {
        let path = try directory.write("shared.tincan.yaml", Array(text.utf8))
        var workspace = Workspace(session: try Session.load(path: path), path: path)
        workspace.digest = try FileDigest.sha256(ofFile: path)
        var startup = Startup(demoServerURL: "http://127.0.0.1:9", settings: TUISettings(theme: BuiltinThemes.dark), workspace: workspace)
        startup.trust = answers
        startup.trustPath = directory.path + "/state/trust.json"
        return (AppState(startup, width: 120, height: 40), path)
    }

    private func question(_ state: AppState) -> Picker? {
        guard case .picker(let picker)? = state.modal, case .trust = picker.purpose else { return nil }
        return picker
    }

    /// The answer an effect asks to remember, and for what.
    private func recorded(_ effects: [Effect]) -> (answer: SessionTrust.Answer, digest: String, file: String, path: String)? {
        for effect in effects {
            if case let .recordTrust(answer, digest, file, path) = effect { return (answer, digest, file, path) }
        }
        return nil
    }

    private func explainLines(_ state: AppState) -> [String] {
        var state = state
        state.previewView = .explain
        state.refreshPreview()
        return state.explanation?.steps.flatMap(\.lines).map(\.text) ?? []
    }

    @Test("the first opening asks, names what weakens trust, and sends with full verification until answered")
    func firstOpeningAsks() throws {
        let directory = try TemporaryDirectory()
        let (state, _) = try Self.opened(in: directory)
        var current = state
        let picker = try #require(question(state), "\(String(describing: state.modal))")
        #expect(picker.title == "shared.tincan.yaml weakens TLS trust: security: insecure: true, security: tls-min: \"1.0\"")
        #expect(state.status?.text.contains("certificate verification is off") == true)
        #expect(!state.weakensTrust)
        let plan = try #require(current.preparedSend()?.1)
        #expect(plan.security == state.workspace.session.defaults.security.withoutWeakenings)
        #expect(!plan.security.insecure && plan.security.minimumTLSVersion == .tls1_2)
        #expect(!explainLines(state).contains { $0.hasPrefix("Trust weakened") })
    }

    @Test("applying it marks the title, adds Explain lines and sends with the file's settings; the answer is remembered for that content")
    func applying() throws {
        let directory = try TemporaryDirectory()
        var (state, path) = try Self.opened(in: directory)
        // The first option: apply.
        let effects = Fixtures.press([.key(KeyEvent(.up)), .key(KeyEvent(.enter))], into: &state)
        let digest = try FileDigest.sha256(ofFile: path)
        #expect(recorded(effects).map { "\($0.answer) \($0.digest) \($0.file) \($0.path)" } == "apply \(digest) \(path) \(directory.path)/state/trust.json", "\(effects)")
        #expect(state.modal == nil)
        #expect(state.weakensTrust)
        let plan = try #require(state.preparedSend()?.1)
        #expect(plan.security.insecure && plan.security.minimumTLSVersion == .tls1_0)
        let lines = explainLines(state)
        #expect(lines.contains("Trust weakened by security: insecure: true: certificate verification is off: anyone on the network path can pose as the server and read what is sent."), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Trust weakened by security: tls-min: \"1.0\": TLS 1.0 is accepted") })
        var rendered = state
        let screen = Renderer.render(&rendered)
        #expect(screen.lines[0].contains("⚠ weaker TLS trust"), "\(screen.lines[0])")

        // Remembered: the same content opens without a question; changed content asks again.
        try SessionTrust.record(.apply, digest: digest, for: path, path: directory.path + "/state/trust.json")
        let answers = try SessionTrust.load(path: directory.path + "/state/trust.json")
        let (again, _) = try Self.opened(in: directory, answers: answers)
        #expect(question(again) == nil)
        #expect(again.weakensTrust)
        let (changed, _) = try Self.opened(Self.weakening + "\n  - url: more\n", in: directory, answers: answers)
        #expect(question(changed) != nil)
        #expect(!changed.weakensTrust)
    }

    @Test("choosing full verification leaves the weakening out, with no mark, and is remembered")
    func refusing() throws {
        let directory = try TemporaryDirectory()
        var (state, path) = try Self.opened(in: directory)
        let effects = Fixtures.press([.key(KeyEvent(.enter))], into: &state)
        #expect(recorded(effects).map { "\($0.answer) \($0.digest) \($0.file) \($0.path)" } == "refuse \(try FileDigest.sha256(ofFile: path)) \(path) \(directory.path)/state/trust.json", "\(effects)")
        #expect(!state.weakensTrust)
        let plan = try #require(state.preparedSend()?.1)
        #expect(!plan.security.insecure)
        var answers = SessionTrust()
        answers.remember(.refuse, digest: try FileDigest.sha256(ofFile: path), for: path)
        let (again, _) = try Self.opened(in: directory, answers: answers)
        #expect(question(again) == nil)
        #expect(!again.weakensTrust)
        #expect(again.status?.text.contains("full verification, as you chose") == true)
    }

    @Test("a session that weakens nothing asks nothing; one the user saves with weaker trust is remembered as theirs")
    func ownSessions() throws {
        let directory = try TemporaryDirectory()
        let (plain, _) = try Self.opened("requests:\n  - url: https://example.com/\n", in: directory)
        #expect(question(plain) == nil)
        var (state, path) = try Self.opened(in: directory)
        Fixtures.press([.key(KeyEvent(.up)), .key(KeyEvent(.enter))], into: &state)
        state.focus = .url
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing("changed"), into: &state)
        let effects = Fixtures.press([.key(KeyEvent(.function(6)))], into: &state)
        let digest = try FileDigest.sha256(ofFile: path)
        #expect(recorded(effects).map { "\($0.answer) \($0.digest) \($0.file) \($0.path)" } == "apply \(digest) \(path) \(directory.path)/state/trust.json", "\(effects)")
    }

    @Test("the answers file is private, keeps the newest answer per file, and is never written over when it does not read")
    func answersFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/state/tincan/trust.json"
        try SessionTrust.record(.apply, digest: "aa", for: "/x/one.tincan.yaml", path: path)
        try SessionTrust.record(.refuse, digest: "bb", for: "/x/one.tincan.yaml", path: path)
        let loaded = try SessionTrust.load(path: path)
        #expect(loaded.answer(for: "/x/one.tincan.yaml", digest: "bb") == .refuse)
        #expect(loaded.answer(for: "/x/one.tincan.yaml", digest: "aa") == nil)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SessionTrust.Failure.self) { try SessionTrust.record(.apply, digest: "cc", for: "/x/two.tincan.yaml", path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not json")
    }
}

/// A session file someone else wrote that reads or writes files outside its folder says so when
/// the TUI opens it, as `tincan replay` says it (the runner reads the file and judges its paths).
@Suite("A session's files outside its folder are said when it opens")
struct SessionFilesOutsideTUITests {
    static let reading = """
        name: Shared
        requests:
          - method: PUT
            url: http://127.0.0.1:9/put
            upload: /etc/hostname
        """

    @Test("opened from the command line: the status line names the file read outside the folder")
    func atStartup() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("shared.tincan.yaml", Array(Self.reading.utf8))
        let session = try Session.load(path: path)
        var workspace = Workspace(session: session, path: path)
        workspace.filesOutside = session.filesOutsideFolder(of: path, template: try session.template(environment: nil, overrides: [:]))
        let state = AppState(Startup(demoServerURL: "http://127.0.0.1:9", settings: TUISettings(theme: BuiltinThemes.dark), workspace: workspace), width: 120, height: 40)
        let status = try #require(state.status)
        #expect(status.text.hasPrefix("⚠ Outside its folder, this file reads /etc/hostname."), "\(status.text)")
    }

    @Test("opened with :open: the runner judges the file's paths and the status line says them after 'Opened'")
    func openedLater() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("shared.tincan.yaml", Array(Self.reading.utf8))
        let read = AppRunner.openSession(path)
        let file = try read.get()
        #expect(file.filesOutside.map(\.description) == ["request 'PUT http://127.0.0.1:9/put': the upload reads /etc/hostname, outside the session's folder"])
        var state = Fixtures.welcome(width: 120, height: 40)
        _ = state.update(.sessionOpened(path: path, read, discardingChanges: true, asker: .statusLine))
        let status = try #require(state.status)
        #expect(status.text == "⚠ Outside its folder, this file reads /etc/hostname. Opened \(path): 1 request.", "\(status.text)")
    }

    @Test("a session whose files stay in its folder opens without a warning")
    func insideSaysNothing() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("mine.tincan.yaml", Array(Self.reading.replacingOccurrences(of: "/etc/hostname", with: "data/up.bin").utf8))
        #expect(try AppRunner.openSession(path).get().filesOutside.isEmpty)
    }
}
