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
