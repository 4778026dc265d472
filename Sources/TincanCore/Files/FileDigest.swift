import Crypto
import Foundation

/// The SHA-256 of a file, read in chunks so that memory stays flat whatever its size.
///
/// Reports name an uploaded file by its path, size and digest rather than carrying its bytes.
public enum FileDigest {
    /// The file's SHA-256 as 64 lowercase hexadecimal digits.
    ///
    /// - Throws: ``RequestSerializationError`` when the file cannot be read.
    public static func sha256(ofFile path: String) throws -> String {
        var reader = try RequestBody.file(path: path, length: 0).makeReader(chunkSize: 1 << 20)
        var hasher = SHA256()
        while let chunk = try reader.read() { hasher.update(data: chunk) }
        return HexText.bytes(hasher.finalize())
    }
}
