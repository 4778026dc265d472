import TincanCore

/// A curl command or a `.http` file that could not be imported, or a request that a `.http`
/// file cannot hold: where, and why.
public struct InterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The quotes of a shell word.
    public enum Quote: Sendable, Equatable {
        /// `'…'`
        case single
        /// `"…"`
        case double
        /// `$'…'`
        case ansiC
    }

    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        // MARK: Shell words

        /// A quote is not closed before the command ends.
        case unclosedQuote(Quote)

        // MARK: curl import

        /// Nothing after `curl`.
        case emptyCommand
        /// An option that takes a value ends the command.
        case missingValue(option: String)
        /// A second URL: one request is imported at a time.
        case twoURLs(String, String)
        /// An option Tincan does not read, as written (`--proxy`, `-x`).
        case unsupportedOption(String)
        /// `-H` without a `:` or `;`.
        case notAHeader(String)
        /// A header name with characters HTTP does not allow.
        case invalidHeaderName(String)
        /// `-d @-` and its kind: data read from standard input.
        case dataFromStandardInput(option: String)
        /// `-T -` or `-T .`: a body read from standard input.
        case uploadFromStandardInput(String)
        /// `-b FILE`: cookies read from a file.
        case cookieFile(String)
        /// `-F` or `--form-string` without `=`.
        case notAFormField(option: String, text: String)
        /// `-F 'name=<file'` whose file cannot be read as text.
        case formFieldFileUnreadable(name: String, path: String)
        /// A number out of its option's range (`-m`).
        case invalidNumber(NumericRangeError)
        /// No URL in the command.
        case noURL
        /// `-F` with `-d`.
        case formWithData
        /// `-T` with `-d` or `-F`.
        case uploadWithBody
        /// `-X` with something that is not a method.
        case invalidMethod(String)
        /// An `@file` joined with other data that cannot be read now.
        case joinedFileUnreadable(path: String, directory: String)
        /// `--limit-rate` that is not a rate.
        case invalidRate(String)

        // MARK: Form fields (curl's -F and .http parts)

        /// A plain field name given twice.
        case repeatedField(String)
        /// A field name that is not a parameter name (`a[`).
        case invalidFieldName(RequestItemError)

        // MARK: .http import

        /// No request line in the file.
        case noRequests
        /// A line among the headers that is neither a header nor blank.
        case expectedHeader(found: String)
        /// `@name` without `= value`.
        case expectedVariable
        /// `@ = value`.
        case expectedVariableName
        /// A line where a request should start that is not one.
        case expectedRequestLine(found: String)
        /// `# @timeout` with something that is not a timeout.
        case invalidTimeout(String)
        /// A multipart body whose Content-Type has no boundary.
        case noBoundary
        /// Text before a multipart body's first boundary (the boundary expected).
        case expectedFirstBoundary(String)
        /// A line among a part's headers that is neither a header nor blank.
        case expectedPartHeader(found: String)

        // MARK: .http export

        /// A request whose body is not text.
        case binaryBody(request: String)
        /// A body line that would read as `.http` syntax.
        case bodyLineIsSyntax(String)
        /// A line with a control character (an escape, a carriage return…), which a `.http` file
        /// would hold raw, for a terminal or an editor to obey: the character's code point, and the line (neutralised).
        case controlCharacter(UInt32, line: String)
        /// A form part of bytes that are not text.
        case binaryFormPart
        /// A form part that is a stream.
        case streamFormPart

        // MARK: HAR import

        /// A HAR file larger than an import reads.
        case harTooLarge(limit: Int)
        /// A file that is not JSON, and why.
        case harNotJSON(String)
        /// A value without the shape HAR gives it: where in the log (`log.entries[2].request`),
        /// and what was expected there.
        case expectedHAR(at: String, String)
    }

    /// What went wrong.
    public var reason: Reason
    /// Where, when the reason does not say: a `.http` file and line (`api.http:12`), the option
    /// as written (`-H 'Bad Name: v'`, `-F 'a=…'`), or the exported request (`request 'name'`).
    public var place: String?

    /// Creates an error.
    public init(_ reason: Reason, at place: String? = nil) {
        self.reason = reason
        self.place = place
    }

    public var description: String {
        place.map { "\($0): \(sentence)" } ?? sentence
    }

    /// The reason in words, without the place.
    private var sentence: String {
        switch reason {
        case .unclosedQuote(.single): "a single quote is not closed"
        case .unclosedQuote(.double): "a double quote is not closed"
        case .unclosedQuote(.ansiC): "a $'…' quote is not closed"
        case .emptyCommand: "expected a curl command such as curl -X POST https://example.com -d a=1"
        case .missingValue(let option): "\(option) needs a value"
        case .twoURLs(let first, let second): "two URLs ('\(first)' and '\(second)'); Tincan imports one request at a time"
        case .unsupportedOption(let option):
            "the curl option \(option) cannot be imported; Tincan reads \(CurlOption.requestOptions.map(\.spelling).joined(separator: ", ")), and options that only change curl's output"
        case .notAHeader(let text): "-H '\(text)' is not a header; expected 'Name: value'"
        case .invalidHeaderName(let name): "'\(name)' is not a valid header name"
        case .dataFromStandardInput(let option): "\(option) @- reads standard input, which cannot be imported; save the data to a file and give @FILE"
        case .uploadFromStandardInput(let text): "-T \(text) reads standard input, which cannot be imported; save the data to a file and give -T FILE"
        case .cookieFile(let text): "-b '\(text)' reads cookies from a file, which cannot be imported; give them as -b 'name=value'"
        case .notAFormField(let option, let text): "\(option) '\(text)' is not a form field; expected name=value or name=@file"
        case .formFieldFileUnreadable(let name, let path):
            "-F '\(name)=<\(path)': the file cannot be read as text, and a form field's value is text; send it as a file part with -F '\(name)=@\(path)'"
        case .invalidNumber(let error): "\(error)"
        case .noURL: "the curl command has no URL"
        case .formWithData: "-F and -d cannot go together: a body is either a form or data"
        case .uploadWithBody: "-T sends a file as the body, so it cannot go with -d or -F"
        case .invalidMethod(let method): "-X '\(method)' is not a method"
        case .joinedFileUnreadable(let path, let directory):
            "@\(path) cannot be read (from \(directory)), and its data is joined with other data, so it must be read now"
        case .invalidRate(let text): "--limit-rate '\(text)' is not a rate; expected bytes per second such as 64k"
        case .repeatedField(let name): "the field \(name) is given twice; a parameter holds one value per name (write \(name)[] for a list)"
        case .invalidFieldName(let error): "\(error)"
        case .noRequests: "no requests found; expected a line such as 'GET https://example.com'"
        case .expectedHeader(let found): "expected a header 'Name: value' or a blank line before the body, found '\(found)'"
        case .expectedVariable: "expected a variable '@name = value'"
        case .expectedVariableName: "expected a variable name after '@'"
        case .expectedRequestLine(let found): "expected a request line 'METHOD URL', found '\(found)'"
        case .invalidTimeout(let text): "@timeout \(text) is not a timeout; expected seconds, or a number with ms, s or m"
        case .noBoundary: "the multipart body's Content-Type names no boundary; expected 'multipart/form-data; boundary=…'"
        case .expectedFirstBoundary(let boundary): "expected the first boundary line '--\(boundary)' of the multipart body"
        case .expectedPartHeader(let found): "expected a part header 'Name: value' or a blank line, found '\(found)'"
        case .binaryBody(let request): "request '\(request)' has a binary body, which .http files cannot hold; save it to a file and use body: {file: PATH}"
        case .bodyLineIsSyntax(let line): "the body line '\(line)' would be read as .http syntax, not text; save the body to a file and use body: {file: PATH}"
        case .controlCharacter(let scalar, let line):
            "the line '\(TerminalText.line(line))' holds the control character U+\(HexText.number(scalar, width: 4, uppercase: true)), which a .http file would hold raw (a terminal or an editor showing it could obey it); export as curl, which writes it as an escape, or save the body to a file and use body: {file: PATH}"
        case .binaryFormPart: "a form part holds bytes that are not text, which .http files cannot hold; send it as a file part"
        case .streamFormPart: "a form part is a stream, which .http files cannot hold; send it as a file part"
        case .harTooLarge(let limit): "the file holds more than the \(limit >> 20) MiB a HAR import reads"
        case .harNotJSON(let reason): "expected a HAR file (JSON): \(reason)"
        case .expectedHAR(let path, let expected): "\(path): expected \(expected)"
        }
    }
}

