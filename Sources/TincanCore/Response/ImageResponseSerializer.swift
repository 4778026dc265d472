/// An image's format and pixel size.
public struct ImageInfo: Sendable, Hashable, CustomStringConvertible {
    /// The image formats Tincan reads headers of.
    public enum Format: String, Sendable, Hashable {
        case png = "PNG", jpeg = "JPEG", gif = "GIF", webp = "WebP", bmp = "BMP"
    }

    public var format: Format
    public var width: Int
    public var height: Int

    /// Creates image metadata.
    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    public var description: String { "\(format.rawValue) image, \(width)×\(height) pixels" }

    /// Reads the format and size from the first bytes of an image, without decoding pixels.
    ///
    /// - Returns: nil when the bytes are not a complete header of a known format.
    public static func read(_ data: [UInt8]) -> ImageInfo? {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // The first chunk must be IHDR: width and height as big-endian 32-bit integers.
            guard data.count >= 24, Array(data[12..<16]) == Array("IHDR".utf8) else { return nil }
            return ImageInfo(format: .png, width: bigEndian(data, 16, 4), height: bigEndian(data, 20, 4))
        }
        if data.starts(with: Array("GIF87a".utf8)) || data.starts(with: Array("GIF89a".utf8)) {
            guard data.count >= 10 else { return nil }
            return ImageInfo(format: .gif, width: littleEndian(data, 6, 2), height: littleEndian(data, 8, 2))
        }
        if data.starts(with: [0xFF, 0xD8]) { return readJPEG(data) }
        if data.count >= 12, data.starts(with: Array("RIFF".utf8)), Array(data[8..<12]) == Array("WEBP".utf8) { return readWebP(data) }
        if data.starts(with: Array("BM".utf8)), data.count >= 26 {
            let height = Int32(truncatingIfNeeded: littleEndian(data, 22, 4))
            return ImageInfo(format: .bmp, width: littleEndian(data, 18, 4), height: Int(height.magnitude))
        }
        return nil
    }

    /// Walks JPEG segments to the first start-of-frame marker, which holds the size.
    private static func readJPEG(_ data: [UInt8]) -> ImageInfo? {
        var index = 2
        while index + 4 <= data.count {
            guard data[index] == 0xFF else { return nil }
            let marker = data[index + 1]
            if marker == 0xFF { index += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }
            let length = bigEndian(data, index + 2, 2)
            // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 9 <= data.count else { return nil }
                return ImageInfo(format: .jpeg, width: bigEndian(data, index + 7, 2), height: bigEndian(data, index + 5, 2))
            }
            index += 2 + length
        }
        return nil
    }

    private static func readWebP(_ data: [UInt8]) -> ImageInfo? {
        guard data.count >= 30 else { return nil }
        switch String(decoding: data[12..<16], as: UTF8.self) {
        case "VP8 ":
            return ImageInfo(format: .webp, width: littleEndian(data, 26, 2) & 0x3FFF, height: littleEndian(data, 28, 2) & 0x3FFF)
        case "VP8L":
            let bits = littleEndian(data, 21, 4)
            return ImageInfo(format: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            return ImageInfo(format: .webp, width: littleEndian(data, 24, 3) + 1, height: littleEndian(data, 27, 3) + 1)
        default:
            return nil
        }
    }

    private static func bigEndian(_ data: [UInt8], _ offset: Int, _ count: Int) -> Int {
        data[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ data: [UInt8], _ offset: Int, _ count: Int) -> Int {
        data[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}

/// Reads image metadata (format and pixel size) from image responses.
public struct ImageResponseSerializer: ResponseSerializer {
    public var acceptableStatusCodes: StatusCodeSet? = .successful
    public var acceptableContentTypes: Set<String>? = [
        "image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/x-bmp",
        "image/tiff", "image/ico", "image/x-icon", "image/x-xbitmap", "image/x-win-bitmap",
    ]
    public var kind: ResponseSerializerKind { .image }

    /// Creates the serializer.
    public init() {}

    public func serialize(_ response: HTTPResponse, data: [UInt8], request: HTTPRequest?) -> ResponseSerialization {
        validatingThenDecoding(response, data: data, request: request) { () throws(ResponseSerializationError) -> DecodedBody in
            if data.isEmpty { return .none }
            guard let info = ImageInfo.read(data) else {
                throw ResponseSerializationError(
                    .decodingFailed(format: "image", detail: "the bytes are not a PNG, JPEG, GIF, WebP or BMP header"),
                    response: response, data: data)
            }
            return .image(info)
        }
    }
}
