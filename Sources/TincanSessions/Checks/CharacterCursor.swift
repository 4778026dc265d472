/// A position in text being parsed, shared by the body-path and filter parsers.
protocol CharacterCursor {
    var characters: [Character] { get }
    var index: Int { get set }
}

extension CharacterCursor {
    /// The character at the position, or nil at the end.
    var peek: Character? { index < characters.count ? characters[index] : nil }

    mutating func skipSpaces() {
        while peek?.isWhitespace == true { index += 1 }
    }

    /// Takes `token` after any spaces, when it comes next.
    mutating func take(_ token: String) -> Bool {
        skipSpaces()
        let token = Array(token)
        guard index + token.count <= characters.count, Array(characters[index..<(index + token.count)]) == token else { return false }
        index += token.count
        return true
    }
}
