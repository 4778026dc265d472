import Foundation
import TerminalUI
import TestSupport
import Testing
import TincanCore
import TincanSessions
@testable import TincanTUI

@Suite("A WebSocket request in the TUI: a live frame list, and a line for the next message")
struct WebSocketFrameListTests {
    static let session = """
        requests:
          - name: echo
            url: ws://127.0.0.1:8080/ws
            websocket:
              messages: [hello]
        """

    /// The session's WebSocket request sent through `update`, and frames folded in as the runner
    /// posts them: `count` echoes, then the close when `closed`.
    static func conversing(_ state: inout AppState, count: Int, closed: Bool) throws -> Int {
        state.open(Workspace(session: try Session.parse(session, path: "ws.tincan.yaml"), path: nil))
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, plan)? = effects.first else {
            Issue.record("send produced \(effects)")
            return -1
        }
        #expect(plan.webSocket?.messages == [.text("hello")])
        #expect(request.url.string == "http://127.0.0.1:8080/ws")
        #expect(state.status?.text.hasPrefix("Opening the WebSocket ws://127.0.0.1:8080/ws…") == true, "\(String(describing: state.status))")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<count {
            let text = index == 0 ? "hello" : "message \(index) with a tail long enough to reach past the edge of the box at 80 columns"
            _ = state.update(.webSocketFrame(exchange: id, .text(text, .sent, at: start), at: 1.0 + Double(index) * 0.5))
            _ = state.update(.webSocketFrame(exchange: id, .text(text, .received, at: start), at: 1.2 + Double(index) * 0.5))
        }
        if closed {
            let end = 1.0 + Double(count) * 0.5
            _ = state.update(.webSocketFrame(exchange: id, WebSocketFrameRecord(direction: .sent, kind: .close, closeCode: 1000), at: end))
            _ = state.update(.webSocketFrame(exchange: id, WebSocketFrameRecord(direction: .received, kind: .close, closeCode: 1000), at: end + 0.01))
            var result = TaskResult(request: request, response: HTTPResponse(url: request.url, statusCode: 101))
            var log = WebSocketFrameLog()
            for index in 0..<count { log.append(.text("m\(index)", .received)) }
            result.stream = log.streamSummary
            _ = state.update(.task(exchange: id, .completed(result), at: end + 0.02))
        }
        return id
    }

    @Test("frames fold into the list both ways; while open, the send key asks for the next message and enter sends it")
    func framesAndTheMessageLine() throws {
        var state = Fixtures.welcome()
        let id = try Self.conversing(&state, count: 2, closed: false)
        let log = try #require(state.exchange?.stream)
        #expect(log.format == .webSocket && log.count == 4 && !log.ended)
        #expect(log.entries.map { $0.event.type } == ["→ text", "← text", "→ text", "← text"])
        // The send key on an open WebSocket opens the message line rather than sending again.
        #expect(state.update(.input(.key(.ctrl("r")))).isEmpty)
        guard case .modal(.prompt(let prompt)) = state.mode, prompt.purpose == .webSocketMessage else {
            Issue.record("expected the message prompt, got \(state.mode)")
            return
        }
        let effects = Fixtures.press(Fixtures.typing("next one") + [.key(KeyEvent(.enter))], into: &state)
        #expect(effects.contains { if case .webSocketSend(id, "next one") = $0 { true } else { false } }, "\(effects)")
        // The line stays open, empty, for the message after.
        guard case .modal(.prompt(let again)) = state.mode else {
            Issue.record("the message line closed")
            return
        }
        #expect(again.dialog.field?.text == "")
        // The cancel key, once the prompt is left, closes the connection.
        _ = state.update(.input(.key(KeyEvent(.escape))))
        #expect(state.update(.input(.key(.ctrl("g")))).contains { if case .cancel(id) = $0 { true } else { false } })
    }

    @Test("a closed WebSocket's checks read its frames, and the send key sends it again")
    func closedConversation() throws {
        var state = Fixtures.welcome()
        _ = try Self.conversing(&state, count: 1, closed: true)
        #expect(state.exchange?.stream?.ended == true)
        #expect(state.exchange?.phase == .finished)
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case .send? = effects.first else {
            Issue.record("a closed WebSocket is sent again; got \(effects)")
            return
        }
    }

    @Test("an open and a closed WebSocket look right at 80x24 and 120x40", arguments: [(80, 24), (120, 40)])
    func snapshots(size: (Int, Int)) throws {
        for closed in [false, true] {
            var state = Fixtures.welcome(width: size.0, height: size.1)
            _ = try Self.conversing(&state, count: 6, closed: closed)
            let buffer = Renderer.render(&state)
            let text = buffer.lines.joined(separator: "\n")
            #expect(text.contains(closed ? "14 frames · closed" : "12 frames · open"), "\(text)")
            #expect(text.contains("← text message 5"), "\(text)")
            #expect(closed || text.contains("WebSocket open: ctrl+r sends a message, ctrl+g closes it."), "\(text)")
            #expect(!closed || (text.contains("✓ WebSocket closed") && !text.contains("✓ valid for")), "\(text)")
            if let problem = Snapshot.verify(buffer, named: "websocket-\(closed ? "closed" : "open")-\(size.0)x\(size.1)") {
                Issue.record(Comment(rawValue: problem))
            }
        }
    }
}
