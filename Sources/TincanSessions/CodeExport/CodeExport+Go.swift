import TincanCore

extension CodeExport {
    /// Go with `net/http`: the header map filled as written (names kept as Tincan writes them),
    /// an empty User-Agent where Tincan sends none (Go then writes none), compression off so the
    /// transport adds no Accept-Encoding, and the response body copied to standard output.
    static func go(_ plan: Plan, warnings: inout [String]) -> String {
        var imports = ["\"fmt\"", "\"io\"", "\"net/http\"", "\"os\""]
        if !plan.body.isEmpty { imports.append("\"bytes\"") }
        if plan.deadline != nil || plan.timeout != nil { imports.append("\"time\"") }
        if plan.insecure { imports.append("\"crypto/tls\"") }
        var lines = ["package main", "", "import ("] + imports.sorted().map { "\t" + $0 } + [")", ""]
        lines += ["func fail(err error) {", "\tfmt.Fprintln(os.Stderr, err)", "\tos.Exit(1)", "}", "", "func main() {"]
        var bodyArgument = "nil"
        if !plan.body.isEmpty {
            lines.append("\tvar body bytes.Buffer")
            for piece in plan.body {
                switch piece {
                case .bytes(let bytes):
                    lines.append("\tbody.WriteString(\(CodeLiteral.goBytes(bytes)))")
                case .file(let path):
                    lines += ["\tif data, err := os.ReadFile(\(CodeLiteral.go(path))); err != nil {", "\t\tfail(err)", "\t} else {", "\t\tbody.Write(data)", "\t}"]
                }
            }
            bodyArgument = "bytes.NewReader(body.Bytes())"
        }
        lines += [
            "\trequest, err := http.NewRequest(\(CodeLiteral.go(plan.method)), \(CodeLiteral.go(plan.url)), \(bodyArgument))",
            "\tif err != nil {", "\t\tfail(err)", "\t}",
            "\t// Set as written: Go keeps a name's spelling when the map is filled directly.",
            "\trequest.Header = http.Header{}",
        ]
        for header in plan.headers {
            lines.append("\trequest.Header[\(CodeLiteral.go(header.name))] = append(request.Header[\(CodeLiteral.go(header.name))], \(CodeLiteral.go(header.value)))")
        }
        if !plan.sends("User-Agent") { lines.append("\trequest.Header[\"User-Agent\"] = []string{\"\"} // Tincan sends none; Go writes none when it is empty") }
        var transport = ["DisableCompression: true", "Proxy: http.ProxyFromEnvironment"]
        if plan.insecure { transport.append("TLSClientConfig: &tls.Config{InsecureSkipVerify: true}") }
        lines.append("\tclient := &http.Client{Transport: &http.Transport{\(transport.joined(separator: ", "))}}")
        if let deadline = plan.deadline { lines.append("\tclient.Timeout = time.Duration(\(ParameterValue.format(deadline)) * float64(time.Second))") }
        if let timeout = plan.timeout {
            lines.append("\tclient.Transport.(*http.Transport).ResponseHeaderTimeout = time.Duration(\(ParameterValue.format(timeout)) * float64(time.Second))")
            warnings.append("timeout: Go has no idle timeout for the body; the program waits \(ParameterValue.format(timeout)) s for the response head")
        }
        let limit = plan.redirectLimit
        lines += [
            "\tclient.CheckRedirect = func(req *http.Request, via []*http.Request) error {",
            "\t\tif len(via) >= \(limit) {", "\t\t\treturn http.ErrUseLastResponse", "\t\t}", "\t\treturn nil", "\t}",
            "\tresponse, err := client.Do(request)",
            "\tif err != nil {", "\t\tfail(err)", "\t}",
            "\tdefer response.Body.Close()",
        ]
        if let download = plan.download {
            lines += ["\tfile, err := os.Create(\(CodeLiteral.go(download)))", "\tif err != nil {", "\t\tfail(err)", "\t}", "\tdefer file.Close()",
                      "\tif _, err := io.Copy(file, response.Body); err != nil {", "\t\tfail(err)", "\t}"]
        } else {
            lines += ["\tif _, err := io.Copy(os.Stdout, response.Body); err != nil {", "\t\tfail(err)", "\t}"]
        }
        lines.append("}")
        if plan.body.isEmpty, plan.framesEmptyBody, !["POST", "PUT", "PATCH"].contains(plan.method) {
            warnings.append("Go writes no Content-Length: 0 for an empty \(plan.method), which Tincan writes")
        }
        if plan.digest != nil { warnings.append("Digest credentials are not carried over; net/http does not answer a Digest challenge") }
        if plan.caFile != nil { warnings.append("ca-file is not carried over; load it into the transport's TLSClientConfig.RootCAs") }
        return lines.joined(separator: "\n") + "\n"
    }
}
