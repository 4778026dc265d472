import Foundation
import TincanCore

/// A built request as a program in another language, sending the bytes Tincan sends: the
/// request line, every header Tincan writes (its defaults included, and none of the library's
/// own), and the body, a file read when the program runs. The program prints the response
/// body and exits once it has come.
///
/// As the curl export, it holds the request as sent, credentials included: it is code to run.
/// What a library cannot be made to do as Tincan does is said in the warnings.
public enum CodeExport {
    /// The languages and libraries written (`tincan export --format`, the TUI's copy menu).
    public enum Language: String, Sendable, CaseIterable {
        /// Python's `requests`.
        case python
        /// JavaScript's `fetch` (Node 18 and later, browsers).
        case javascript
        /// Go's `net/http`.
        case go
        /// An HTTPie command line.
        case httpie
        /// Swift's `URLSession`.
        case swift
        /// Alamofire.
        case alamofire

        /// What the copy menu and help call it.
        public var title: String {
            switch self {
            case .python: "Python (requests)"
            case .javascript: "JavaScript (fetch)"
            case .go: "Go (net/http)"
            case .httpie: "HTTPie"
            case .swift: "Swift (URLSession)"
            case .alamofire: "Swift (Alamofire)"
            }
        }
    }

    /// A program, and what of the request it does not carry out as Tincan does.
    public struct Exported: Sendable, Equatable {
        public var code: String
        /// One sentence per setting the language's library does otherwise.
        public var warnings: [String]
    }

    /// `request` as a program in `language`.
    ///
    /// - Parameters:
    ///   - request: The built request.
    ///   - resolved: What the session adds around it: Digest credentials, redirects, the
    ///     deadline, trust and proxy settings.
    ///   - language: The language written.
    public static func export(_ request: HTTPRequest, resolved: ResolvedRequest? = nil, as language: Language) -> Exported {
        var plan = Plan(request, resolved: resolved)
        let code = switch language {
        case .python: python(plan, warnings: &plan.warnings)
        case .javascript: javaScript(plan, warnings: &plan.warnings)
        case .go: go(plan, warnings: &plan.warnings)
        case .httpie: httpie(plan, warnings: &plan.warnings)
        case .swift: swift(plan, warnings: &plan.warnings)
        case .alamofire: alamofire(plan, warnings: &plan.warnings)
        }
        return Exported(code: code, warnings: plan.warnings)
    }

    // MARK: - What every language writes

    /// One piece of the body: bytes written into the program, or a file it reads when it runs.
    enum BodyPiece: Equatable {
        case bytes([UInt8])
        case file(String)
    }

    /// The request as the generators write it: what goes on the wire, and the settings around it.
    struct Plan {
        var method: String
        var url: String
        /// The header fields Tincan writes, in order, without Host and Content-Length, which
        /// every library writes itself from the URL and the body.
        var headers: [(name: String, value: String)]
        /// The body, in order; empty for none.
        var body: [BodyPiece]
        /// Whether Tincan sends `Content-Length: 0` with no body (any method but GET, HEAD,
        /// DELETE, CONNECT and TRACE).
        var framesEmptyBody: Bool
        /// Redirects followed: 0 for none.
        var redirectLimit: Int
        /// The idle timeout in seconds, when the request sets one.
        var timeout: Double?
        /// The deadline of the whole exchange in seconds.
        var deadline: Double?
        /// Credentials answered to a Digest challenge.
        var digest: Credential?
        /// TLS verification turned off.
        var insecure: Bool
        /// A CA file trusted instead of the system's.
        var caFile: String?
        /// A file the response body is written to instead of standard output.
        var download: String?
        var warnings: [String] = []

        init(_ request: HTTPRequest, resolved: ResolvedRequest?) {
            method = request.method
            url = request.url.string
            let wire = request.wireHead.headers
            headers = wire.filter { !HTTPHeaders.same($0.name, "Host") && !HTTPHeaders.same($0.name, "Content-Length") }.map { ($0.name, $0.value) }
            framesEmptyBody = HTTPRequest.framesEmptyBody(request.method)
            switch request.body {
            case .none: body = []
            case .bytes(let bytes): body = bytes.isEmpty ? [] : [.bytes(bytes)]
            case .file(let path, _): body = [.file(path)]
            case .multipart(let form):
                body = []
                for (index, part) in form.parts.enumerated() {
                    body.append(.bytes(form.head(ofPart: index)))
                    switch part.content {
                    case .bytes(let bytes): body.append(.bytes(bytes))
                    case .file(let path, _): body.append(.file(path))
                    case .stream(let length, _):
                        body.append(.bytes([]))
                        warnings.append("a form part is a stream of \(length) bytes made in memory, which a program cannot be given; it is sent empty")
                    }
                }
                if !form.parts.isEmpty { body.append(.bytes(form.tail)) }
                body = Self.merged(body)
            }
            let options = resolved?.options
            redirectLimit = (options?.redirects ?? .standard).limit
            timeout = request.appliedProperties.contains(.timeoutInterval) ? request.properties.timeoutInterval : nil
            deadline = options?.deadline
            digest = options?.credential
            insecure = resolved?.security.insecure ?? false
            caFile = resolved?.security.caFile
            download = options?.download?.path
            if let security = resolved?.security, !security.pins.isEmpty {
                warnings.append("pins (\(security.pins.joined(separator: ", "))) are not carried over; the program trusts its CA store")
            }
            if let options {
                if case .server(let proxy) = options.proxy.choice {
                    warnings.append("the proxy \(proxy.curlURL) is not carried over; set it in the program's environment (HTTPS_PROXY) where its library reads it")
                }
                if options.clientIdentity != nil { warnings.append("the client certificate is not carried over") }
                if options.retryPolicy != nil { warnings.append("the retry policy is not carried over; the program sends once") }
                if options.uploadBytesPerSecond != nil { warnings.append("the upload rate is not carried over; the program sends at full speed") }
            }
        }

        /// Adjacent byte pieces joined, empty ones dropped.
        static func merged(_ pieces: [BodyPiece]) -> [BodyPiece] {
            var result: [BodyPiece] = []
            for piece in pieces {
                if case .bytes(let bytes) = piece {
                    if bytes.isEmpty { continue }
                    if case .bytes(let previous)? = result.last {
                        result[result.count - 1] = .bytes(previous + bytes)
                        continue
                    }
                }
                result.append(piece)
            }
            return result
        }

        /// Whether Tincan sends a header of this name.
        func sends(_ name: String) -> Bool {
            headers.contains { HTTPHeaders.same($0.name, name) }
        }

        /// Whether the body is one piece of bytes that is UTF-8 text.
        var textBody: String? {
            guard body.count == 1, case .bytes(let bytes) = body[0] else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
    }
}
