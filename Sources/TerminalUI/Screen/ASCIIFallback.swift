/// What a cell shows on a terminal whose locale is not UTF-8 (`LANG` unset or `C`): the boxes,
/// arrows, bars and marks Tincan draws become ASCII that means the same (issue 34 §9), and any
/// other character a `?`, so no border or column goes missing.
public enum ASCIIFallback {
    private static let table: [Character: String] = [
        "─": "-", "━": "-", "│": "|", "┃": "|",
        "╭": "+", "╮": "+", "╰": "+", "╯": "+", "┌": "+", "┐": "+", "└": "+", "┘": "+",
        "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
        "▾": "v", "▸": ">", "▶": ">", "◀": "<", "▲": "^", "▼": "v",
        "↓": "v", "↑": "^", "→": ">", "←": "<", "↳": ">", "⏎": "/",
        "●": "*", "•": "*", "·": ".", "…": ".", "✓": "+", "✗": "x", "×": "x", "−": "-", "–": "-", "—": "-",
        "“": "\"", "”": "\"", "‘": "'", "’": "'", "§": "S",
        "█": "#", "▉": "#", "▊": "#", "▋": "#", "▌": "#", "▍": "#", "▎": "#", "▏": "#", "░": ".",
        "⠋": "|", "⠙": "/", "⠹": "-", "⠸": "\\", "⠼": "|", "⠴": "/", "⠦": "-", "⠧": "\\", "⠇": "|", "⠏": "/",
    ]

    /// A cell's text as ASCII: itself when it is ASCII, its stand-in when Tincan draws it, else `?`.
    public static func text(_ cell: String) -> String {
        guard !cell.utf8.allSatisfy({ $0 < 0x80 }) else { return cell }
        guard let character = cell.first, cell.count == 1 else { return "?" }
        return table[character] ?? "?"
    }
}
