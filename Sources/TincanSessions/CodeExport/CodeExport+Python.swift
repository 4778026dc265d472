import TincanCore

extension CodeExport {
    /// Python with `requests`: a session whose own headers are cleared (and that reads no
    /// `.netrc`), Tincan's headers as they are, and urllib3's `SKIP_HEADER` for the User-Agent
    /// and Accept-Encoding it would add when Tincan sends none.
    static func python(_ plan: Plan, warnings: inout [String]) -> String {
        var lines = ["import sys", "", "import requests", "from urllib3.util import SKIP_HEADER", ""]
        lines.append("url = \(CodeLiteral.python(plan.url))")
        var headerLines = plan.headers.map { header -> String in
            // http.client writes a str value as Latin-1; bytes go out as they are.
            let value = header.value.utf8.allSatisfy { $0 < 0x80 } ? CodeLiteral.python(header.value) : CodeLiteral.pythonBytes(Array(header.value.utf8))
            return "    \(CodeLiteral.python(header.name)): \(value),"
        }
        for name in ["User-Agent", "Accept-Encoding"] where !plan.sends(name) {
            headerLines.append("    \(CodeLiteral.python(name)): SKIP_HEADER,  # Tincan sends none")
        }
        lines.append("headers = {")
        lines += headerLines
        lines.append("}")
        var bodyArgument = ""
        if !plan.body.isEmpty {
            let files = plan.body.compactMap { piece -> String? in if case .file(let path) = piece { path } else { nil } }
            if !files.isEmpty {
                lines.append("")
                lines.append("def read(path):")
                lines.append("    with open(path, 'rb') as file:")
                lines.append("        return file.read()")
                lines.append("")
            }
            let pieces = plan.body.map { piece in
                switch piece {
                case .bytes(let bytes): CodeLiteral.pythonBytes(bytes)
                case .file(let path): "read(\(CodeLiteral.python(path)))"
                }
            }
            lines.append("body = " + (pieces.count == 1 ? pieces[0] : "b''.join([\n    " + pieces.joined(separator: ",\n    ") + ",\n])"))
            bodyArgument = ", data=body"
        }
        lines.append("")
        lines.append("session = requests.Session()")
        lines.append("session.trust_env = False")
        lines.append("session.headers.clear()")
        lines.append("request = session.prepare_request(requests.Request(\(CodeLiteral.python(plan.method)), url, headers=headers\(bodyArgument)))")
        if plan.body.isEmpty, !plan.framesEmptyBody {
            lines.append("request.headers.pop('Content-Length', None)  # Tincan frames no empty \(plan.method)")
        }
        var sendArguments = ["request"]
        sendArguments.append("allow_redirects=\(plan.redirectLimit > 0 ? "True" : "False")")
        if plan.redirectLimit > 0 { lines.append("session.max_redirects = \(plan.redirectLimit)") }
        if let timeout = plan.timeout { sendArguments.append("timeout=\(ParameterValue.format(timeout))") }
        if plan.insecure {
            sendArguments.append("verify=False")
        } else if let caFile = plan.caFile {
            sendArguments.append("verify=\(CodeLiteral.python(caFile))")
        }
        if let digest = plan.digest {
            lines.insert("from requests.auth import HTTPDigestAuth", at: 4)
            lines.append("request.prepare_auth(HTTPDigestAuth(\(CodeLiteral.python(digest.user)), \(CodeLiteral.python(digest.password))))")
        }
        lines.append("response = session.send(\(sendArguments.joined(separator: ", ")))")
        if let download = plan.download {
            lines.append("with open(\(CodeLiteral.python(download)), 'wb') as file:")
            lines.append("    file.write(response.content)")
        } else {
            lines.append("sys.stdout.buffer.write(response.content)")
        }
        if plan.deadline != nil { warnings.append("max-time: requests has no deadline for the whole exchange; the program waits as its timeout says") }
        return lines.joined(separator: "\n") + "\n"
    }
}
