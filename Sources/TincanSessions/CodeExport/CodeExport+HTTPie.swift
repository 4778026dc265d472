import TincanCore

extension CodeExport {
    /// HTTPie's defaults, which a command names with `Name:` (unset) when Tincan sends none.
    static let httpieDefaults = ["User-Agent", "Accept", "Accept-Encoding", "Connection"]
    /// The characters HTTPie's request items treat as separators, escaped with a backslash.
    static let httpieSpecials: Set<Character> = [":", "=", "@", ";"]

    /// An HTTPie command line: the body piped in (bytes through `printf`'s octal escapes, files
    /// through `cat`), every header as an item, HTTPie's own defaults unset, and the response
    /// body printed as it came (`--print=b --pretty=none`).
    static func httpie(_ plan: Plan, warnings: inout [String]) -> String {
        var words = ["http", "--print=b", "--pretty=none"]
        if plan.body.isEmpty { words.append("--ignore-stdin") }
        if plan.redirectLimit > 0 { words += ["--follow", "--max-redirects=\(plan.redirectLimit)"] }
        if let timeout = plan.timeout { words.append("--timeout=\(ParameterValue.format(timeout))") }
        if plan.insecure {
            words.append("--verify=no")
        } else if let caFile = plan.caFile {
            words.append("--verify=" + ShellWords.quote(caFile))
        }
        if let digest = plan.digest { words += ["--auth-type=digest", "--auth=" + ShellWords.quote("\(digest.user):\(digest.password)")] }
        if let download = plan.download { words += ["--download", "--output=" + ShellWords.quote(download)] }
        words += [ShellWords.quote(plan.method), ShellWords.quote(plan.url)]
        for header in plan.headers {
            if header.value.isEmpty {
                words.append(ShellWords.quote(header.name + ";"))
                continue
            }
            if header.value.contains(where: { $0 == "\\" }), zip(header.value, header.value.dropFirst()).contains(where: { $0 == "\\" && httpieSpecials.contains($1) }) {
                warnings.append("the value of \(header.name) has a backslash before one of :=@; which HTTPie's items cannot say; HTTPie sends it without that backslash")
            }
            var value = ""
            for character in header.value {
                if httpieSpecials.contains(character) { value.append("\\") }
                value.append(character)
            }
            words.append(ShellWords.quote(header.name + ":" + value))
        }
        var unset = httpieDefaults.filter { !plan.sends($0) }
        if !plan.body.isEmpty, !plan.sends("Content-Type") { unset.append("Content-Type") }
        words += unset.map { ShellWords.quote($0 + ":") }
        for name in ["User-Agent", "Accept-Encoding"] where unset.contains(name) {
            warnings.append("HTTPie sends urllib3's own \(name) (\(name == "User-Agent" ? "python-urllib3/…" : "identity")) when the header is unset, and Tincan sends none")
        }
        if plan.body.isEmpty, !plan.framesEmptyBody, plan.method != "GET", plan.method != "HEAD" {
            warnings.append("HTTPie sends Content-Length: 0 with an empty \(plan.method), where Tincan sends no Content-Length")
        }
        if Set(plan.headers.map { $0.name.lowercased() }).count < plan.headers.count {
            warnings.append("a header named twice is sent once by HTTPie, with the last value")
        }
        if plan.deadline != nil { warnings.append("max-time: HTTPie has no deadline for the whole exchange") }

        let command = words.joined(separator: " ")
        switch plan.body.count {
        case 0: return command + "\n"
        case 1:
            if case .file(let path) = plan.body[0] { return command + " < " + ShellWords.quote(path) + "\n" }
            return printfWord(plan.body[0]) + " | " + command + "\n"
        default:
            return "{ " + plan.body.map(printfWord).joined(separator: "; ") + "; } | " + command + "\n"
        }
    }

    /// A command that writes one body piece: `printf` with octal escapes for bytes (so NUL and
    /// any byte survive, in any POSIX shell), `cat` for a file.
    static func printfWord(_ piece: BodyPiece) -> String {
        switch piece {
        case .file(let path): return "cat -- " + ShellWords.quote(path)
        case .bytes(let bytes):
            var format = ""
            for (offset, byte) in bytes.enumerated() {
                switch byte {
                // A format starting with `-` would be read as an option by some shells' printf.
                case UInt8(ascii: "-") where offset == 0: format += "\\055"
                case UInt8(ascii: "%"): format += "%%"
                case UInt8(ascii: "\\"): format += "\\\\"
                case UInt8(ascii: "'"): format += "'\\''"
                case 0x20..<0x7F: format.unicodeScalars.append(Unicode.Scalar(byte))
                default:
                    let octal = String(byte, radix: 8)
                    format += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
                }
            }
            return "printf '" + format + "'"
        }
    }
}
