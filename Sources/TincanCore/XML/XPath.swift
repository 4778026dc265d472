internal import CLibXML2

/// XPath 1.0, from libxml2 (the XPath of Hurl's checks, which use libxml2 too).
public enum XPath {
    /// The most operations one evaluation may do before it stops (libxml2's `opLimit`), so that
    /// a hostile expression on a large body ends in about a second instead of running on.
    static let operationLimit: UInt = 50_000_000

    /// Checks an expression when a session is read: it must compile, and evaluating it on an
    /// empty document must not call an unknown function, give a function the wrong number of
    /// arguments or a value of the wrong type, or use a variable.
    ///
    /// - Throws: ``XPathError`` saying what is wrong, and for a syntax error at which column.
    public static func validate(_ expression: String) throws(XPathError) {
        let library: LibXML2.Library
        do {
            library = try LibXML2.open()
        } catch {
            throw XPathError(expression: expression, message: error.reason, column: nil)
        }
        let api = library.pointee
        let compiled = try compile(expression, with: library)
        defer { api.xmlXPathFreeCompExpr(compiled) }
        guard let context = api.xmlXPathNewContext(nil) else { return }
        defer { api.xmlXPathFreeContext(context) }
        context.pointee.opLimit = operationLimit
        let (object, error) = LibXML2.recordingErrors(library) { api.xmlXPathCompiledEval(compiled, context) }
        guard let object else {
            // A prefix is declared by the body the expression is evaluated on, so it cannot be
            // known now.
            if let error, XPathError.Code(error) == XPATH_UNDEF_PREFIX_ERROR { return }
            throw XPathError(expression: expression, evaluationError: error)
        }
        api.xmlXPathFreeObject(object)
    }

    /// Compiles an expression.
    ///
    /// - Throws: ``XPathError`` naming the column where libxml2 stopped and what is wrong there.
    static func compile(_ expression: String, with library: LibXML2.Library) throws(XPathError) -> xmlXPathCompExprPtr {
        try checkSize(expression)
        let (compiled, error) = LibXML2.recordingErrors(library) { library.pointee.xmlXPathCompile(expression) }
        guard let compiled else { throw XPathError(expression: expression, compileError: error) }
        return compiled
    }

    /// The longest expression, and the deepest nesting of brackets, compiled. libxml2 compiles
    /// and evaluates by recursion, so a long enough chain of operators or brackets would
    /// exhaust a thread's stack: 2,000 characters stay far below that on a 256 KiB stack.
    static let maximumLength = 2_000
    static let maximumDepth = 64

    private static func checkSize(_ expression: String) throws(XPathError) {
        guard expression.count <= maximumLength else {
            throw XPathError(expression: String(expression.prefix(40)) + "…", message: "it is longer than \(maximumLength) characters", column: nil)
        }
        var depth = 0
        var quote: Character?
        for (index, character) in expression.enumerated() {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "(" || character == "[" {
                depth += 1
                guard depth <= maximumDepth else {
                    throw XPathError(expression: expression, message: "it nests brackets more than \(maximumDepth) deep", column: index + 1)
                }
            } else if character == ")" || character == "]" {
                depth -= 1
            }
        }
    }

    /// A number as a check's value: an integer when it is one, else a double; NaN and the
    /// infinities as XPath writes them.
    static func value(of number: Double) -> ParameterValue {
        if number == number.rounded(), let integer = Int64(exactly: number) { return .integer(integer) }
        if number.isNaN { return .string("NaN") }
        if number.isInfinite { return .string(number > 0 ? "Infinity" : "-Infinity") }
        return .double(number)
    }
}

/// An XPath expression that could not be compiled or evaluated.
public struct XPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The expression as written.
    public var expression: String
    /// What is wrong.
    public var message: String
    /// Where (1-based, in characters), or nil when libxml2 does not say.
    public var column: Int?

    public init(expression: String, message: String, column: Int?) {
        self.expression = expression
        self.message = message
        self.column = column
    }

    public var description: String {
        "bad XPath '\(expression)': \(message)\(column.map { " at column \($0)" } ?? "")"
    }

    /// libxml2's XPath error code (`xmlXPathError`).
    typealias Code = xmlXPathError

    /// A compile error: libxml2's code and the offset where it stopped, said plainly.
    init(expression: String, compileError error: LibXML2.Error?) {
        guard let error else {
            self.init(expression: expression, message: "libxml2 could not compile it", column: nil)
            return
        }
        // The offset counts UTF-8 bytes; the column counts characters.
        let bytes = Array(expression.utf8)
        let offset = min(max(error.offset, 0), bytes.count)
        let column = String(decoding: bytes[..<offset], as: UTF8.self).count + 1
        let rest = String(decoding: bytes[offset...], as: UTF8.self)
        let found = rest.first.map { "'\($0)'" }
        let message: String = switch Code(error) {
        case XPATH_UNFINISHED_LITERAL_ERROR: "a string is never closed (expected its closing quote)"
        case XPATH_INVALID_PREDICATE_ERROR: found.map { "expected ']' to close the predicate, found \($0)" } ?? "expected ']' to close the predicate"
        case XPATH_NUMBER_ERROR: "a number is not written as XPath writes numbers (digits, one '.')"
        case XPATH_VARIABLE_REF_ERROR: "expected a variable's name after '$'"
        case XPATH_INVALID_CHAR_ERROR, XPATH_ENCODING_ERROR: found.map { "\($0) cannot appear here" } ?? "a character cannot appear here"
        case XPATH_RECURSION_LIMIT_EXCEEDED: "it nests too deeply"
        case XPATH_EXPR_ERROR: found.map { "unexpected \($0)" } ?? "the expression ends too soon"
        default: Self.lowercased(error.message)
        }
        self.init(expression: expression, message: message, column: column)
    }

    /// An evaluation error: libxml2's code said plainly (libxml2 gives no position).
    init(expression: String, evaluationError error: LibXML2.Error?) {
        guard let error else {
            self.init(expression: expression, message: "libxml2 could not evaluate it", column: nil)
            return
        }
        let message: String = switch Code(error) {
        case XPATH_UNKNOWN_FUNC_ERROR: "it calls a function XPath 1.0 does not have"
        case XPATH_INVALID_ARITY: "a function is given the wrong number of arguments"
        case XPATH_INVALID_TYPE: "a function or operator is given a value of the wrong type (count(), sum() and '|' take node sets)"
        case XPATH_INVALID_OPERAND: "an operator is given a value it cannot use"
        case XPATH_UNDEF_VARIABLE_ERROR, XPATH_FORBID_VARIABLE_ERROR: "it uses a variable, and checks define none"
        case XPATH_UNDEF_PREFIX_ERROR: "it uses a namespace prefix the body does not declare"
        case XPATH_OP_LIMIT_EXCEEDED: "it does too much work on this body (more than \(XPath.operationLimit) operations)"
        case XPATH_RECURSION_LIMIT_EXCEEDED: "it nests too deeply"
        default: Self.lowercased(error.message)
        }
        self.init(expression: expression, message: message, column: nil)
    }

    private static func lowercased(_ message: String) -> String {
        message.prefix(1).lowercased() + message.dropFirst()
    }
}

extension xmlXPathError {
    /// The XPath code of an error libxml2 reported (`XML_XPATH_*` less `XML_XPATH_EXPRESSION_OK`).
    init(_ error: LibXML2.Error) {
        self.init(UInt32(bitPattern: error.code - Int32(XML_XPATH_EXPRESSION_OK.rawValue)))
    }
}
