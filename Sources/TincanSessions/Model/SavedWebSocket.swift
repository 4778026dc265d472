import TincanCore
import Yams

/// `websocket:` in a request (issue 39 §3): the request is a WebSocket handshake to its URL
/// (ws, wss, or http and https read as them), and these are the messages sent once it is open.
///
/// The replay sends every message, then waits until `receive:` messages have come back (as
/// many as it sent, unless it says otherwise) or the server closes, and closes with 1000. The
/// messages received are the request's stream: `stream-events`, `stream-first` and
/// `stream-last` check and capture them as they do server-sent events.
public struct SavedWebSocket: Sendable, Equatable {
    /// The text messages, in order; variables expand in each.
    public var messages: [String] = []
    /// How many messages to wait for before closing; nil for as many as were sent.
    public var receive: Int?
    /// The largest frame or message either way, in bytes; nil for 16 MiB.
    public var maxMessageSize: Int?

    /// Creates a WebSocket request's messages.
    public init(messages: [String] = [], receive: Int? = nil, maxMessageSize: Int? = nil) {
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
        pairs.append((.messages, .sequence(messages.map { .string($0) })))
        if let receive { pairs.append((.receive, .literal(String(receive)))) }
        if let maxMessageSize { pairs.append((.maxMessageSize, .literal(String(maxMessageSize)))) }
        return pairs.pairs
    }
}

extension SessionReader {
    /// `websocket:`: `messages:` (a list of text), `receive:` and `max-message-size:`.
    func webSocket(_ node: Node) throws -> SavedWebSocket {
        var webSocket = SavedWebSocket()
        for (key, _, value) in try entries(node, SessionKey.WebSocket.self, in: "websocket") {
            switch key {
            case .messages:
                guard let sequence = value.sequence else { throw file.error(at: value, "expected a list of text messages") }
                webSocket.messages = try sequence.map { try text($0, "a text message") }
            case .receive: webSocket.receive = Int(try number(value, SavedWebSocket.receiveRange))
            case .maxMessageSize: webSocket.maxMessageSize = Int(try number(value, .webSocketMessageSize))
            }
        }
        return webSocket
    }
}
