/// Where readline's word motions stop (`alt+b`, `alt+f`, `ctrl+w`, `alt+d`), for the one-line
/// field and the multi-line editor alike: a word is letters, digits and `_`.
enum WordBoundary {
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// The start of the word before `index` in `characters`, skipping separators first.
    static func start(in characters: [Character], before index: Int) -> Int {
        var position = index
        while position > 0, !isWordCharacter(characters[position - 1]) { position -= 1 }
        while position > 0, isWordCharacter(characters[position - 1]) { position -= 1 }
        return position
    }

    /// The end of the word after `index` in `characters`, skipping separators first.
    static func end(in characters: [Character], after index: Int) -> Int {
        var position = index
        while position < characters.count, !isWordCharacter(characters[position]) { position += 1 }
        while position < characters.count, isWordCharacter(characters[position]) { position += 1 }
        return position
    }
}
