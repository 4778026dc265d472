import Foundation

/// A request as a server received it: the head and body bytes as they arrived, before any HTTP
/// parser read them (the demo server's `/__received` routes, `tincan serve --show`, and the
/// TUI's Received view, which diffs it against the preview).
///
/// The head and body are kept up to a cap each; their true lengths are kept beside them.
public struct ReceivedRequest: Sendable, Equatable {
    /// Where the bytes come from.
    public enum Source: String, Sendable, Equatable {
        /// The HTTP/1.x bytes as they arrived (after TLS decryption), framing included.
        case wire = "http1-wire"
        /// An HTTP/2 request: its HPACK-decoded head written as `name: value` lines, pseudo-header
        /// fields first, and its DATA bytes. HTTP/2 sends no HTTP/1.1 text, so there is none to show.
        case http2Decoded = "http2-decoded"

        /// What the bytes are, in words.
        public var description: String {
            switch self {
            case .wire: "the HTTP/1.1 bytes as they arrived"
            case .http2Decoded: "HTTP/2: raw HTTP/1.1 bytes are not available; this is the decoded head (pseudo-headers first) and the DATA bytes"
            }
        }
    }

    /// The server's number for the request, which its response carries as ``idHeader``.
    public var id: Int
    /// When the head was complete.
    public var time: Date
    /// The client's address and port.
    public var remote: String
    public var source: Source
    /// Whether the connection was TLS (the bytes are then the decrypted ones).
    public var tls: Bool
    /// The head as received (request line, header lines and the empty line), up to its cap.
    public var head: [UInt8]
    /// The head's true length.
    public var headBytes: Int
    /// The body as received (chunked framing included), up to its cap.
    public var body: [UInt8]
    /// The body's true length.
    public var bodyBytes: Int
    /// Whether the request's framing ended (false while it arrives, or when the connection closed first).
    public var isComplete: Bool

    /// The response header that names the request a demo server's response answers.
    public static let idHeader = "X-Tincan-Request-Id"

    /// Creates a record.
    public init(id: Int, time: Date, remote: String, source: Source, tls: Bool, head: [UInt8], headBytes: Int, body: [UInt8] = [], bodyBytes: Int = 0, isComplete: Bool = false) {
        self.id = id
        self.time = time
        self.remote = remote
        self.source = source
        self.tls = tls
        self.head = head
        self.headBytes = headBytes
        self.body = body
        self.bodyBytes = bodyBytes
        self.isComplete = isComplete
    }

    /// Whether part of the head or body was not kept.
    public var isTruncated: Bool { head.count < headBytes || body.count < bodyBytes }

    /// Every byte received for the request.
    public var byteCount: Int { headBytes + bodyBytes }

    /// The head as text (bytes that are not UTF-8 shown as U+FFFD).
    public var headText: String { String(decoding: head, as: UTF8.self) }

    /// The head's lines without their line ends, up to the empty line that ends it.
    public var headLines: [String] {
        var lines = Self.lines(head)
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// `bytes` as lines of text: split at each LF, a CR before it dropped (a String would take
    /// CR LF for one character, which no `"\n"` split finds).
    public static func lines(_ bytes: some Collection<UInt8>) -> [String] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line[...], as: UTF8.self)
        }
    }
}

// MARK: - JSON

extension ReceivedRequest {
    /// The JSON object the demo server's `/__received` routes answer with.
    public var json: ParameterValue {
        .dictionary([
            "id": .integer(Int64(id)),
            "time": .string(time.formatted(Self.timeFormat)),
            "remote": .string(remote),
            "source": .string(source.rawValue),
            "tls": .bool(tls),
            "bytes": .integer(Int64(byteCount)),
            "headBytes": .integer(Int64(headBytes)),
            "bodyBytes": .integer(Int64(bodyBytes)),
            "truncated": .bool(isTruncated),
            "complete": .bool(isComplete),
            "head": .string(headText),
            "headBase64": .string(Data(head).base64EncodedString()),
            "bodyBase64": .string(Data(body).base64EncodedString()),
        ])
    }

    /// ISO 8601 with milliseconds, in UTC.
    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Reads what ``json`` wrote.
    ///
    /// - Throws: ``ReceivedRequestError`` naming the member that is missing or of the wrong kind.
    public init(json value: ParameterValue) throws(ReceivedRequestError) {
        guard let object = value.dictionaryValue else { throw .notAnObject }
        func integer(_ name: String) throws(ReceivedRequestError) -> Int {
            guard case .integer(let number)? = object[name], let value = Int(exactly: number), value >= 0 else { throw .member(name, "a non-negative integer") }
            return value
        }
        func string(_ name: String) throws(ReceivedRequestError) -> String {
            guard case .string(let text)? = object[name] else { throw .member(name, "a string") }
            return text
        }
        func bool(_ name: String) throws(ReceivedRequestError) -> Bool {
            guard case .bool(let flag)? = object[name] else { throw .member(name, "true or false") }
            return flag
        }
        func bytes(_ name: String) throws(ReceivedRequestError) -> [UInt8] {
            guard let data = Data(base64Encoded: try string(name)) else { throw .member(name, "base64") }
            return Array(data)
        }
        guard let source = Source(rawValue: try string("source")) else { throw .member("source", "http1-wire or http2-decoded") }
        guard let time = try? Date(string("time"), strategy: Self.timeFormat) else { throw .member("time", "an ISO 8601 time") }
        self.init(id: try integer("id"), time: time, remote: try string("remote"), source: source, tls: try bool("tls"),
                  head: try bytes("headBase64"), headBytes: try integer("headBytes"), body: try bytes("bodyBase64"),
                  bodyBytes: try integer("bodyBytes"), isComplete: try bool("complete"))
    }
}

/// Why a `/__received` answer could not be read.
public enum ReceivedRequestError: Error, Equatable, CustomStringConvertible {
    case notAnObject
    case member(String, String)

    public var description: String {
        switch self {
        case .notAnObject: "the received request is not a JSON object"
        case let .member(name, expected): "the received request's \"\(name)\" is not \(expected)"
        }
    }
}
