import Foundation
import TincanCore

/// What Tincan said it would send (the wire preview of the request as sent) beside what a demo
/// server received, line by line (``LineDiff``), each difference judged: a transport detail
/// (hop-by-hop headers, chunk framing, HTTP/2's pseudo-headers and lower-case names) is named as
/// such; anything else is a real mismatch.
struct ReceivedComparison: Sendable, Equatable {
    /// One line of the comparison.
    struct Line: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// Sent as the preview said.
            case same
            /// In the preview, not received.
            case missing
            /// Received, not in the preview.
            case unexpected
            /// A difference the transport makes (hop-by-hop, framing, HTTP/2): `note` says which.
            case transport
        }

        var kind: Kind
        var text: String
    }

    var lines: [Line]
    /// What each transport difference is, in words ("hop-by-hop: Connection: keep-alive added by
    /// the transport").
    var notes: [String]
    /// How many lines are real mismatches.
    var mismatches: Int { lines.filter { $0.kind == .missing || $0.kind == .unexpected }.count }

    /// Headers that belong to one connection, not to the request (RFC 9110 §7.6.1), or that the
    /// transport writes itself.
    static let hopByHop: Set<String> = ["connection", "keep-alive", "te", "transfer-encoding", "upgrade", "trailer", "proxy-connection"]

    /// Compares `sent` (the last request of a send, as the preview writes it) with `received`.
    init(sent: HTTPRequest, received: ReceivedRequest) {
        lines = []
        notes = []
        let http2 = received.source == .http2Decoded
        var expected = Self.headLines(sent, http2: http2)
        var actual = received.headLines
        if http2 {
            notes.append("HTTP/2: the request line is sent as :method, :scheme, :authority and :path, Host as :authority, and header names in lower case (HPACK); raw HTTP/1.1 bytes are not available")
        }
        var body = received.body
        let chunked = actual.contains { Self.name(of: $0) == "transfer-encoding" && $0.lowercased().contains("chunked") }
        if chunked, received.bodyBytes == received.body.count, let (decoded, count) = ChunkedFraming.decode(received.body) {
            body = decoded
            notes.append("transport: the body came in \(count) chunk\(count == 1 ? "" : "s") (Transfer-Encoding: chunked); the framing is left out below")
        }
        expected.append("")
        actual.append("")
        // A body the server kept only part of is compared by size, on both sides.
        let complete = received.bodyBytes == received.body.count
        expected += Self.bodyLines(sent.body, whole: complete)
        actual += Self.bodyLines(received: body, complete: complete, total: complete ? body.count : received.bodyBytes)
        judge(LineDiff.diff(expected, actual))
        // A chunked body has no Content-Length: the transport chose the framing.
        if chunked, let index = lines.firstIndex(where: { $0.kind == .missing && Self.name(of: $0.text) == "content-length" }) {
            lines[index].kind = .transport
            notes.append("framing: \(lines[index].text) replaced by Transfer-Encoding: chunked")
        }
    }

    private mutating func judge(_ changes: [LineDiff.Change]) {
        // A line missing and one received that differ only in the name's case are one header.
        var removedByLowercase: [String: Int] = [:]
        for change in changes {
            switch change {
            case let .same(text):
                lines.append(Line(kind: .same, text: text))
            case let .removed(text):
                removedByLowercase[Self.caseless(text), default: 0] += 1
                lines.append(Line(kind: .missing, text: text))
            case let .added(text):
                let name = Self.name(of: text)
                if let count = removedByLowercase[Self.caseless(text)], count > 0, let index = lines.lastIndex(where: { $0.kind == .missing && Self.caseless($0.text) == Self.caseless(text) }) {
                    removedByLowercase[Self.caseless(text)] = count - 1
                    lines[index].kind = .transport
                    lines.append(Line(kind: .transport, text: text))
                    notes.append("header case: \(lines[index].text) arrived as \(text)")
                } else if let name, Self.hopByHop.contains(name) || name.hasPrefix("proxy-") {
                    lines.append(Line(kind: .transport, text: text))
                    notes.append("hop-by-hop: \(text) added by the transport")
                } else if name == "accept-encoding" {
                    lines.append(Line(kind: .transport, text: text))
                    notes.append("transport: \(text) added by the transport")
                } else {
                    lines.append(Line(kind: .unexpected, text: text))
                }
            }
        }
    }

    /// The preview's head lines; for HTTP/2, as HPACK delivers them: pseudo-headers, then the
    /// fields in lower case without Host and the connection's own.
    private static func headLines(_ request: HTTPRequest, http2: Bool) -> [String] {
        let head = request.wireHead
        guard http2 else {
            return ["\(head.method) \(head.target) HTTP/1.1"] + head.headers.map { "\($0.name): \($0.value)" }
        }
        var lines = [":method: \(head.method)", ":scheme: \(request.url.scheme ?? "https")"]
        if let authority = head.headers.first(where: { HTTPHeaders.same($0.name, "Host") })?.value ?? request.url.hostHeaderValue {
            lines.append(":authority: \(authority)")
        }
        lines.append(":path: \(head.target)")
        for field in head.headers where !HTTPHeaders.same(field.name, "Host") && !hopByHop.contains(field.name.lowercased()) {
            lines.append("\(field.name.lowercased()): \(field.value)")
        }
        return lines
    }

    /// The body's lines as the preview writes them: text as lines, anything else by size.
    private static func bodyLines(_ body: RequestBody, whole: Bool) -> [String] {
        if case .bytes(let bytes) = body { return bodyLines(received: bytes, complete: whole, total: bytes.count) }
        guard let length = body.length, length > 0 else { return [] }
        return ["<body: \(RequestPreview.byteCount(length))>"]
    }

    private static func bodyLines(received bytes: [UInt8], complete: Bool, total: Int) -> [String] {
        guard total > 0 else { return [] }
        guard complete, RequestPreview.isText(bytes) else { return ["<body: \(RequestPreview.byteCount(Int64(total)))>"] }
        var lines = ReceivedRequest.lines(bytes)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// A header line's name in lower case, or nil for a line that is no header.
    private static func name(of line: String) -> String? {
        guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { return nil }
        return line[..<colon].lowercased()
    }

    /// A header line with its name in lower case, for telling a change of case from a change.
    private static func caseless(_ line: String) -> String {
        guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { return line }
        return line[..<colon].lowercased() + line[colon...]
    }
}
