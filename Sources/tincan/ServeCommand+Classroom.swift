import Foundation
import TincanCore
import TincanDemoServer
import TincanSessions

/// The address `tincan serve --host` binds: an IP address or `localhost`, checked before anything
/// listens.
struct ServeAddress: Equatable {
    /// The address as given, which the server binds.
    var host: String
    /// Whether only this machine can connect.
    var isLoopback: Bool

    /// Reads `--host`.
    ///
    /// - Throws: ``CLIFailure/badInput(_:)`` (exit 2) naming `--host` for anything but an IPv4 or
    ///   IPv6 address (without brackets) or `localhost`.
    static func parse(_ text: String) throws(CLIFailure) -> ServeAddress {
        if text.lowercased() == "localhost" { return ServeAddress(host: "localhost", isLoopback: true) }
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        guard let address = IPAddress(bare) else {
            throw .badInput("--host: \"\(text)\" is not an IP address (127.0.0.1, ::1, 0.0.0.0, 192.168.1.20) or localhost")
        }
        return ServeAddress(host: bare, isLoopback: address.isLoopback)
    }

    /// The `Host` values the server answers: loopback ones, any IP address when it listens
    /// beyond loopback, and `--allow-host`'s names.
    ///
    /// - Throws: ``CLIFailure/badInput(_:)`` naming `--allow-host` for what is not a host name.
    static func hostPolicy(allowing names: [String], listeningOn address: ServeAddress) throws(CLIFailure) -> DemoHostPolicy {
        for name in names {
            let valid = !name.isEmpty && name.count <= 253 && !name.hasPrefix(".") && !name.hasPrefix("-")
                && name.unicodeScalars.allSatisfy { ($0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == ".")) }
            guard valid else { throw .badInput("--allow-host: \"\(TerminalText.line(name))\" is not a host name; expected letters, digits, dots and hyphens, such as teacher.local") }
        }
        return DemoHostPolicy(allowedNames: names, acceptsAnyAddress: !address.isLoopback)
    }

    /// What standard error says before a server on a non-loopback address listens, or nil.
    var warning: String? {
        guard !isLoopback else { return nil }
        let shown = host.contains(":") ? "[\(host)]" : host
        return """
        warning: tincan serve listens on \(shown), not only on this machine: anyone on the network \
        who can reach this address can send it requests, and it echoes back what it receives \
        (headers, cookies, bodies, credentials), and /__received shows the raw bytes of the last \
        requests to anyone who asks. Send it nothing secret.

        """
    }
}

/// The text `tincan serve --show` prints for each request as it arrives: a rule naming it, the
/// head as received, then the body as text when it is UTF-8 text, else its size and first bytes
/// in hex. Secrets (credentials, cookies, tokens, secret query and form fields: ``Redaction``'s
/// rules) are hidden unless asked for; control characters are shown as `·` (``TerminalText``), so
/// a client cannot drive the terminal; colours only when asked (a terminal without `NO_COLOR`).
enum ReceivedPrinter {
    /// The most body bytes printed per request.
    static let bodyLimit = 4 * 1024
    /// How wide the rule before each request is.
    static let ruleWidth = 72

    /// How a request is printed.
    struct Style: Equatable {
        /// Whether to colour the rule, the request line and the header names.
        var colors = false
        /// Whether to show secrets as they came (`--show-secrets`).
        var showsSecrets = false
    }

    static func text(_ request: ReceivedRequest, style: Style = Style(), bodyLimit: Int = bodyLimit) -> String {
        func paint(_ text: String, _ code: String) -> String { style.colors ? code + text + ANSI.reset : text }
        let title = "── #\(request.id) from \(request.remote) · \(RequestPreview.byteCount(Int64(request.byteCount)))"
            + (request.tls ? " · TLS (decrypted)" : "") + (request.isComplete ? "" : " · connection closed before the end") + " "
        // A blank line and a rule as wide as a terminal's line set one request off from the last.
        var lines = ["", paint(title + String(repeating: "─", count: max(2, ruleWidth - title.count)), ANSI.cyan)]
        if request.source == .http2Decoded { lines.append(paint("(\(request.source.description))", ANSI.dim)) }
        var contentType: String?
        for (index, line) in request.headLines.enumerated() {
            let shown = TerminalText.line(style.showsSecrets ? line : Redaction.receivedHeadLine(line, isRequestLine: index == 0 && request.source != .http2Decoded))
            if index > 0, let colon = line.dropFirst().firstIndex(of: ":") {
                let name = line[..<colon]
                if HTTPHeaders.same(String(name), "Content-Type") { contentType = String(line[line.index(after: colon)...]).trimmingWhitespaceAndNewlines() }
                let split = shown.index(shown.startIndex, offsetBy: min(name.count, shown.count))
                lines.append(paint(String(shown[..<split]), ANSI.blue) + shown[split...])
            } else {
                lines.append(index == 0 ? paint(shown, ANSI.bold) : shown)
            }
        }
        if request.head.count < request.headBytes { lines.append(paint("<head cut at \(RequestPreview.byteCount(Int64(request.head.count))) of \(RequestPreview.byteCount(Int64(request.headBytes)))>", ANSI.dim)) }
        lines.append("")
        if request.bodyBytes > 0 {
            lines += bodyLines(request, limit: bodyLimit, contentType: style.showsSecrets ? nil : .some(contentType)).map { $0.hasPrefix("<") ? paint($0, ANSI.dim) : $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The body's lines; `contentType` is nil to show secrets, else the request's type (which
    /// says how to find the secrets in it).
    private static func bodyLines(_ request: ReceivedRequest, limit: Int, contentType: String??) -> [String] {
        let shown = request.body.prefix(limit)
        let total = RequestPreview.byteCount(Int64(request.bodyBytes))
        var cut = shown.count
        // Text cut inside a character is cut before it.
        while cut > 0, cut < request.body.count, (request.body[cut] & 0xC0) == 0x80 { cut -= 1 }
        let text = request.body.prefix(cut)
        guard RequestPreview.isText(text) else {
            let hex = request.body.prefix(32).map { HexText.bytes([$0]) }
            return ["<binary body: \(total); first bytes: \(hex.joined(separator: " "))\(request.bodyBytes > 32 ? " …" : "")>"]
        }
        var body = String(decoding: text, as: UTF8.self)
        if case let .some(type) = contentType { body = Redaction.receivedBody(body, contentType: type) }
        var lines = ReceivedRequest.lines(Array(body.utf8)).map(TerminalText.line)
        if lines.last?.isEmpty == true { lines.removeLast() }
        if cut < request.bodyBytes { lines.append("<body cut at \(RequestPreview.byteCount(Int64(cut))) of \(total)>") }
        return lines
    }
}
