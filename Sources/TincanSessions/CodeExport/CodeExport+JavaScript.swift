import TincanCore

extension CodeExport {
    /// JavaScript with `fetch`, for Node 18 and later: the headers as a list of pairs (a name
    /// given twice stays two fields), the body as bytes (a string would get fetch's own
    /// `text/plain` Content-Type), the response body written to standard output.
    static func javaScript(_ plan: Plan, warnings: inout [String]) -> String {
        var lines = ["// Node 18 or later: node request.mjs", "async function main() {"]
        let hasFiles = plan.body.contains { if case .file = $0 { true } else { false } }
        if hasFiles || plan.download != nil { lines.append("  const fs = await import('node:fs');") }
        lines.append("  const url = \(CodeLiteral.javaScript(plan.url));")
        lines.append("  const headers = [")
        for header in plan.headers {
            // fetch writes each character of a value as one byte (Latin-1): the UTF-8 bytes go in as such characters.
            let bytes = String(String.UnicodeScalarView(header.value.utf8.map { Unicode.Scalar($0) }))
            lines.append("    [\(CodeLiteral.javaScript(header.name)), \(CodeLiteral.javaScript(bytes))],")
        }
        lines.append("  ];")
        var options = ["method: \(CodeLiteral.javaScript(plan.method))", "headers"]
        if !plan.body.isEmpty {
            let pieces = plan.body.map { piece in
                switch piece {
                case .bytes(let bytes):
                    if let text = String(validating: bytes, as: UTF8.self) { "Buffer.from(\(CodeLiteral.javaScript(text)), 'utf8')" } else { "Buffer.from([\n" + CodeLiteral.byteList(bytes, indent: "      ") + ",\n    ])" }
                case .file(let path): "fs.readFileSync(\(CodeLiteral.javaScript(path)))"
                }
            }
            lines.append("  const body = " + (pieces.count == 1 ? pieces[0] : "Buffer.concat([\n    " + pieces.joined(separator: ",\n    ") + ",\n  ])") + ";")
            options.append("body")
        } else if plan.framesEmptyBody {
            options.append("body: new Uint8Array(0)")
        }
        options.append("redirect: \(plan.redirectLimit > 0 ? "'follow'" : "'manual'")")
        if let seconds = plan.deadline ?? plan.timeout {
            options.append("signal: AbortSignal.timeout(\(Int((seconds * 1000).rounded(.up))))")
            if plan.deadline == nil { warnings.append("timeout: fetch has no idle timeout; the program aborts the whole exchange after \(ParameterValue.format(seconds)) s") }
        }
        lines.append("  const response = await fetch(url, { \(options.joined(separator: ", ")) });")
        lines.append("  const bytes = new Uint8Array(await response.arrayBuffer());")
        if let download = plan.download {
            lines.append("  fs.writeFileSync(\(CodeLiteral.javaScript(download)), bytes);")
        } else {
            lines.append("  process.stdout.write(bytes);")
        }
        lines += ["}", "", "main().catch((error) => {", "  console.error(error);", "  process.exitCode = 1;", "});"]

        var added = ["sec-fetch-mode: cors"]
        if !plan.sends("Connection") { added.append("connection: keep-alive") }
        for (name, value) in [("accept", "*/*"), ("accept-language", "*"), ("user-agent", "node"), ("accept-encoding", "gzip, deflate")] where !plan.sends(name) {
            added.append("\(name): \(value)")
        }
        warnings.append("fetch adds \(added.joined(separator: ", ")) where Tincan sends none, and writes host and content-length in lower case; it cannot be told not to")
        if Set(plan.headers.map { $0.name.lowercased() }).count < plan.headers.count {
            warnings.append("a header named twice is sent as one field by fetch, its values joined with commas")
        }
        if plan.redirectLimit > 0, plan.redirectLimit != RedirectPolicy.standard.limit {
            warnings.append("max-redirects \(plan.redirectLimit): fetch follows up to 20 redirects")
        }
        if plan.digest != nil { warnings.append("Digest credentials are not carried over; fetch does not answer a Digest challenge") }
        if plan.insecure || plan.caFile != nil {
            warnings.append("TLS trust (\(plan.insecure ? "insecure" : "ca-file")) is not carried over; give Node NODE_EXTRA_CA_CERTS (or NODE_TLS_REJECT_UNAUTHORIZED=0) yourself")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
