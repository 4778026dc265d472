import Foundation
import TincanCore
import Yams

/// `websocket:` in a request (issue 39 §3): the request is a WebSocket handshake to its URL
/// (ws, wss, or http and https read as them), and these are the messages sent once it is open.
///
/// A message is text (a string, or `{text: …}`) or binary (`{base64: …}`, its bytes as a body's
/// `base64:` writes them). The replay sends every message, then waits until `receive:` messages have come back (as
/// many as it sent, unless it says otherwise) or the server closes, and closes with 1000. The
/// messages received are the request's stream: `stream-events`, `stream-first` and
/// `stream-last` check and capture them as they do server-sent events.
public struct SavedWebSocket: Sendable, Equatable {
    /// The messages, in order; variables expand in each text message (a binary one is its bytes).
    public var messages: [WebSocketOutgoing] = []
    /// How many messages to wait for before closing; nil for as many as were sent.
    public var receive: Int?
    /// The largest frame or message either way, in bytes; nil for 16 MiB.
    public var maxMessageSize: Int?

    /// Creates a WebSocket request's messages.
    public init(messages: [WebSocketOutgoing] = [], receive: Int? = nil, maxMessageSize: Int? = nil) {
        self.messages = messages
        self.receive = receive
        self.maxMessageSize = maxMessageSize
    }

    /// How many messages the replay waits for.
    public var expectedMessages: Int { receive ?? messages.count }

    /// The range of `receive:`.
    public static let receiveRange = NumericRange(name: "receive", minimum: 0, maximum: 100_000, isInteger: true)

    /// The core's limits for these settings.
    public var limits: WebSocketLimits {
        var limits = WebSocketLimits()
        if let maxMessageSize {
            limits.maximumFrameBytes = maxMessageSize
            limits.maximumMessageBytes = maxMessageSize
        }
        return limits
    }

    func yamlPairs() -> [(String, YAMLValue)] {
        var pairs = KeyedPairs<SessionKey.WebSocket>()
        pairs.append((.messages, .sequence(messages.map { message in
            switch message {
            case .text(let text): .string(text)
            case .binary(let bytes): .mapping([(SessionKey.WebSocketMessage.base64.rawValue, .string(Data(bytes).base64EncodedString()))])
            }
        })))
        if let receive { pairs.append((.receive, .literal(String(receive)))) }
        if let maxMessageSize { pairs.append((.maxMessageSize, .literal(String(maxMessageSize)))) }
        return pairs.pairs
    }
}

extension SessionReader {
    /// `websocket:`: `messages:` (a list of text, `{text: …}` or `{base64: …}`), `receive:` and `max-message-size:`.
    func webSocket(_ node: Node) throws -> SavedWebSocket {
        var webSocket = SavedWebSocket()
        for (key, _, value) in try entries(node, SessionKey.WebSocket.self, in: "websocket") {
            switch key {
            case .messages:
                guard let sequence = value.sequence else { throw file.error(at: value, "expected a list of messages") }
                webSocket.messages = try sequence.map(webSocketMessage)
            case .receive: webSocket.receive = Int(try number(value, SavedWebSocket.receiveRange))
            case .maxMessageSize: webSocket.maxMessageSize = Int(try number(value, .webSocketMessageSize))
            }
        }
        return webSocket
    }

    /// One message: a string is text; a mapping has exactly one of `text:` and `base64:`.
    private func webSocketMessage(_ node: Node) throws -> WebSocketOutgoing {
        if node.scalar != nil { return .text(try text(node, "a text message")) }
        let entries = try entries(node, SessionKey.WebSocketMessage.self, in: "a WebSocket message")
        guard entries.count == 1, let (key, _, value) = entries.first else {
            throw file.error(at: node, "expected a text message, or exactly one of \(Self.alternatives(SessionKey.WebSocketMessage.self)) in a WebSocket message")
        }
        switch key {
        case .text: return .text(try text(value, "a text message"))
        case .base64: return .binary(try base64(value))
        }
    }
}
