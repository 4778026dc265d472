/// The one function that makes text from outside safe to print on a terminal.
///
/// A server, a proxy, a certificate or a file the user did not write can put characters in a
/// header, a body, a name or a message that a terminal obeys instead of showing: an escape
/// sequence that clears the screen, retitles the window or writes the clipboard (OSC 52), a
/// carriage return that writes a line over the one before it, an 8-bit C1 control (U+009B is a
/// CSI to some terminals), or a bidirectional override that shows text in another order than it
/// is (the "Trojan Source" trick). Every text output path of Tincan hands such text to one of
/// these functions before it writes it; each of those characters is shown as `·`, as the TUI's
/// cells and the stream printer show them, and everything else is left as it is.
///
/// Neutralised: C0 controls (U+0000–U+001F) but tab and line feed, DEL (U+007F), C1 controls
/// (U+0080–U+009F), the bidi embeddings and overrides (U+202A–U+202E) and isolates
/// (U+2066–U+2069). A line feed is kept by ``text(_:)`` and ``bytes(_:)`` (text of many lines), and
/// so is a carriage return right before one (a CRLF line end moves nothing); ``line(_:)``, for
/// text that must stay on one line (a name, a header value, a reason phrase), neutralises both.
public enum TerminalText {
    /// What a neutralised character is shown as.
    public static let replacement: Unicode.Scalar = "·"

    /// Whether a terminal would obey `scalar` rather than show it (line feed and tab aside,
    /// which are asked about by the callers that keep them).
    @inline(__always)
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 { return true }
        if value < 0x7F { return false }
        return value <= 0x9F || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    /// `text` for one line: every control character, line feeds and carriage returns included,
    /// shown as `·`; tabs kept.
    public static func line(_ text: some StringProtocol) -> String {
        neutralized(text, keepsLines: false)
    }

    /// `text` of any number of lines: control characters shown as `·`, but line feeds, tabs and
    /// a carriage return before a line feed kept.
    public static func text(_ text: some StringProtocol) -> String {
        neutralized(text, keepsLines: true)
    }

    private static func neutralized(_ text: some StringProtocol, keepsLines: Bool) -> String {
        // Printable ASCII with tabs (and line feeds, where lines are kept), as almost every line
        // is, is looked at byte by byte (a replay prints a line for every request).
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) || $0 == 0x09 || ($0 == 0x0A && keepsLines) }) { return String(text) }
        let scalars = text.unicodeScalars
        // Most text has nothing to change and is returned without a copy of its scalars.
        guard let first = scalars.indices.first(where: { mustReplace(scalars, at: $0, keepsLines: keepsLines) }) else { return String(text) }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[..<first])
        var index = first
        while index < scalars.endIndex {
            result.append(mustReplace(scalars, at: index, keepsLines: keepsLines) ? replacement : scalars[index])
            index = scalars.index(after: index)
        }
        return String(result)
    }

    @inline(__always)
    private static func mustReplace<Scalars: BidirectionalCollection<Unicode.Scalar>>(_ scalars: Scalars, at index: Scalars.Index, keepsLines: Bool) -> Bool {
        let scalar = scalars[index]
        guard isControl(scalar) else { return false }
        if scalar == "\t" { return false }
        guard keepsLines else { return true }
        if scalar == "\n" { return false }
        if scalar == "\r" {
            let next = scalars.index(after: index)
            return next == scalars.endIndex || scalars[next] != "\n"
        }
        return true
    }

    /// UTF-8 text of any number of lines (a response body) as ``text(_:)`` shows it, worked on
    /// as bytes: a large body is looked at once and, when nothing in it must change (almost
    /// always), returned as it is, without a copy.
    public static func bytes(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { buffer -> [UInt8]? in
            guard let first = firstControl(in: buffer, from: 0) else { return nil }
            var result: [UInt8] = []
            result.reserveCapacity(buffer.count + 16)
            var start = 0
            var found: (offset: Int, length: Int)? = first
            while let (offset, length) = found {
                result.append(contentsOf: buffer[start..<offset])
                result.append(contentsOf: [0xC2, 0xB7])
                start = offset + length
                found = firstControl(in: buffer, from: start)
            }
            result.append(contentsOf: buffer[start...])
            return result
        } ?? bytes
    }

    /// The offset and length in bytes of the first character at or after `start` that must be
    /// replaced, or nil.
    private static func firstControl(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> (offset: Int, length: Int)? {
        let count = buffer.count
        var index = start
        while index < count {
            let byte = buffer[index]
            // Printable ASCII, the bulk of any text, takes one comparison.
            if byte >= 0x20, byte < 0x7F {
                index += 1
                continue
            }
            switch byte {
            case 0x09, 0x0A:
                break
            case 0x0D:
                if index + 1 >= count || buffer[index + 1] != 0x0A { return (index, 1) }
            case 0x00..<0x20, 0x7F:
                return (index, 1)
            case 0xC2:
                // U+0080–U+009F are C2 80 to C2 9F.
                if index + 1 < count, (0x80...0x9F).contains(buffer[index + 1]) { return (index, 2) }
            case 0xE2:
                // U+202A–U+202E are E2 80 AA to E2 80 AE; U+2066–U+2069 are E2 81 A6 to E2 81 A9.
                if index + 2 < count {
                    let second = buffer[index + 1], third = buffer[index + 2]
                    if second == 0x80, (0xAA...0xAE).contains(third) { return (index, 3) }
                    if second == 0x81, (0xA6...0xA9).contains(third) { return (index, 3) }
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
