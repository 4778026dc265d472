import ArgumentParser
import TincanCore

/// Parser transforms for numbers: each option's value goes through its field's `NumericRange`
/// (the one checked conversion) as the parser reads it, so a bad number is refused before any
/// command runs. The parser names the option (`The value '-5' is invalid for '--timeout
/// <SECONDS>'`); the error says what is wrong with the value and what was expected.
enum OptionValue {
    /// A number in `range`.
    static func number(_ range: NumericRange) -> @Sendable (String) throws -> Double {
        { text in try checked { () throws(NumericRangeError) in try range.value(parsing: text) } }
    }

    /// A whole number in `range`.
    static func integer(_ range: NumericRange) -> @Sendable (String) throws -> Int {
        { text in try checked { () throws(NumericRangeError) in try range.integer(parsing: text) } }
    }

    /// What `parse` gives, or its error's message without the field's name.
    static func checked<T>(_ parse: () throws(NumericRangeError) -> T) throws -> T {
        do {
            return try parse()
        } catch {
            throw OptionValueError(description: error.message)
        }
    }
}

/// Why a value cannot be used, in words that follow the parser's naming of the option.
struct OptionValueError: Error, CustomStringConvertible {
    var description: String
}

/// An option's value that is one of a few words: an enumeration whose raw values are the words.
///
/// The argument parser lists every such type's words as it reads the command's declarations,
/// even for a command that never prints its help. Its own list goes through a key path over
/// the type's raw value, and the first use of that key path for each type has the Swift
/// runtime look up three conformances by name, each in a table of about 12,000 entries: 0.6 ms
/// of a `tincan send`. These words are the same, read directly.
protocol OptionWord: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension OptionWord {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}
