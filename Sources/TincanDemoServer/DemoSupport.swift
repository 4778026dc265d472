import CZlib
import Foundation
import Hummingbird
import OrderedCollections
import TincanCore

/// Marks requests that came over TLS as https, so the echoed `url` says so as httpbin's does
/// (Hummingbird's HTTP/1 channel gives every request no scheme, TLS or not).
struct SecureSchemeMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var head = request.head
        head.scheme = "https"
        return try await next(Request(head: head, body: request.body), context)
    }
}

/// Logs one line per request: method, path, status and time, for `tincan serve`.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let log: @Sendable (String) -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(line(request, status: response.status.code, since: start))
            return response
        } catch let error as any HTTPResponseError {
            log(line(request, status: error.status.code, since: start))
            throw error
        } catch {
            log(line(request, status: 500, since: start))
            throw error
        }
    }

    private func line(_ request: Request, status: Int, since start: ContinuousClock.Instant) -> String {
        let milliseconds = (ContinuousClock.now - start).inMilliseconds
        return "\(request.method.rawValue) \(request.uri.string) \(status) \(DecimalText.fixed(milliseconds, decimals: 1)) ms"
    }
}

/// What httpbin reports about a request body: `data`, `form`, `files` and `json`.
struct RequestBodyEcho {
    var data = ""
    var form = OrderedDictionary<String, ParameterValue>()
    var files = OrderedDictionary<String, ParameterValue>()
    var json = ParameterValue.null

    init(body: [UInt8], contentType: String?) {
        let type = contentType?.split(separator: ";").first?.trimmingWhitespace().lowercased() ?? ""
        switch type {
        case "application/x-www-form-urlencoded":
            for pair in String(decoding: body, as: UTF8.self).split(separator: "&") where !pair.isEmpty {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                Self.add(Self.formDecode(parts[0]), .string(parts.count > 1 ? Self.formDecode(parts[1]) : ""), to: &form)
            }
        case "multipart/form-data":
            guard let boundary = contentType.flatMap(Self.boundary) else { fallthrough }
            for part in MultipartParts(body: body, boundary: boundary) {
                if let fileName = part.fileName {
                    _ = fileName
                    Self.add(part.name, .string(Self.textOrDataURL(part.content, type: part.contentType)), to: &files)
                } else {
                    Self.add(part.name, .string(String(decoding: part.content, as: UTF8.self)), to: &form)
                }
            }
        default:
            data = Self.textOrDataURL(body, type: type.isEmpty ? nil : type)
            if type.hasSuffix("json") || type.isEmpty { json = (try? JSONParser.parse(bytes: body)) ?? .null }
        }
    }

    /// Adds a field as httpbin does: a name given twice collects its values into an array.
    static func add(_ name: String, _ value: ParameterValue, to object: inout OrderedDictionary<String, ParameterValue>) {
        switch object[name] {
        case .none: object[name] = value
        case .array(let values)?: object[name] = .array(values + [value])
        case let existing?: object[name] = .array([existing, value])
        }
    }

    static func formDecode(_ text: Substring) -> String {
        OAuth2Form.unescape(text)
    }

    static func boundary(_ contentType: String) -> String? {
        TincanCore.HTTPHeaders.parameter("boundary", in: contentType)
    }

    /// Text as it is; anything else as a `data:` URL, as httpbin shows binary uploads.
    static func textOrDataURL(_ bytes: [UInt8], type: String?) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return "data:\(type ?? "application/octet-stream");base64," + Data(bytes).base64EncodedString()
    }
}

/// The parts of a multipart/form-data body.
struct MultipartParts: Sequence {
    struct Part {
        var name: String
        var fileName: String?
        var contentType: String?
        var content: [UInt8]
    }

    let parts: [Part]

    init(body: [UInt8], boundary: String) {
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [Part] = []
        var positions: [Int] = []
        var index = 0
        while let found = Self.find(delimiter, in: body, from: index) {
            positions.append(found)
            index = found + delimiter.count
        }
        for (start, end) in zip(positions, positions.dropFirst()) {
            var section = Array(body[(start + delimiter.count)..<end])
            if section.starts(with: [0x0D, 0x0A]) { section.removeFirst(2) }
            if section.suffix(2) == [0x0D, 0x0A] { section.removeLast(2) }
            guard let split = Self.find([0x0D, 0x0A, 0x0D, 0x0A], in: section, from: 0) else { continue }
            let head = String(decoding: section[..<split], as: UTF8.self)
            var part = Part(name: "", content: Array(section[(split + 4)...]))
            for line in head.components(separatedBy: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    part.name = TincanCore.HTTPHeaders.parameter("name", in: line) ?? ""
                    part.fileName = TincanCore.HTTPHeaders.parameter("filename", in: line)
                } else if lower.hasPrefix("content-type:") {
                    part.contentType = line.dropFirst("content-type:".count).trimmingWhitespace()
                }
            }
            parts.append(part)
        }
        self.parts = parts
    }

    func makeIterator() -> IndexingIterator<[Part]> { parts.makeIterator() }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], Array(haystack[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }
}

/// A satisfiable byte range from a `Range: bytes=…` header (single ranges only).
struct ByteRange {
    var lower: Int
    var upper: Int

    init?(header: String, length: Int) {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        if spec[0].isEmpty {
            guard let suffix = Int(spec[1]), suffix > 0 else { return nil }
            lower = max(0, length - suffix)
            upper = length - 1
        } else {
            guard let first = Int(spec[0]), first < length else { return nil }
            lower = first
            upper = spec[1].isEmpty ? length - 1 : min(Int(spec[1]) ?? -1, length - 1)
            guard upper >= lower else { return nil }
        }
    }
}

/// Deterministic bytes for `/bytes` (SplitMix64), so a download can be checked and resumed; and a
/// seeded generator for random tests, so that a failure can be run again.
public struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var offset = 0
        while offset < buffer.count {
            var word = next()
            let count = min(8, buffer.count - offset)
            withUnsafeBytes(of: &word) { source in
                buffer.baseAddress!.advanced(by: offset).copyMemory(from: source.baseAddress!, byteCount: count)
            }
            offset += count
        }
    }
}

/// zlib compression for /gzip and /deflate.
enum Compression {
    /// The gzip (RFC 1952) or zlib (RFC 1950, what HTTP calls "deflate") form of `bytes`.
    static func compress(_ bytes: [UInt8], gzip: Bool) -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init(&stream, Z_BEST_COMPRESSION, gzip ? 31 : 15) == Z_OK else { return [] }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        var input = bytes
        let written = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target -> Int in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { return 0 }
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(written))
    }
}
