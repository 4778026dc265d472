import Foundation
import TincanCore

extension CurlCommand {
    /// An exported command, and what of the request curl cannot be told.
    public struct Exported: Sendable {
        public var command: String
        /// One sentence per setting that curl does not carry out as Tincan does.
        public var warnings: [String]
    }

    /// Bodies over this size make curl send `Expect: 100-continue` (and `-T` always does).
    static let expectThreshold: Int64 = 1 << 20

    /// A built request as a curl command that sends what Tincan sends.
    ///
    /// Headers Tincan does not send but curl would (User-Agent, Accept, a form Content-Type,
    /// Expect) are removed with `-H 'Name:'`; redirects are followed as Tincan follows them, and
    /// the request's timeout becomes curl's idle limits.
    /// - Parameters:
    ///   - request: The built request.
    ///   - resolved: What the session adds around it: Digest credentials, an upload and its rate,
    ///     a download and the security settings.
    ///   - multiline: One option per line, joined with a backslash and a newline.
    public static func export(_ request: HTTPRequest, resolved: ResolvedRequest? = nil, multiline: Bool = true) -> Exported {
        var warnings: [String] = []
        var body: [String] = []
        // What curl adds to what it sends for these options, besides its own defaults.
        var sendsData = false
        var uploads = false
        let url = request.url.string
        if let upload = resolved?.options.uploadFile {
            if CurlData.uploadURL(url, file: upload) == url {
                body = ["-T " + ShellWords.quote(upload)]
                uploads = true
            } else {
                // -T would add the file's name to a URL that ends in a slash.
                body = ["--data-binary " + ShellWords.quote("@" + upload)]
                sendsData = true
            }
        } else {
            switch request.body {
            case .none:
                if HTTPRequest.framesEmptyBody(request.method) {
                    body = ["--data-binary ''"]
                    sendsData = true
                }
            case .bytes(let bytes) where bytes.isEmpty:
                if HTTPRequest.framesEmptyBody(request.method) {
                    body = ["--data-binary ''"]
                    sendsData = true
                }
            case .bytes(let bytes):
                sendsData = true
                if let text = String(validating: bytes, as: UTF8.self), !text.contains("\0") {
                    body = ["--data-raw " + ShellWords.quote(text)]
                } else {
                    body = ["--data-binary " + ShellWords.ansiQuote(bytes)]
                }
            case .file(let path, _):
                sendsData = true
                body = ["--data-binary " + ShellWords.quote("@" + path)]
            case .multipart(let form):
                body = formOptions(form, warnings: &warnings)
            }
        }

        let implied = uploads ? "PUT" : sendsData || request.body.isMultipart ? "POST" : "GET"
        var first = ["curl"]
        if request.method == "HEAD", implied == "GET" {
            first.append("--head")
        } else if request.method != implied {
            first += ["-X", ShellWords.quote(request.method)]
            warnings.append("-X \(request.method): after a 303 redirect curl sends \(request.method) again, where Tincan switches to GET")
        }
        var lines = [(first + [ShellWords.quote(url)]).joined(separator: " ")]
        for field in request.headers where !HTTPHeaders.same(field.name, "Content-Length") {
            if request.body.isMultipart, HTTPHeaders.same(field.name, "Content-Type") { continue }
            // 'Name:' would remove the header; 'Name;' sends it empty.
            if field.value.isEmpty { warnings.append(emptyHeaderWarning(field.name)) }
            lines.append("-H " + ShellWords.quote(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"))
        }
        var removed = curlDefaultHeaders.filter { !request.headers.contains(name: $0) }
        if sendsData, !request.headers.contains(name: "Content-Type") { removed.append("Content-Type") }
        if uploads || (request.body.length ?? 0) > expectThreshold { removed.append("Expect") }
        lines += removed.map { "-H " + ShellWords.quote("\($0):") }
        if let digest = resolved?.options.credential { lines.append("--digest -u " + ShellWords.quote("\(digest.user):\(digest.password)")) }
        lines += body
        lines += transferOptions(request, resolved: resolved, warnings: &warnings)
        if let download = resolved?.options.download?.path { lines.append("-o " + ShellWords.quote(download)) }
        return Exported(command: lines.joined(separator: multiline ? " \\\n  " : " "), warnings: warnings)
    }

    /// A form's parts as `-F` (files) and `--form-string` (text, taken literally).
    private static func formOptions(_ form: MultipartFormData, warnings: inout [String]) -> [String] {
        var options: [String] = []
        for part in form.parts {
            let disposition = part.headers["Content-Disposition"] ?? ""
            let name = HTTPHeaders.parameter("name", in: disposition) ?? "file"
            switch part.content {
            case .file(let path, _):
                var text = "\(name)=@\(path)"
                if let type = part.headers["Content-Type"] { text += ";type=\(type)" }
                options.append("-F " + ShellWords.quote(text))
            case .bytes(let bytes) where HTTPHeaders.parameter("filename", in: disposition) == nil:
                options.append("--form-string " + ShellWords.quote("\(name)=\(String(decoding: bytes, as: UTF8.self))"))
            case .bytes, .stream:
                warnings.append("the form part '\(name)' is data in memory sent as a file, which curl cannot be given on its command line; it is left out")
            }
        }
        return options
    }

    /// Redirects, the timeout, decoding, trust and the upload rate, as curl's options.
    private static func transferOptions(_ request: HTTPRequest, resolved: ResolvedRequest?, warnings: inout [String]) -> [String] {
        let redirects = resolved?.options.redirects ?? .standard
        var options = redirects.limit > 0 ? ["-L --max-redirs \(redirects.limit)"] : []
        switch resolved?.options.httpVersion {
        case .http1_1?: options.append("--http1.1")
        case .http2?: options.append("--http2")
        case .automatic?, nil: break
        }
        if request.appliedProperties.contains(.timeoutInterval) {
            // Tincan's timeout is an idle timeout: connecting, and then no byte for that long.
            let seconds = request.properties.timeoutInterval
            let whole = Int(seconds.rounded(.up))
            options.append("--connect-timeout \(ParameterValue.format(seconds)) --speed-limit 1 --speed-time \(whole)")
            if Double(whole) != seconds {
                warnings.append("timeout \(ParameterValue.format(seconds)): curl's --speed-time counts whole seconds, so it is \(whole)")
            }
        }
        if let deadline = resolved?.options.deadline { options.append("--max-time \(ParameterValue.format(deadline))") }
        // Tincan decodes the gzip and deflate it asks for; --compressed makes curl decode them too.
        if request.headers.contains(name: "Accept-Encoding") { options.append("--compressed") }
        if let rate = resolved?.options.uploadBytesPerSecond {
            options.append("--limit-rate \(rate)")
            warnings.append("--limit-rate \(rate): curl slows the response to that rate too; Tincan only the upload")
        }
        if let policy = resolved?.options.retryPolicy { options += retryOptions(policy, method: request.method, warnings: &warnings) }
        if let security = resolved?.security {
            if security.insecure { options.append("-k") }
            if let caFile = security.caFile { options.append("--cacert " + ShellWords.quote(caFile)) }
            if !security.pins.isEmpty {
                warnings.append("pins (\(security.pins.joined(separator: ", "))): curl pins public keys only (--pinnedpubkey), so the pinned certificates are not carried over and curl trusts its CA store")
            }
        }
        if let connection = resolved?.options {
            switch connection.proxy.choice {
            case .environment: break
            case .direct: options.append("--proxy ''")
            case .server(let proxy): options.append("-x " + ShellWords.quote(proxy.curlURL))
            }
            if let noProxy = connection.proxy.noProxy { options.append("--noproxy " + ShellWords.quote(noProxy.text)) }
            if let identity = connection.clientIdentity {
                options.append("--cert " + ShellWords.quote(identity.certificatePath))
                if identity.keyPath != identity.certificatePath { options.append("--key " + ShellWords.quote(identity.keyPath)) }
                if ClientIdentity.keyIsEncrypted(atPath: identity.keyPath) {
                    warnings.append("--key \(identity.keyPath): the key is encrypted; curl asks for its passphrase (or takes --pass), it does not read TINCAN_KEY_PASSPHRASE")
                }
            }
        }
        return options
    }
}

extension CurlCommand {
    /// What differs between curl's `--retry-delay` and a policy's `delay`, both ways.
    static func retryDelayWarning(_ delay: Double) -> String {
        "--retry-delay \(ParameterValue.format(delay)): curl waits that long before every retry; Tincan starts there and doubles the wait each time (with jitter)"
    }

    /// A retry policy as curl's `--retry` and `--retry-delay`, and what curl does otherwise.
    static func retryOptions(_ policy: RetryPolicy, method: String, warnings: inout [String]) -> [String] {
        guard policy.limit > 0 else { return [] }
        var options = ["--retry \(policy.limit)"]
        if policy.delay != RetryPolicy.defaultDelay {
            options.append("--retry-delay \(ParameterValue.format(policy.delay))")
            warnings.append(retryDelayWarning(policy.delay))
        }
        if !policy.methods.contains(method.uppercased()) {
            warnings.append("--retry \(policy.limit): curl retries a \(method.uppercased()) too, which the retry policy does not")
        }
        if policy.statuses != RetryPolicy.defaultStatuses {
            warnings.append("retry-policy statuses: curl retries only 408, 429, 500, 502, 503 and 504")
        }
        return options
    }
}

extension RequestBody {
    /// Whether the body is a multipart form.
    var isMultipart: Bool {
        if case .multipart = self { return true }
        return false
    }
}
