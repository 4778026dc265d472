/// An explanation as plain text for a terminal, and as Markdown for handouts: `tincan send
/// --explain` prints them, and a lesson's handout reuses ``markdown(headingLevel:wirePreview:)``.
extension Explanation {
    /// The explanation as the Explain view reads, in plain text: each step's title, then its
    /// lines led by `•` (a statement), two spaces (a detail), `✓` or `✗` (a verdict); literals
    /// keep no backticks. Steps are separated by a blank line; the text ends with a newline.
    public func text() -> String {
        var out = ""
        for step in steps {
            if !out.isEmpty { out += "\n" }
            out += step.title + "\n"
            for line in step.lines {
                out += line.tone.lead + line.text.filter { $0 != "`" } + "\n"
            }
        }
        return out
    }

    /// The explanation in Markdown: a heading per step, a list item per line (details nested
    /// under the statement before them, verdicts marked ✓ or ✗), literals as code spans, and
    /// `wirePreview`, when given, as a fenced `http` block under a heading of its own.
    ///
    /// - Parameters:
    ///   - headingLevel: The level of each step's heading (1 to 6), so a handout can put the
    ///     explanation under a heading of its own.
    ///   - wirePreview: The request as it goes on the wire (``RequestPreview/text(_:httpVersion:bodyLimit:)``), or nil.
    public func markdown(headingLevel: Int = 2, wirePreview: String? = nil) -> String {
        let hashes = String(repeating: "#", count: min(max(headingLevel, 1), 6))
        var blocks: [String] = []
        for step in steps {
            var block = "\(hashes) \(Self.escaped(step.title))\n"
            if !step.lines.isEmpty { block += "\n" }
            var underStatement = false
            for line in step.lines {
                let text = Self.markdownInline(line.text)
                switch line.tone {
                case .statement:
                    block += "- \(text)\n"
                    underStatement = true
                case .detail:
                    block += underStatement ? "  - \(text)\n" : "- \(text)\n"
                case .passed:
                    block += "- ✓ \(text)\n"
                    underStatement = true
                case .failed:
                    block += "- ✗ \(text)\n"
                    underStatement = true
                }
            }
            blocks.append(block)
        }
        if let wirePreview {
            let fence = String(repeating: "`", count: max(3, Self.longestBacktickRun(in: wirePreview) + 1))
            let body = wirePreview.hasSuffix("\n") ? wirePreview : wirePreview + "\n"
            blocks.append("\(hashes) On the wire\n\n\(fence)http\n\(body)\(fence)\n")
        }
        return blocks.joined(separator: "\n")
    }

    /// A line's text in Markdown: the parts between backticks become code spans (with fences
    /// long enough for what they hold), and the rest is escaped so that it reads as written.
    public static func markdownInline(_ text: String) -> String {
        var out = ""
        for (index, piece) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
            if index % 2 == 0 {
                out += escaped(piece)
            } else if !piece.isEmpty {
                // A code span that starts or ends with a space keeps it when padded (CommonMark trims one).
                let padded = piece.first == " " || piece.last == " " ? " \(piece) " : String(piece)
                out += "`\(padded)`"
            }
        }
        return out
    }

    /// Plain text with Markdown's punctuation escaped, so `*`, `_`, `<` or `[` are not read as markup.
    public static func escaped(_ text: some StringProtocol) -> String {
        var out = ""
        for character in text {
            if "\\*_[]<>#|~".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    private static func longestBacktickRun(in text: String) -> Int {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}

extension Explanation.Line.Tone {
    /// What leads a line of this tone, in the Explain view and in ``Explanation/text()``:
    /// `• ` a statement, two spaces a detail, `✓ ` or `✗ ` a verdict.
    public var lead: String {
        switch self {
        case .statement: "• "
        case .detail: "  "
        case .passed: "✓ "
        case .failed: "✗ "
        }
    }
}
