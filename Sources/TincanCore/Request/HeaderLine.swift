import Foundation

/// A header written on one line, `Name: value`, as `send -H`, curl's `-H`, `.http` files, the
/// command line and the header editor take it.
///
/// The name is what comes before the separator, trimmed, and must be a field name (an RFC 9110
/// token); the value is the rest, trimmed. This is the one reading of such a line: each front
/// end words its own error from ``Failure``.
public struct HeaderLine: Sendable, Equatable {
    /// Why a line is not a header.
    public enum Failure: Error, Equatable {
        /// There is no separator at all.
        case noSeparator
        /// What comes before the separator is not a field name.
        case invalidName(String)
    }

    public var name: String
    public var value: String
    /// The separator the line was split at.
    public var separator: Character

    /// Reads `line`.
    ///
    /// - Parameter separators: The separators in order of preference: the line is split at the
    ///   first occurrence of the first one it holds (curl's `-H` takes `;` when there is no `:`).
    /// - Throws: ``Failure``.
    public init(parsing line: some StringProtocol, separators: [Character] = [":"]) throws(Failure) {
        guard let (index, separator) = separators.lazy.compactMap({ separator in line.firstIndex(of: separator).map { ($0, separator) } }).first else {
            throw .noSeparator
        }
        let name = line[..<index].trimmingWhitespace()
        guard HTTPHeaders.isValidName(name) else { throw .invalidName(name) }
        self.name = name
        self.value = line[line.index(after: index)...].trimmingWhitespace()
        self.separator = separator
    }

    /// What is wrong with `name`, for people typing headers.
    public static func invalidNameMessage(_ name: String) -> String {
        "'\(name)' is not a valid header name (letters, digits and !#$%&'*+-.^_`|~)"
    }
}
