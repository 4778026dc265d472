import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanSessions
@testable import TincanTUI

@Suite("The TUI keeps links and downloads safe")
struct TUITrustTests {
    @Test("saving a session opened through a link writes the target and keeps the link", arguments: [true, false])
    func saveThroughALink(relative: Bool) throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/store", withIntermediateDirectories: true)
        let target = directory.path + "/store/sample.tincan.yaml"
        try SessionFile.save(SessionWorkspaceTests.sampleSession(), to: target)
        let link = directory.path + "/sample.tincan.yaml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: relative ? "store/sample.tincan.yaml" : target)
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: try Session.load(path: link), path: link))
        state.focus = .url
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing("session/new"), into: &state)
        Fixtures.press([.key(KeyEvent(.function(6)))], into: &state)
        #expect(state.status?.kind == .success, "\(state.status?.text ?? "")")
        var info = stat()
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK, "the link is still a link")
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("url: session/new"))
    }

    @Test("a send that would download into a missing folder is refused before it goes out")
    func downloadIntoAMissingFolder() throws {
        let directory = try TemporaryDirectory()
        var session = Session(name: "D")
        var request = SavedRequest(name: "Fetch", url: "http://127.0.0.1:9/bytes/10")
        request.download = "nodir/x.bin"
        session.requests = [request]
        let path = directory.path + "/d.tincan.yaml"
        try SessionFile.save(session, to: path)
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        let effects = state.perform(.send)
        #expect(!effects.contains { if case .send = $0 { true } else { false } })
        #expect(state.status?.kind == .error)
        #expect(state.status?.text.contains("the folder \(directory.path)/nodir does not exist") == true, "\(state.status?.text ?? "")")
    }
}
