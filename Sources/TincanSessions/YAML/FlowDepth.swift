/// How deep YAML text nests its flow collections (`[`, `{`), read before libyaml scans it.
///
/// libyaml refuses more than 1000 levels, but its scanner takes time quadratic in the depth to
/// get there: a value nested 100,000 levels deep took 16 s of CPU to refuse (a release build),
/// once when Tincan scanned it for aliases in keys and again when Yams composed it. A file that
/// passes the limit is refused here at once, at the bracket that passes it. Brackets inside
/// quoted scalars and comments do not count; one in a plain scalar (`url: /a[0]`) does, which
/// only a thousand unclosed ones could make matter.
enum FlowDepth {
    /// The deepest nesting libyaml accepts (`yaml_set_max_nest_level`'s default).
    static let maximum = 1000

    /// Where the first bracket past ``maximum`` stands, or nil when the text stays within it.
    static func firstTooDeep(in text: String) -> SourceLocation? {
        var depth = 0
        var line = 1
        var column = 0
        var quote: Unicode.Scalar?
        var escaped = false
        var inComment = false
        // Whether the scalar before could end a token, so that a quote here opens one.
        var previous: Unicode.Scalar = "\n"
        for scalar in text.unicodeScalars {
            column += 1
            defer { previous = scalar }
            if scalar == "\n" {
                line += 1
                column = 0
                inComment = false
                // A double-quoted scalar may go on to the next line; a comment may not.
                continue
            }
            if inComment { continue }
            if let open = quote {
                if open == "\"", scalar == "\\", !escaped {
                    escaped = true
                    continue
                }
                if scalar == open, !escaped { quote = nil }
                escaped = false
                continue
            }
            let afterSeparator = previous == " " || previous == "\t" || previous == "\n" || previous == "[" || previous == "{" || previous == "," || previous == ":"
            switch scalar {
            case "#" where previous == " " || previous == "\t" || previous == "\n":
                inComment = true
            case "\"", "'":
                if afterSeparator { quote = scalar }
            case "[", "{":
                depth += 1
                if depth > maximum { return SourceLocation(line: line, column: column) }
            case "]", "}":
                depth = max(0, depth - 1)
            default:
                break
            }
        }
        return nil
    }
}
