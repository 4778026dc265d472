/// Renders a request as readable wire text: the request line, the headers, a blank line and the
/// body, with binary and file content summarised by size so the preview never floods a screen.
public enum RequestPreview {
    /// The largest body shown in full; a longer text body is cut with a note of its size.
    public static let defaultBodyLimit = 64 * 1024

    /// The preview text, with `\n` line ends (the wire uses CRLF).
    ///
    /// The request line names the version tried first with `httpVersion` asked for
    /// (``HTTPVersion/firstTried(for:preference:)``), and the fields are written as HTTP/1.1
    /// writes them, as `curl -v` shows an HTTP/2 request.
    ///
    /// - Throws: ``RequestSerializationError`` when a body file cannot be read.
    public static func text(_ request: HTTPRequest, httpVersion: HTTPVersionPreference = .automatic, bodyLimit: Int = defaultBodyLimit) throws -> String {
        let head = request.wireHead
        var lines = ["\(head.method) \(head.target) \(HTTPVersion.firstTried(for: request.url, preference: httpVersion))"]
        for field in head.headers { lines.append("\(field.name): \(field.value)") }
        lines.append("")
        var text = lines.joined(separator: "\n") + "\n"
        switch request.body {
        case .none:
            break
        case .bytes(let bytes):
            text += describe(bytes, limit: bodyLimit, label: "body")
        case .file(let path, let length):
            text += "<\(byteCount(length)) streamed from \(path)>\n"
        case .multipart(let form):
            text += describe(form, limit: bodyLimit)
        }
        return text
    }

    /// Whether `bytes` read as text: valid UTF-8 without control characters other than tab, CR and LF.
    public static func isText(_ bytes: some Collection<UInt8>) -> Bool {
        // One pass over contiguous bytes: generic iteration from another module took 9 s for
        // a 125 MB body, and validating through a String copied it.
        bytes.withContiguousStorageIfAvailable(isText(contiguous:)) ?? Array(bytes).withUnsafeBufferPointer(isText(contiguous:))
    }

    private static func isText(contiguous bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var ascii = true
        for byte in bytes {
            if byte < 0x20 { guard byte == 0x09 || byte == 0x0A || byte == 0x0D else { return false } }
            if byte == 0x7F { return false }
            if byte >= 0x80 { ascii = false }
        }
        // UTF-8 is checked only when there is more than ASCII, scalar by scalar without a copy.
        return ascii || !transcode(bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true) { _ in }
    }

    /// A size for progress lines and rates: `512 B`, `1.5 KiB`, `3.2 GiB`.
    public static func shortSize(_ bytes: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = bytes
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(Int(value)) B" : DecimalText.fixed(value, decimals: 1) + " " + units[unit]
    }

    /// `1 byte`, `512 bytes`, `1,048,576 bytes (1.0 MiB)`.
    public static func byteCount(_ count: Int64) -> String {
        let exact = count == 1 ? "1 byte" : "\(grouped(count)) bytes"
        guard count >= 1024 else { return exact }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return "\(exact) (\(DecimalText.fixed(value, decimals: 1)) \(units[unit]))"
    }

    /// A whole number with its thousands grouped, whatever the locale: `12,000`.
    public static func grouped(_ count: Int64) -> String {
        let digits = Array(String(count))
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }

    private static func describe(_ bytes: [UInt8], limit: Int, label: String) -> String {
        guard isText(bytes) else { return "<binary \(label): \(byteCount(Int64(bytes.count)))>\n" }
        if bytes.count <= limit {
            let text = String(decoding: bytes, as: UTF8.self)
            return text.hasSuffix("\n") || text.isEmpty ? text : text + "\n"
        }
        var end = limit
        while end > 0, (bytes[end] & 0xC0) == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self) + "\n<\(label) cut at \(byteCount(Int64(end))) of \(byteCount(Int64(bytes.count)))>\n"
    }

    private static func describe(_ form: MultipartFormData, limit: Int) -> String {
        var text = ""
        for (index, part) in form.parts.enumerated() {
            text += "--\(form.boundary)\n"
            for field in part.headers { text += "\(field.name): \(field.value)\n" }
            text += "\n"
            switch part.content {
            case .bytes(let bytes): text += describe(bytes, limit: limit, label: "part \(index + 1)")
            case .file(let path, let length): text += "<file \(path): \(byteCount(length))>\n"
            case .stream(let length, _): text += "<stream: \(byteCount(length))>\n"
            }
        }
        if !form.parts.isEmpty { text += "--\(form.boundary)--\n" }
        let parts = form.parts.count == 1 ? "1 part" : "\(form.parts.count) parts"
        return text + "<multipart body: \(parts), \(byteCount(form.contentLength))>\n"
    }
}

