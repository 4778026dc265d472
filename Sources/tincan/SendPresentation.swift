import Foundation
import TincanCore

/// How `tincan send` prints (issue 34 §10), as HTTPie decides it: which parts go to standard
/// output and which to standard error, in colour or not, formatted or as received.
///
/// - On a terminal: the response's head, body and metadata (validation and timing), `--verbose`
///   adding the request. Into a pipe or a file: the body alone, so `| jq` works; `--verbose`
///   sends the heads and the metadata to standard error. `--print` chooses explicitly.
/// - `--pretty` all (on a terminal) or none (otherwise): colours and indented JSON, or the body
///   as it came. `--color` auto colours what `--pretty` colours, unless `NO_COLOR` is set or
///   `TERM` is `dumb`; always and never decide alone.
struct SendPresentation {
    /// The parts on standard output, and those on standard error.
    var standardOutput: PrintParts
    var standardError = PrintParts()
    /// Whether standard output is a terminal (binary bodies are then a note, text is neutralised).
    var terminal: Bool
    var colors: Bool
    var formats: Bool

    init(_ options: SendOutputOptions, terminal: Bool, environment: [String: String] = ProcessEnvironment.values) {
        self.terminal = terminal
        if let print = options.print {
            standardOutput = print
        } else if terminal {
            standardOutput = PrintParts(requestHead: options.verbose, requestBody: options.verbose, responseHead: true, responseBody: true, metadata: true)
        } else {
            standardOutput = PrintParts(responseBody: true)
            if options.verbose { standardError = PrintParts(requestHead: true, responseHead: true, metadata: true) }
        }
        let pretty = options.pretty ?? (terminal ? .all : .none)
        formats = pretty.formats
        let noColor = ColorChoice.forbidden(by: environment)
        switch options.color {
        case .always: colors = true
        case .never: colors = false
        case .auto: colors = pretty.colors && !noColor && (terminal || options.pretty != nil)
        }
    }

    /// A presentation with the parts given, for tests and for the stream case.
    init(standardOutput: PrintParts, standardError: PrintParts = PrintParts(), terminal: Bool = false, colors: Bool = false, formats: Bool = true) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.terminal = terminal
        self.colors = colors
        self.formats = formats
    }
}

/// The ANSI colours of `send`'s text output: status by class, header names, JSON by token.
enum ANSI {
    static let reset = "\u{1B}[0m"
    static let bold = "\u{1B}[1m"
    static let dim = "\u{1B}[2m"
    static let red = "\u{1B}[31m"
    static let green = "\u{1B}[32m"
    static let yellow = "\u{1B}[33m"
    static let blue = "\u{1B}[34m"
    static let magenta = "\u{1B}[35m"
    static let cyan = "\u{1B}[36m"

    /// The colour of a status code's class.
    static func status(_ code: Int) -> String {
        switch code {
        case ..<200: blue
        case ..<300: green
        case ..<400: cyan
        case ..<500: yellow
        default: red
        }
    }

    /// Pretty JSON with its keys, strings, numbers and literals coloured; the bytes are read
    /// once, and the text itself is left as it is.
    static func json(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + bytes.count / 4)
        func append(_ code: String) { result.append(contentsOf: code.utf8) }
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                end = min(end + 1, count)
                // A string followed by a colon is a key.
                var next = end
                while next < count, bytes[next] == UInt8(ascii: " ") { next += 1 }
                append(next < count && bytes[next] == UInt8(ascii: ":") ? blue : green)
                result.append(contentsOf: bytes[index..<end])
                append(reset)
                index = end
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                var end = index + 1
                while end < count, "0123456789.eE+-".utf8.contains(bytes[end]) { end += 1 }
                append(cyan)
                result.append(contentsOf: bytes[index..<end])
                append(reset)
                index = end
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                var end = index
                while end < count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[end]) { end += 1 }
                append(magenta)
                result.append(contentsOf: bytes[index..<end])
                append(reset)
                index = max(end, index + 1)
            default:
                result.append(byte)
                index += 1
            }
        }
        return result
    }
}
