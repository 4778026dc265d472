import Foundation

/// A multipart/form-data body built part by part (AFNetworking's `AFStreamingMultipartFormData`).
///
/// Files and streams are not read when they are appended: only their length is taken, and the
/// reader streams them from disk while the body is sent, so a body may be far larger than memory.
public struct MultipartFormData: Sendable {
    /// One part: its headers and where its content comes from.
    public struct Part: Sendable {
        /// The part's header fields, in order (Content-Disposition first).
        public var headers: HTTPHeaders
        /// The content.
        public var content: Content
    }

    /// Where a part's content comes from.
    public enum Content: Sendable {
        case bytes([UInt8])
        /// A file read in chunks; its length was taken when it was appended.
        case file(path: String, length: Int64)
        /// A stream that must yield exactly `length` bytes; `open` is called each time the body is read.
        case stream(length: Int64, open: @Sendable () throws -> InputStream)

        /// The content's length in bytes.
        public var length: Int64 {
            switch self {
            case .bytes(let bytes): Int64(bytes.count)
            case .file(_, let length), .stream(let length, _): length
            }
        }
    }

    /// The boundary between parts: `Boundary+` and sixteen random hex digits.
    public let boundary: String
    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// Creates an empty body with a random boundary.
    public init() {
        var generator = SystemRandomNumberGenerator()
        self.init(boundary: Self.makeBoundary(using: &generator))
    }

    /// Creates an empty body with a given boundary (for reproducible tests and previews).
    public init(boundary: String) {
        self.boundary = boundary
    }

    /// A boundary in AFNetworking's form, `Boundary+%08X%08X`.
    public static func makeBoundary<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        let high = UInt32.random(in: .min ... .max, using: &generator)
        let low = UInt32.random(in: .min ... .max, using: &generator)
        return "Boundary+" + HexText.number(high, width: 8, uppercase: true) + HexText.number(low, width: 8, uppercase: true)
    }

    /// The Content-Type of the whole body, carrying the boundary.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    // MARK: - Appending

    /// Appends a file, its name and MIME type taken from the path unless given.
    ///
    /// - Throws: ``RequestSerializationError`` when the file does not exist or is not a regular file.
    public mutating func appendFile(at path: String, name: String, fileName: String? = nil, mimeType: String? = nil) throws {
        appendFile(at: path, length: try RequestBody.sendableFileLength(atPath: path), name: name, fileName: fileName, mimeType: mimeType)
    }

    /// Appends a file whose length was already taken (``RequestBody/sendableFileLength(atPath:)``),
    /// its name and MIME type taken from the path unless given.
    public mutating func appendFile(at path: String, length: Int64, name: String, fileName: String? = nil, mimeType: String? = nil) {
        let fileName = fileName ?? (path as NSString).lastPathComponent
        let mimeType = mimeType ?? MIMEType.forPathExtension((path as NSString).pathExtension)
        appendPart(headers: Self.fileHeaders(name: name, fileName: fileName, mimeType: mimeType),
                   content: .file(path: path, length: length))
    }

    /// Appends bytes as a file part.
    public mutating func append(fileData: [UInt8], name: String, fileName: String, mimeType: String) {
        appendPart(headers: Self.fileHeaders(name: name, fileName: fileName, mimeType: mimeType), content: .bytes(fileData))
    }

    /// Appends a stream of `length` bytes as a file part.
    public mutating func append(
        stream open: @escaping @Sendable () throws -> InputStream,
        length: Int64,
        name: String,
        fileName: String,
        mimeType: String
    ) {
        appendPart(headers: Self.fileHeaders(name: name, fileName: fileName, mimeType: mimeType),
                   content: .stream(length: length, open: open))
    }

    /// This body with each file part's length taken again now (``RequestBody/withCurrentFileLengths()``).
    ///
    /// - Throws: ``RequestSerializationError`` naming a file that can no longer be sent.
    public func withCurrentFileLengths() throws(RequestSerializationError) -> MultipartFormData {
        var copy = self
        for index in copy.parts.indices {
            if case .file(let path, _) = copy.parts[index].content {
                copy.parts[index].content = .file(path: path, length: try RequestBody.sendableFileLength(atPath: path))
            }
        }
        return copy
    }

    /// Appends a plain form field.
    public mutating func append(data: [UInt8], name: String) {
        appendPart(headers: ["Content-Disposition": "form-data; name=\"\(Self.quoted(name))\""], content: .bytes(data))
    }

    /// Appends a part with custom headers.
    public mutating func appendPart(headers: HTTPHeaders, content: Content) {
        parts.append(Part(headers: headers, content: content))
    }

    private static func fileHeaders(name: String, fileName: String, mimeType: String) -> HTTPHeaders {
        [
            "Content-Disposition": "form-data; name=\"\(quoted(name))\"; filename=\"\(quoted(fileName))\"",
            "Content-Type": mimeType,
        ]
    }

    /// Escapes a name for a quoted Content-Disposition parameter as browsers do (WHATWG):
    /// `"` becomes `%22` and line breaks `%0D`/`%0A`, so a name can never end the header.
    static func quoted(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: - Layout

    /// The bytes before part `index`'s content: its boundary line and headers (exports write
    /// the body piece by piece with them).
    public func head(ofPart index: Int) -> [UInt8] {
        var text = index == 0 ? "--\(boundary)\r\n" : "\r\n--\(boundary)\r\n"
        for field in parts[index].headers {
            text += "\(field.name): \(field.value)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The bytes after the last part.
    public var tail: [UInt8] { Array("\r\n--\(boundary)--\r\n".utf8) }

    /// The exact length of the whole body in bytes; zero when there are no parts.
    public var contentLength: Int64 {
        guard !parts.isEmpty else { return 0 }
        var total = Int64(tail.count)
        for index in parts.indices {
            total += Int64(head(ofPart: index).count) + parts[index].content.length
        }
        return total
    }

    /// A reader that streams the whole body, files chunk by chunk.
    public func makeReader(chunkSize: Int = 64 * 1024) throws -> any BodyReader {
        MultipartBodyReader(form: self, chunkSize: chunkSize)
    }
}

/// Streams a multipart body: each part's head, then its content in chunks, then the final boundary.
final class MultipartBodyReader: BodyReader {
    private let form: MultipartFormData
    private let chunkSize: Int
    private var partIndex = 0
    private var wroteHead = false
    private var content: (any BodyReader)?
    private var stream: InputStream?
    private var streamRemaining: Int64 = 0
    private var finished = false

    init(form: MultipartFormData, chunkSize: Int) {
        self.form = form
        self.chunkSize = chunkSize
    }

    func read() throws -> [UInt8]? {
        while !finished {
            if partIndex == form.parts.count {
                finished = true
                return form.parts.isEmpty ? nil : form.tail
            }
            if !wroteHead {
                wroteHead = true
                try openContent()
                return form.head(ofPart: partIndex)
            }
            if let chunk = try readContent() { return chunk }
            partIndex += 1
            wroteHead = false
        }
        return nil
    }

    private func openContent() throws {
        switch form.parts[partIndex].content {
        case .bytes(let bytes): content = BytesReader(bytes: bytes, chunkSize: chunkSize)
        case .file(let path, _): content = try FileReader(path: path, chunkSize: chunkSize)
        case .stream(let length, let open):
            let stream = try open()
            stream.open()
            self.stream = stream
            streamRemaining = length
        }
    }

    private func readContent() throws -> [UInt8]? {
        if var reader = content {
            let chunk = try reader.read()
            content = chunk == nil ? nil : reader
            return chunk
        }
        guard let stream else { return nil }
        let part = form.parts[partIndex]
        if streamRemaining == 0 {
            stream.close()
            self.stream = nil
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: Int(min(Int64(chunkSize), streamRemaining)))
        let count = stream.read(&buffer, maxLength: buffer.count)
        guard count > 0 else {
            stream.close()
            self.stream = nil
            let name = part.headers["Content-Disposition"] ?? "?"
            throw RequestSerializationError(.streamLengthMismatch(
                name: name, declared: part.content.length, actual: part.content.length - streamRemaining))
        }
        streamRemaining -= Int64(count)
        buffer.removeSubrange(count...)
        return buffer
    }
}
