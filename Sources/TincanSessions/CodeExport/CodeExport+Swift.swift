import TincanCore

extension CodeExport {
    /// Swift with `URLSession`: a script (`swift main.swift`, or compiled with `swiftc`) that
    /// builds a `URLRequest` with Tincan's headers and body, sends it with a session of its own,
    /// prints the body and exits when the response has come.
    static func swift(_ plan: Plan, warnings: inout [String]) -> String {
        var lines = swiftPrelude(plan, imports: [])
        lines += swiftRequest(plan, warnings: &warnings)
        var delegateMethods: [String] = []
        if plan.redirectLimit == 0 {
            delegateMethods += [
                "    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,",
                "                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {",
                "        completionHandler(nil)  // Tincan follows no redirect here",
                "    }",
            ]
        } else if plan.redirectLimit != RedirectPolicy.standard.limit {
            warnings.append("max-redirects \(plan.redirectLimit): URLSession follows its own number of redirects")
        }
        if let digest = plan.digest {
            delegateMethods += [
                "    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,",
                "                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {",
                "        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodHTTPDigest, challenge.previousFailureCount == 0 else {",
                "            return completionHandler(.performDefaultHandling, nil)",
                "        }",
                "        completionHandler(.useCredential, URLCredential(user: \(CodeLiteral.swift(digest.user)), password: \(CodeLiteral.swift(digest.password)), persistence: .forSession))",
                "    }",
            ]
        }
        let delegate: String
        if delegateMethods.isEmpty {
            delegate = "nil"
        } else {
            lines += ["", "final class Delegate: NSObject, URLSessionTaskDelegate {"] + delegateMethods + ["}"]
            delegate = "Delegate()"
        }
        if plan.insecure || plan.caFile != nil {
            warnings.append("TLS trust (\(plan.insecure ? "insecure" : "ca-file")) is not carried over; URLSession trusts the system's store")
        }
        lines += [
            "",
            "let session = URLSession(configuration: .ephemeral, delegate: \(delegate), delegateQueue: nil)",
            "let done = DispatchSemaphore(value: 0)",
            "session.dataTask(with: request) { data, _, error in",
        ]
        lines += swiftCompletion(plan, failure: "let error", indent: "    ")
        lines += ["}.resume()", "done.wait()"]
        swiftWarnings(plan, library: "URLSession", warnings: &warnings)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Swift with Alamofire: the same `URLRequest`, sent by a `Session` over an ephemeral
    /// configuration, so Alamofire adds none of its default headers.
    static func alamofire(_ plan: Plan, warnings: inout [String]) -> String {
        var lines = swiftPrelude(plan, imports: ["Alamofire"])
        lines += swiftRequest(plan, warnings: &warnings)
        lines.append("")
        var sessionArguments = ["configuration: .ephemeral"]
        if plan.insecure, let host = URLReference(parsing: plan.url).host {
            sessionArguments.append("serverTrustManager: ServerTrustManager(allHostsMustBeEvaluated: false, evaluators: [\(CodeLiteral.swift(host)): DisabledTrustEvaluator()])")
        } else if plan.caFile != nil {
            warnings.append("ca-file is not carried over; Alamofire trusts the system's store unless given a ServerTrustManager")
        }
        lines.append("let session = Session(\(sessionArguments.joined(separator: ", ")))")
        var chain = "session.request(request)"
        if let digest = plan.digest { chain += "\n    .authenticate(username: \(CodeLiteral.swift(digest.user)), password: \(CodeLiteral.swift(digest.password)))" }
        if plan.redirectLimit == 0 {
            chain += "\n    .redirect(using: Redirector.doNotFollow)"
        } else if plan.redirectLimit != RedirectPolicy.standard.limit {
            warnings.append("max-redirects \(plan.redirectLimit): Alamofire follows as URLSession does, its own number of redirects")
        }
        lines += [
            "let done = DispatchSemaphore(value: 0)",
            // .response: the body as it came, with no serializer to refuse an empty one.
            chain + "\n    .response(queue: .global()) { response in",
            "        let data = response.data",
        ]
        lines += swiftCompletion(plan, failure: "let error = response.error, response.response == nil", indent: "        ")
        lines += ["    }", "done.wait()"]
        swiftWarnings(plan, library: "Alamofire (through URLSession)", warnings: &warnings)
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Shared

    private static func swiftPrelude(_ plan: Plan, imports: [String]) -> [String] {
        var lines = (imports + ["Foundation"]).map { "import \($0)" }
        lines += ["#if canImport(FoundationNetworking)", "import FoundationNetworking", "#endif", ""]
        if plan.body.contains(where: { if case .file = $0 { true } else { false } }) {
            lines += [
                "func read(_ path: String) -> Data {",
                "    guard let data = FileManager.default.contents(atPath: path) else {",
                "        FileHandle.standardError.write(Data(\"cannot read \\(path)\\n\".utf8))",
                "        exit(1)",
                "    }",
                "    return data",
                "}",
                "",
            ]
        }
        return lines
    }

    /// `var request = URLRequest(…)` with the method, headers, body and timeout.
    private static func swiftRequest(_ plan: Plan, warnings: inout [String]) -> [String] {
        var lines = [
            "guard let url = URL(string: \(CodeLiteral.swift(plan.url))) else {",
            "    FileHandle.standardError.write(Data(\"the URL is not valid\\n\".utf8))",
            "    exit(1)",
            "}",
            "var request = URLRequest(url: url)",
            "request.httpMethod = \(CodeLiteral.swift(plan.method))",
        ]
        var seen: [String] = []
        for header in plan.headers {
            // addValue joins a second field of a name with a comma, as one field.
            let verb = seen.contains { HTTPHeaders.same($0, header.name) } ? "addValue" : "setValue"
            seen.append(header.name)
            lines.append("request.\(verb)(\(CodeLiteral.swift(header.value)), forHTTPHeaderField: \(CodeLiteral.swift(header.name)))")
        }
        if Set(plan.headers.map { $0.name.lowercased() }).count < plan.headers.count {
            warnings.append("a header named twice is sent as one field, its values joined with commas, as URLRequest holds it")
        }
        if !plan.body.isEmpty {
            let pieces = plan.body.map { piece in
                switch piece {
                case .bytes(let bytes):
                    if let text = String(validating: bytes, as: UTF8.self) { "Data(\(CodeLiteral.swift(text)).utf8)" } else { "Data([\n" + CodeLiteral.byteList(bytes, indent: "    ") + "\n])" }
                case .file(let path): "read(\(CodeLiteral.swift(path)))"
                }
            }
            lines.append("request.httpBody = " + pieces.joined(separator: "\n    + "))
        } else if plan.framesEmptyBody {
            lines.append("request.httpBody = Data()")
        }
        if let timeout = plan.timeout { lines.append("request.timeoutInterval = \(ParameterValue.format(timeout))") }
        return lines
    }

    /// The completion handler's body: exit 1 on `failure` (which binds `error`), else the
    /// response body (`data`) to standard output or the download file, then `done.signal()`.
    private static func swiftCompletion(_ plan: Plan, failure: String, indent: String) -> [String] {
        var lines = [
            indent + "if \(failure) {",
            indent + "    FileHandle.standardError.write(Data(\"\\(error)\\n\".utf8))",
            indent + "    exit(1)",
            indent + "}",
        ]
        if let download = plan.download {
            lines.append(indent + "FileManager.default.createFile(atPath: \(CodeLiteral.swift(download)), contents: data ?? Data())")
        } else {
            lines.append(indent + "if let data { FileHandle.standardOutput.write(data) }")
        }
        return lines + [indent + "done.signal()"]
    }

    /// What URLSession sends otherwise, on Linux (FoundationNetworking, over libcurl).
    private static func swiftWarnings(_ plan: Plan, library: String, warnings: inout [String]) {
        var added: [String] = []
        for (name, value) in [("Accept", "*/*"), ("Accept-Encoding", "deflate, gzip, br, zstd"), ("Accept-Language", "en"), ("User-Agent", "(the program's name) curl/…"), ("Connection", "keep-alive")] where !plan.sends(name) {
            added.append("\(name): \(value)")
        }
        if !plan.body.isEmpty, !plan.sends("Content-Type") { added.append("Content-Type: application/x-www-form-urlencoded") }
        if !added.isEmpty {
            warnings.append("\(library) on Linux adds \(added.joined(separator: ", ")) where Tincan sends none; it cannot be told not to")
        }
        if plan.deadline != nil { warnings.append("max-time: the request's timeoutInterval is an idle timeout; set the session configuration's timeoutIntervalForResource for a deadline") }
    }
}
