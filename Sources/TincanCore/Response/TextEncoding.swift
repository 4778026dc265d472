import Foundation

/// Text in a response's declared `charset`, converted to UTF-8 as AFNetworking's response
/// serializers convert it before they decode.
public enum TextEncoding {
    /// The IANA charset names Tincan converts, and their encodings. A name that is not here
    /// falls back to UTF-8, as AFNetworking falls back to its `stringEncoding` for a charset
    /// CoreFoundation does not know.
    static let encodings: [String: String.Encoding] = [
        "utf-8": .utf8, "utf8": .utf8,
        "us-ascii": .ascii, "ascii": .ascii,
        "iso-8859-1": .isoLatin1, "iso8859-1": .isoLatin1, "latin1": .isoLatin1, "l1": .isoLatin1,
        "iso-8859-2": .isoLatin2, "latin2": .isoLatin2,
        "windows-1250": .windowsCP1250, "windows-1251": .windowsCP1251, "windows-1252": .windowsCP1252,
        "windows-1253": .windowsCP1253, "windows-1254": .windowsCP1254, "cp1252": .windowsCP1252,
        "utf-16": .utf16, "utf-16be": .utf16BigEndian, "utf-16le": .utf16LittleEndian,
        "utf-32": .utf32, "utf-32be": .utf32BigEndian, "utf-32le": .utf32LittleEndian,
        "shift_jis": .shiftJIS, "euc-jp": .japaneseEUC, "iso-2022-jp": .iso2022JP,
    ]

    /// The encoding a charset name stands for; UTF-8 for none or an unknown name.
    public static func encoding(forCharset charset: String?) -> String.Encoding {
        charset.flatMap { encodings[$0.lowercased()] } ?? .utf8
    }

    /// `bytes` as UTF-8, converted from `charset` (UTF-8 when nil or unknown).
    ///
    /// - Returns: The UTF-8 bytes, or nil when `bytes` are not valid in that charset.
    public static func utf8(_ bytes: [UInt8], charset: String?) -> [UInt8]? {
        let encoding = encoding(forCharset: charset)
        if encoding == .utf8 || encoding == .ascii {
            // Checked without a copy: valid UTF-8 (and ASCII) is already what is wanted.
            guard UTF8Check.isValid(bytes) else { return nil }
            if encoding == .ascii, bytes.contains(where: { $0 >= 0x80 }) { return nil }
            return bytes
        }
        return String(data: Data(bytes), encoding: encoding).map { Array($0.utf8) }
    }

    /// `bytes` to show as text: converted to UTF-8 when `charset` names another encoding and
    /// they are valid in it, else as they are (a viewer then shows what was received).
    public static func forDisplay(_ bytes: [UInt8], charset: String?) -> [UInt8] {
        guard encoding(forCharset: charset) != .utf8 else { return bytes }
        return utf8(bytes, charset: charset) ?? bytes
    }
}
