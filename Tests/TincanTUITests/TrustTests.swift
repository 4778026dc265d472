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

@Suite("The response views show text in its charset")
struct CharsetViewTests {
    /// A finished exchange whose body is `bytes` with `contentType`.
    private func result(_ contentType: String, _ bytes: [UInt8], serializer: any ResponseSerializer = CompoundResponseSerializer()) -> TaskResult {
        let request = HTTPRequest(method: "GET", url: URLReference(parsing: "http://127.0.0.1:9/x"))
        let response = HTTPResponse(url: request.url, statusCode: 200, headers: HTTPHeaders([("Content-Type", contentType)]))
        return TaskResult(request: request, response: response, data: bytes, serialization: serializer.serialize(response, data: bytes, request: request),
                          metrics: TaskMetrics(connect: nil, firstByte: nil, total: .milliseconds(1), requestCount: 1))
    }

    private func lines(_ document: BodyDocument) -> [String] {
        (0..<document.rowCount).map(document.text)
    }

    @Test("an ISO-8859-1 JSON body reads José in the Pretty and Raw views")
    func latin1JSON() {
        let bytes: [UInt8] = Array(#"{"name":"Jos"#.utf8) + [0xE9] + Array(#""}"#.utf8)
        let finished = result("application/json; charset=iso-8859-1", bytes)
        #expect(finished.serialization?.error == nil)
        #expect(lines(BodyFormatter.pretty(finished)).joined(separator: "\n").contains("\"José\""), "\(lines(BodyFormatter.pretty(finished)))")
        #expect(lines(BodyFormatter.raw(BodyFormatter.displayBytes(finished))) == [#"{"name":"José"}"#])
    }

    @Test("an ISO-8859-1 text body is text, not a hex dump")
    func latin1Text() {
        let finished = result("text/plain; charset=iso-8859-1", Array("caf".utf8) + [0xE9])
        #expect(lines(BodyFormatter.pretty(finished)) == ["café"])
    }

    @Test("bytes invalid in their charset are shown as received")
    func invalidBytesStayAsReceived() {
        let bytes: [UInt8] = [0x61, 0xFF, 0xFE, 0x00]
        #expect(BodyFormatter.displayBytes(result("text/plain; charset=us-ascii", bytes)) == bytes)
        #expect(BodyFormatter.displayBytes(result("text/plain", bytes)) == bytes)
    }
}
