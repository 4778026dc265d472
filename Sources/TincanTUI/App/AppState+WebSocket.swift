import TerminalUI
import TincanCore
import TincanSessions

/// A WebSocket request in the TUI (issue 39 §3): its frames are the response box's live list
/// (``StreamPane``, a ``StreamLog`` of format `websocket`), and while it is open the send key
/// asks for the next message in a prompt that stays open for the one after; the cancel key
/// closes the connection with 1000.
extension AppState {
    /// Opens the prompt for the next message of the open WebSocket.
    mutating func askForWebSocketMessage() {
        mode = .modal(.prompt(Prompt(.webSocketMessage, title: "WebSocket", question: "Send a text message (ctrl+g closes the connection):")))
        status = StatusMessage("WebSocket open: enter sends a message, esc leaves the prompt.")
    }

    /// Sends `text` on the open WebSocket and asks for the next one.
    mutating func answerWebSocketMessage(_ text: String) -> String? {
        guard let exchange, exchange.phase == .sending, exchange.stream?.format == .webSocket else {
            return "the WebSocket is closed; send the request again to reopen it"
        }
        queuedEffects.append(.webSocketSend(exchange: exchange.id, text: text))
        askForWebSocketMessage()
        return nil
    }
}

extension Exchange {
    /// Folds in a frame of the WebSocket: a row of the live list, `→` sent and `←` received.
    mutating func fold(_ frame: WebSocketFrameRecord, at time: Double) {
        if stream == nil {
            stream = StreamLog(format: .webSocket)
            milestones.append((time, "WebSocket open"))
        }
        let label = frame.direction.arrow + " " + frame.kind.rawValue
        // The summary without its kind, which the label gives: `1000 going away`, `5 bytes: …`.
        let data = frame.kind == .text ? frame.text : String(frame.summary.dropFirst(frame.kind.rawValue.count).drop { $0 == " " })
        let since = time - startedAt
        stream?.add([StreamEvent(type: label, data: data)], at: since)
        if frame.kind == .close, frame.direction == .received { stream?.ended = true }
        if frame.kind == .close { milestones.append((time, "WebSocket \(frame.direction == .sent ? "close sent" : "closed by the server")")) }
    }
}
