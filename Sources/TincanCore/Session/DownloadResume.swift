/// A download's part in a task: the rest of a partial file asked for with `Range` (and
/// `If-Range`, so a changed resource comes whole), and the check, once the body has arrived,
/// that all of it did before the partial file replaces the destination.
struct DownloadResume: Sendable {
    let file: DownloadFile
    /// The first byte asked for: the partial file's size, or 0 for a download from the start.
    let offset: Int64
    /// The validator saved with the partial file, for `If-Range`.
    let validator: String?

    /// A download to `file`; `resuming` continues its partial file when there is one.
    init(_ file: DownloadFile, resuming: Bool) {
        self.file = file
        offset = resuming ? file.partialSize() : 0
        validator = offset > 0 ? file.savedValidator() : nil
    }

    /// Asks for the bytes after the partial file's.
    func adapt(_ request: inout HTTPRequest) {
        guard offset > 0 else { return }
        request.headers.set(name: "Range", value: "bytes=\(offset)-")
        if let validator { request.headers.set(name: "If-Range", value: validator) }
    }

    /// Moves the partial file into place, unless fewer bytes came than `Content-Length` said
    /// (then the partial file is kept for `--continue`).
    /// - Parameters:
    ///   - written: The bytes written to the file by this hop, or nil when it wrote none (the
    ///     partial file already held them all).
    ///   - decoded: Whether the body was decoded: `Content-Length` then counts other bytes.
    func complete(_ response: HTTPResponse, written: Int64?, decoded: Bool) throws(TransportError) {
        if let written, let expected = response.expectedContentLength, !decoded, written != expected {
            throw TransportError(.connectionClosed("the download stopped after \(written) of \(expected) bytes; \(file.keptNote)"))
        }
        do {
            try file.complete()
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportError(.other("\(error)"))
        }
    }
}
