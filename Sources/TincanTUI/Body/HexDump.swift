/// A binary body as a hex dump, 16 bytes a row, built only for the rows drawn.
struct HexDump: Sendable {
    static let rowBytes = 16
    let bytes: [UInt8]

    var rowCount: Int { max(1, (bytes.count + Self.rowBytes - 1) / Self.rowBytes) }

    /// `00000010  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  |.PNG........IHDR|`
    func line(_ row: Int) -> TokenLine {
        let start = row * Self.rowBytes
        let end = min(bytes.count, start + Self.rowBytes)
        guard start < end else { return [Token(.muted, "(no bytes)")] }
        var hex = ""
        var ascii = ""
        for index in start..<(start + Self.rowBytes) {
            if index == start + 8 { hex += " " }
            if index < end {
                let byte = bytes[index]
                hex += Self.digits[Int(byte >> 4)] + Self.digits[Int(byte & 0x0F)] + " "
                ascii += (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "."
            } else {
                hex += "   "
            }
        }
        return [Token(.muted, Self.offset(start) + "  "), Token(.jsonNumber, hex), Token(.jsonPunctuation, " |"), Token(.base, ascii), Token(.jsonPunctuation, "|")]
    }

    /// The row's text as drawn (searches highlight in it).
    func text(of row: Int) -> String {
        line(row).map(\.text).joined()
    }

    private static let digits = (0..<16).map { String($0, radix: 16) }

    private static func offset(_ value: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - text.count)) + text
    }
}
