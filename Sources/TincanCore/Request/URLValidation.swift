// What makes a URL unusable for a request, found where requests are built
// (`HTTPSessionManager.validate`), so the command line, `--offline`, replay and the TUI all refuse
// the same URLs with the same reason instead of each passing them on to the transport.

import Foundation

extension URLReference {
    /// Why `text`, as typed, cannot be part of a request URL: a control character, which no
    /// escaping makes right (a newline in a URL is a header injection waiting to happen).
    ///
    /// - Returns: The reason, or nil when the text has no control character.
    public static func typedTextProblem(_ text: String) -> String? {
        for (offset, scalar) in text.unicodeScalars.enumerated() where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
            return "it holds the control character U+\(HexText.number(scalar.value, width: 4, uppercase: true)) at character \(offset + 1)"
        }
        return nil
    }

    /// Why this URL's authority cannot be connected to: an IPv6 literal without its `]` or with
    /// other characters than hex digits, colons and dots; a host holding a character that no host
    /// name can hold (a space, `%`, `/`…, typed or percent-escaped); a port that is not a number
    /// from 0 to 65535. The authority is taken as ``URLReference/escapingInvalidCharacters(_:)``
    /// leaves it, so escapes of non-ASCII text (an internationalized name) are allowed.
    ///
    /// - Returns: The reason, or nil when the authority is usable (or absent: the caller checks that).
    public var authorityProblem: String? {
        guard let authority else { return nil }
        let hostPort: Substring = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? Substring(authority)
        let portText: Substring
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else {
                return "the IPv6 address '\(hostPort)' is missing its closing ']'"
            }
            let literal = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            if let problem = Self.ipLiteralProblem(literal) { return problem }
            let after = hostPort[hostPort.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else {
                return "'\(after)' follows the IPv6 address '[\(literal)]'; expected ':' and a port"
            }
            portText = after.dropFirst()
        } else {
            let colon = hostPort.lastIndex(of: ":")
            let host = colon.map { hostPort[..<$0] } ?? hostPort
            if let problem = Self.hostProblem(host) { return problem }
            portText = colon.map { hostPort[hostPort.index(after: $0)...] } ?? ""
        }
        guard !portText.isEmpty else { return nil }
        guard portText.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return "the port '\(Self.decodingEscapes(portText))' is not a number; expected 0…65535"
        }
        do {
            _ = try NumericRange.port.integer(parsing: String(portText))
        } catch {
            return "the port \(error.message)"
        }
        return nil
    }

    /// Why a registered name cannot be a host: empty, or holding a character outside RFC 3986's
    /// unreserved and sub-delimiter sets. Escapes of bytes over 0x7F (typed non-ASCII) pass.
    private static func hostProblem(_ host: Substring) -> String? {
        guard !host.isEmpty else { return "it has no host" }
        let bytes = Array(host.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                let decoded = high << 4 | low
                if decoded < 0x80 {
                    return "the host '\(decodingEscapes(host))' holds \(describe(decoded)), which a host name cannot hold"
                }
                index += 3
                continue
            }
            guard isHostCharacter(byte) else {
                return "the host '\(decodingEscapes(host))' holds \(describe(byte)), which a host name cannot hold"
            }
            index += 1
        }
        return nil
    }

    /// Why the text between `[` and `]` is not an IP literal (RFC 3986: IPv6, with an optional
    /// `%25` zone, or `v` IPvFuture).
    private static func ipLiteralProblem(_ literal: Substring) -> String? {
        if literal.first == "v" || literal.first == "V" { return nil }
        var address = literal
        if let zone = literal.range(of: "%25") { address = literal[..<zone.lowerBound] }
        let valid = address.contains(":") && address.utf8.allSatisfy { byte in
            hexValue(byte) != nil || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
        }
        return valid ? nil : "'[\(decodingEscapes(literal))]' is not an IPv6 address"
    }

    private static func isHostCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("-._~!$&'()*+,;=".utf8).contains(byte)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: " "): "a space"
        case 0..<0x20, 0x7F: "the control character U+" + HexText.number(byte, width: 4, uppercase: true)
        default: "'\(Character(Unicode.Scalar(byte)))'"
        }
    }

    /// Text with its escapes undone, as the user typed it (invalid UTF-8 left escaped).
    private static func decodingEscapes(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }
}
