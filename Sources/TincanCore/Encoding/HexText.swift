/// Hexadecimal text: the one writer of it, for digests, nonces, boundaries, escapes and the
/// code points that errors name. Swift only, without Foundation's `String(format:)`.
public enum HexText {
    private static let lowercaseDigits = Array("0123456789abcdef".utf8)
    private static let uppercaseDigits = Array("0123456789ABCDEF".utf8)

    /// Two digits a byte, as digests are written (`e3b0c442…`).
    public static func bytes(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
        let digits = uppercase ? uppercaseDigits : lowercaseDigits
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `value` (not negative) with at least `width` digits, zeros before it, as `%0<width>x`
    /// writes it (`%0<width>X` when `uppercase`).
    public static func number(_ value: some BinaryInteger, width: Int, uppercase: Bool = false) -> String {
        let digits = String(value, radix: 16, uppercase: uppercase)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
