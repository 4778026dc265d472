import Foundation
import TincanCore
import TincanDemoServer

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

/// The text `tincan serve --show` prints for each request as it arrives: the head as received,
/// then the body as text when it is UTF-8 text, else its size and first bytes in hex; control
/// characters as `·`, so a client cannot drive the terminal.
enum ReceivedPrinter {
    /// The most body bytes printed per request.
    static let bodyLimit = 4 * 1024

    static func text(_ request: ReceivedRequest, bodyLimit: Int = bodyLimit) -> String {
        var lines = ["── #\(request.id) from \(request.remote) · \(RequestPreview.byteCount(Int64(request.byteCount)))"
            + (request.tls ? " · TLS (decrypted)" : "") + (request.isComplete ? "" : " · connection closed before the end") + " ──"]
        if request.source == .http2Decoded { lines.append("(\(request.source.description))") }
        lines += request.headLines.map(TerminalText.line)
        if request.head.count < request.headBytes { lines.append("<head cut at \(RequestPreview.byteCount(Int64(request.head.count))) of \(RequestPreview.byteCount(Int64(request.headBytes)))>") }
        lines.append("")
        if request.bodyBytes > 0 { lines += bodyLines(request, limit: bodyLimit) }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func bodyLines(_ request: ReceivedRequest, limit: Int) -> [String] {
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
        var lines = ReceivedRequest.lines(text).map(TerminalText.line)
        if lines.last?.isEmpty == true { lines.removeLast() }
        if cut < request.bodyBytes { lines.append("<body cut at \(RequestPreview.byteCount(Int64(cut))) of \(total)>") }
        return lines
    }
}
