import Foundation

/// How curl (7.88) turns its data options into body bytes, so an imported command sends what curl
/// sends. Each rule was checked against `/usr/bin/curl` on a loopback server.
enum CurlData {
    /// `-d @file` and `--data-ascii @file`: curl reads the file with `fgets` into a 256-byte
    /// buffer and cuts each piece at its first CR, LF or NUL, so line breaks vanish and so does
    /// the rest of a line after a CR (`"a\rb\n"` sends `a`). `--data-binary` keeps the bytes.
    static func textFromFile(_ bytes: [UInt8]) -> [UInt8] {
        var text: [UInt8] = []
        var start = 0
        while start < bytes.count {
            // One fgets: at most 255 bytes, ending after a newline.
            var end = start
            while end < bytes.count, end - start < 255 {
                end += 1
                if bytes[end - 1] == 0x0A { break }
            }
            let piece = bytes[start..<end]
            let cut = piece.firstIndex { $0 == 0x0D || $0 == 0x0A || $0 == 0 } ?? end
            text += bytes[start..<cut]
            start = end
        }
        return text
    }

    /// `curl_easy_escape`: every byte but ALPHA, DIGIT and `-._~` as `%XX` (upper-case hex).
    static func escape(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var escaped: [UInt8] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                escaped.append(byte)
            default:
                escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return escaped
    }

    /// One `--data-urlencode` argument as curl sends it.
    ///
    /// The argument is `content`, `=content`, `name=content`, `@file` or `name@file` (an `=`
    /// anywhere wins over an `@`). The content is escaped as ``escape(_:)`` does, and then a space
    /// (`%20`) becomes `+`; the name is sent as written. A file that cannot be read sends nothing
    /// at all, name included, as curl does after its warning.
    ///
    /// - Parameter read: Reads a file's bytes, or returns nil when it cannot be read.
    /// - Returns: The bytes, and the file that could not be read.
    static func urlencoded(_ argument: [UInt8], read: (String) -> [UInt8]?) -> (bytes: [UInt8], unreadable: String?) {
        var name: ArraySlice<UInt8> = []
        var content = argument[...]
        if let equals = argument.firstIndex(of: UInt8(ascii: "=")) {
            name = argument[..<equals]
            content = argument[(equals + 1)...]
        } else if let at = argument.firstIndex(of: UInt8(ascii: "@")) {
            name = argument[..<at]
            let path = String(decoding: argument[(at + 1)...], as: UTF8.self)
            // curl reads an empty file as no data, which it sends as an empty string.
            guard let bytes = read(path) else { return ([], path) }
            guard !bytes.isEmpty else { return ([], nil) }
            content = bytes[...]
        }
        var encoded: [UInt8] = []
        var escaped = escape(content)[...]
        while let byte = escaped.popFirst() {
            if byte == UInt8(ascii: "%"), escaped.starts(with: Array("20".utf8)) {
                escaped.removeFirst(2)
                encoded.append(UInt8(ascii: "+"))
            } else {
                encoded.append(byte)
            }
        }
        return (name.isEmpty ? encoded : Array(name) + [UInt8(ascii: "=")] + encoded, nil)
    }

    /// The Content-Type curl gives a `-F name=@file` part without `;type=`: its own short table
    /// by extension (case-insensitively), else `application/octet-stream`.
    static func formFileType(_ path: String) -> String {
        let types = ["gif": "image/gif", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "svg": "image/svg+xml",
                     "txt": "text/plain", "htm": "text/html", "html": "text/html", "pdf": "application/pdf", "xml": "application/xml"]
        return types[(path as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
    }

    /// The URL `curl -T file URL` sends to: a URL whose path is empty or ends in `/` gets the
    /// file's name (escaped), before any query.
    static func uploadURL(_ url: String, file: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let afterAuthority = url[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        let pathEnd = url[afterAuthority...].firstIndex { $0 == "?" || $0 == "#" } ?? url.endIndex
        let path = url[afterAuthority..<pathEnd]
        guard path.isEmpty || path.hasSuffix("/") else { return url }
        let name = file.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? file
        let escaped = String(decoding: escape(name.utf8), as: UTF8.self)
        return String(url[..<pathEnd]) + (path.isEmpty ? "/" : "") + escaped + String(url[pathEnd...])
    }

    /// The URL `curl -G` sends to: the data after a `?` (or `&` when the URL has a query), before
    /// any fragment; nothing is added for empty data.
    static func urlWithQuery(_ url: String, _ data: [UInt8]) -> String {
        guard !data.isEmpty else { return url }
        let fragment = url.firstIndex(of: "#") ?? url.endIndex
        var base = String(url[..<fragment])
        if let question = base.firstIndex(of: "?") {
            if base.index(after: question) != base.endIndex { base += "&" }
        } else {
            base += "?"
        }
        return base + String(decoding: data, as: UTF8.self) + String(url[fragment...])
    }
}
