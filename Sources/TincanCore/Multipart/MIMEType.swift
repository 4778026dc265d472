/// MIME types for file extensions, for multipart file parts.
///
/// AFNetworking asks the system's type registry (UTType); Linux has none that every machine
/// shares, so Tincan carries the common types itself and falls back to
/// `application/octet-stream`, as AFNetworking does for an unknown extension.
public enum MIMEType {
    /// The type for a path extension (without the dot), case-insensitively.
    public static func forPathExtension(_ pathExtension: String) -> String {
        table[pathExtension.lowercased()] ?? "application/octet-stream"
    }

    /// The type of a Content-Type value, lower case and without its parameters
    /// (`application/json` from `application/json; charset=utf-8`), or nil when it is empty.
    public static func essence(of contentType: String) -> String? {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingWhitespace() } ?? ""
        return type.isEmpty ? nil : type.lowercased()
    }

    static let table: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "log": "text/plain", "md": "text/markdown",
        "html": "text/html", "htm": "text/html", "css": "text/css", "csv": "text/csv",
        "tsv": "text/tab-separated-values", "xml": "application/xml", "js": "text/javascript",
        "mjs": "text/javascript", "json": "application/json", "yaml": "application/yaml",
        "yml": "application/yaml", "toml": "application/toml", "plist": "application/x-plist",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip",
        "tgz": "application/gzip", "tar": "application/x-tar", "bz2": "application/x-bzip2",
        "xz": "application/x-xz", "7z": "application/x-7z-compressed", "wasm": "application/wasm",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon",
        "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff", "heic": "image/heic",
        "avif": "image/avif", "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg",
        "flac": "audio/flac", "m4a": "audio/mp4", "mp4": "video/mp4", "m4v": "video/mp4",
        "mov": "video/quicktime", "webm": "video/webm", "avi": "video/x-msvideo",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "rtf": "application/rtf", "sh": "application/x-sh", "swift": "text/x-swift",
        "py": "text/x-python", "c": "text/x-c", "h": "text/x-c", "bin": "application/octet-stream",
    ]
}
