import Foundation
import TincanCore

/// HTTP Archive (HAR 1.2) files, as browsers' developer tools save them: a `log` of `entries`,
/// each a request with its response and timings.
///
/// An import makes each entry a request of a session, with its response as the request's
/// `recorded:` block (for `tincan replay --compare-recorded`). An export writes a session's
/// requests, or a replay's exchanges with their responses and timings, as a HAR log.
public enum HAR {
    /// What an import produced, and what it could not carry over, item by item: the same as
    /// a `.http` file's.
    public typealias Imported = HTTPFile.Imported

    /// An exported log, and what of the requests a HAR file cannot say.
    public typealias Exported = HTTPFile.Exported

    /// The HAR version written, and the newest one read.
    public static let version = "1.2"

    /// The largest HAR file read, as the largest response body kept in memory: a HAR holds its
    /// responses' bodies, and the import holds the whole file.
    public static let maximumFileBytes = Int(TaskOptions.defaultMaximumBodyBytes)

    /// Request headers a browser computes or that belong to one connection: Tincan writes its
    /// own (and asks only for the encodings it decodes), so these are not imported.
    static let computedRequestHeaders: Set<String> = [
        "content-length", "host", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
        "accept-encoding",
    ]

    /// Parses a HAR file's bytes into a session; `path` names the file in errors and warnings.
    ///
    /// - Throws: ``InterchangeError`` naming the file, line and column, and what was expected.
    public static func parse(_ bytes: [UInt8], path: String) throws(InterchangeError) -> Imported {
        // Fiddler and some Chrome builds write a byte-order mark first.
        let bytes = BoundedFile.startsWithByteOrderMark(bytes) ? Array(bytes.dropFirst(BoundedFile.byteOrderMark.count)) : bytes
        guard bytes.count <= maximumFileBytes else {
            throw InterchangeError(.harTooLarge(limit: maximumFileBytes), at: path)
        }
        let root: ParameterValue
        do {
            root = try JSONParser.parse(bytes: bytes)
        } catch {
            throw InterchangeError(.harNotJSON(error.reason), at: "\(path):\(error.line):\(error.column)")
        }
        var reader = HARReader(path: path)
        do {
            try reader.read(HARNode(root))
        } catch {
            throw InterchangeError(.expectedHAR(at: error.path.text, error.expected), at: place(of: error.path, in: bytes, path: path))
        }
        var session = reader.session
        let warnings = reader.warnings + ImportChecks.finish(&session, folder: Session.directory(of: path), origin: .file)
        return Imported(session: session, warnings: warnings)
    }

    /// `file:line:column` of the value at `path`, found again only once the file is refused.
    /// Just the file when it cannot be.
    static func place(of path: HARPath, in bytes: [UInt8], path file: String) -> String {
        guard let location = HARPath.location(of: path, in: bytes) else { return file }
        return "\(file):\(location.line):\(location.column)"
    }

    /// `text` with every `{{` written as the template's literal, so that imported text is sent
    /// as it was, never read as a variable.
    static func literal(_ text: String) -> String {
        text.contains("{{") ? text.replacingOccurrences(of: "{{", with: "{{'{{'}}") : text
    }

    /// A JSON value with `transform` applied to each string in it (not to keys).
    static func mapStrings(_ value: ParameterValue, _ transform: (String) -> String) -> ParameterValue {
        switch value {
        case .string(let text): .string(transform(text))
        case .array(let items): .array(items.map { mapStrings($0, transform) })
        case .dictionary(let members): .dictionary(members.mapValues { mapStrings($0, transform) })
        default: value
        }
    }

    /// Whether a MIME type is JSON (`application/json`, `application/problem+json`).
    static func isJSON(_ mimeType: String) -> Bool {
        let essence = MIMEType.essence(of: mimeType) ?? ""
        return essence == "application/json" || essence.hasSuffix("+json")
    }

    /// `a=1&b=x%20y` as decoded fields (`+` is a space in a form body, not in a URL's query),
    /// or nil when a field is not percent-encoded text.
    static func formPairs(_ text: String, plusIsSpace: Bool) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for field in text.split(separator: "&") {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in (plusIsSpace ? part.replacingOccurrences(of: "+", with: " ") : String(part)).removingPercentEncoding }
            guard let name = decode(parts[0]), let value = parts.count == 2 ? decode(parts[1]) : "" else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }
}
