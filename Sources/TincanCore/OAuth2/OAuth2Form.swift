import Foundation

/// The `application/x-www-form-urlencoded` encoding RFC 6749 uses for token requests
/// (Appendix B), for the client's id and secret in HTTP Basic too (§2.3.1).
///
/// Unlike a query string built by ``QueryString`` (AFNetworking's `%20`), a space is `+` and
/// everything but letters, digits and `*-._` is percent-encoded, as the HTML form encoding does.
public enum OAuth2Form {
    /// The body of a form with `pairs`, in order.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// One name or value form-urlencoded.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                escaped += "+"
            default:
                escaped += "%" + HexText.number(byte, width: 2, uppercase: true)
            }
        }
        return escaped
    }

    /// The pairs of a form-urlencoded text (a redirect's query), decoded; bytes that are not
    /// UTF-8 become U+FFFD.
    public static func decode(_ text: Substring) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }

    /// One name or value of a form decoded: `+` is a space, `%XX` a byte, and a `%` not
    /// followed by two hex digits stays as it is.
    public static func unescape(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), high < utf8.endIndex,
                      let low = utf8.index(high, offsetBy: 1, limitedBy: utf8.endIndex), low < utf8.endIndex,
                      let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index = low
            } else {
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `Basic base64(urlencode(id):urlencode(secret))`, RFC 6749 §2.3.1's client authentication.
    public static func basicAuthorization(clientID: String, clientSecret: String) -> String {
        let pair = "\(escape(clientID)):\(escape(clientSecret))"
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }
}

