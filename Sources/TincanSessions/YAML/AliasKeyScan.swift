/// Finds an alias used as a mapping key, before Yams composes the text.
///
/// Yams checks every mapping for duplicate keys by hashing them, and the hash of an alias walks
/// the whole node it names: a key that is an alias of aliases ("billion laughs" as a key) keeps
/// the composer busy for ever, before ``AliasLimit`` can count anything. Tincan's keys are text,
/// so an alias is never a valid key; the scan refuses one at its place.
///
/// It reads the text as YAML's lexer would for this one question: quoted scalars (which may span
/// lines), comments, and the content of block scalars (`|`, `>`) are skipped; an alias (`*name`)
/// is a key when `: ` follows it, or when it follows an explicit `? `.
enum AliasKeyScan {
    /// The first alias that is a key: its name and 1-based line and column.
    static func firstAliasKey(in text: String) -> (name: String, location: SourceLocation)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        var quote: Unicode.Scalar?
        var blockIndent: Int?
        for (number, line) in lines.enumerated() {
            let indent = line.prefix { $0 == " " }.count
            if let block = blockIndent {
                // A block scalar's content: its lines are more indented than the line that opened it.
                if indent > block || line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
                blockIndent = nil
            }
            var index = 0
            var lastSignificant = -1
            while index < line.count {
                let scalar = line[index]
                if let open = quote {
                    if open == "\"", scalar == "\\" { index += 2; continue }
                    if scalar == open {
                        if open == "'", index + 1 < line.count, line[index + 1] == "'" { index += 2; continue }
                        quote = nil
                        lastSignificant = index
                    }
                    index += 1
                    continue
                }
                let atTokenStart = index == 0 || " \t[{,".unicodeScalars.contains(line[index - 1])
                switch scalar {
                case "\"", "'":
                    // A quote opens a quoted scalar only where a token starts; inside a plain
                    // scalar (`Ada's`) it is text.
                    if atTokenStart { quote = scalar }
                case "#" where index == 0 || line[index - 1] == " " || line[index - 1] == "\t":
                    index = line.count
                    continue
                case "*" where atTokenStart || "?:-".unicodeScalars.contains(line[index - 1]):
                    var end = index + 1
                    while end < line.count, Self.isAnchorCharacter(line[end]) { end += 1 }
                    if end > index + 1, isKey(aliasFrom: index, to: end, in: line) {
                        return (String(String.UnicodeScalarView(line[(index + 1)..<end])), SourceLocation(line: number + 1, column: index + 1))
                    }
                    index = end
                    lastSignificant = end - 1
                    continue
                default:
                    break
                }
                if scalar != " ", scalar != "\t", scalar != "\r" { lastSignificant = index }
                index += 1
            }
            // `key: |`, `- >-`, `|2`: the lines after it, more indented, are the scalar's content.
            if quote == nil, lastSignificant >= 0 {
                var start = lastSignificant
                while start >= 0, "+-0123456789".unicodeScalars.contains(line[start]) { start -= 1 }
                if start >= 0, line[start] == "|" || line[start] == ">", start == 0 || line[start - 1] == " " {
                    blockIndent = indent
                }
            }
        }
        return nil
    }

    /// libyaml's anchor names: letters, digits, `_` and `-`.
    private static func isAnchorCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
    }

    /// Whether the alias at `start..<end` of `line` is a mapping key.
    private static func isKey(aliasFrom start: Int, to end: Int, in line: [Unicode.Scalar]) -> Bool {
        var after = end
        while after < line.count, line[after] == " " || line[after] == "\t" { after += 1 }
        if after < line.count, line[after] == ":", after + 1 == line.count || " \t\r,]}".unicodeScalars.contains(line[after + 1]) { return true }
        var before = start - 1
        while before >= 0, line[before] == " " || line[before] == "\t" { before -= 1 }
        return before >= 0 && line[before] == "?" && (before == 0 || " \t[{,".unicodeScalars.contains(line[before - 1]))
    }
}
