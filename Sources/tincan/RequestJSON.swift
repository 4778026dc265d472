import Foundation
import TincanCore

/// Writes a request as the JSON object of the CLI contract:
/// `{"method", "url", "headers": [[name, value]…], "body": text|null, "bodyBase64": base64|null}`.
///
/// `body` holds the body when it is UTF-8 text, `bodyBase64` when it is not; both are null when
/// there is no body. The body is streamed in two passes (is it text? then write it), so a large
/// multipart file is never held whole in memory. A body streamed from a file (`--upload`) is
/// named instead: both are null and `"bodyFile": {"path", "bytes", "sha256"}` is added.
enum RequestJSON {
    static func write(_ request: HTTPRequest, to output: inout StandardOutput, terminator: String = "\n") throws {
        let head = request.wireHead
        var prefix: [UInt8] = Array("{\"method\":".utf8)
        JSONWriter.appendQuoted(head.method, to: &prefix)
        prefix += Array(",\"url\":".utf8)
        var url = request.url
        url.fragment = nil
        JSONWriter.appendQuoted(url.string, to: &prefix)
        prefix += Array(",\"headers\":[".utf8)
        for (offset, field) in head.headers.enumerated() {
            if offset > 0 { prefix.append(UInt8(ascii: ",")) }
            prefix.append(UInt8(ascii: "["))
            JSONWriter.appendQuoted(field.name, to: &prefix)
            prefix.append(UInt8(ascii: ","))
            JSONWriter.appendQuoted(field.value, to: &prefix)
            prefix.append(UInt8(ascii: "]"))
        }
        prefix += Array("],\"body\":".utf8)
        try output.write(prefix)

        if case .none = request.body {
            try output.write(Array("null,\"bodyBase64\":null}\(terminator)".utf8))
            return
        }
        if case .file(let path, let length) = request.body {
            // An upload is named, not carried: a 1 GiB file would otherwise become 1.4 GB of
            // base64 in the report. The digest is read in chunks, so memory stays flat.
            let digest = try FileDigest.sha256(ofFile: path)
            var file: [UInt8] = Array("null,\"bodyBase64\":null,\"bodyFile\":{\"path\":".utf8)
            JSONWriter.appendQuoted(path, to: &file)
            file += Array(",\"bytes\":\(length),\"sha256\":\"\(digest)\"}}\(terminator)".utf8)
            try output.write(file)
            return
        }
        if try isUTF8(request.body) {
            try output.write([UInt8(ascii: "\"")])
            var reader = try request.body.makeReader()
            var carry: [UInt8] = []
            while let chunk = try reader.read() {
                var bytes = carry + chunk
                carry = UTF8Boundary.splitIncompleteTail(&bytes)
                var escaped: [UInt8] = []
                escaped.reserveCapacity(bytes.count + 16)
                JSONWriter.appendEscaped(bytes, to: &escaped)
                try output.write(escaped)
            }
            try output.write(Array("\",\"bodyBase64\":null}\(terminator)".utf8))
        } else {
            try output.write(Array("null,\"bodyBase64\":\"".utf8))
            var reader = try request.body.makeReader()
            var carry: [UInt8] = []
            while let chunk = try reader.read() {
                let bytes = carry + chunk
                let whole = bytes.count - bytes.count % 3
                try output.write(Array(Data(bytes[..<whole]).base64EncodedData()))
                carry = Array(bytes[whole...])
            }
            try output.write(Array(Data(carry).base64EncodedData()))
            try output.write(Array("\"}\(terminator)".utf8))
        }
    }

    /// Whether the whole body is valid UTF-8, read chunk by chunk.
    static func isUTF8(_ body: RequestBody) throws -> Bool {
        var reader = try body.makeReader()
        var carry: [UInt8] = []
        while let chunk = try reader.read() {
            var bytes = carry + chunk
            carry = UTF8Boundary.splitIncompleteTail(&bytes)
            if String(validating: bytes, as: UTF8.self) == nil { return false }
        }
        return carry.isEmpty
    }
}

/// Splitting UTF-8 text into chunks without cutting a character.
enum UTF8Boundary {
    /// Removes and returns the bytes of an unfinished sequence at the end of `bytes` (at most 3).
    static func splitIncompleteTail(_ bytes: inout [UInt8]) -> [UInt8] {
        var start = bytes.count
        var scanned = 0
        while start > 0, scanned < 3, (bytes[start - 1] & 0xC0) == 0x80 {
            start -= 1
            scanned += 1
        }
        guard start > 0 else { return [] }
        let lead = bytes[start - 1]
        let needed: Int
        switch lead {
        case 0xC0...0xDF: needed = 2
        case 0xE0...0xEF: needed = 3
        case 0xF0...0xF7: needed = 4
        default: return []
        }
        let have = bytes.count - (start - 1)
        guard have < needed else { return [] }
        let tail = Array(bytes[(start - 1)...])
        bytes.removeSubrange((start - 1)...)
        return tail
    }
}
