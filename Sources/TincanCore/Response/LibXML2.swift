#if canImport(Glibc)
import Glibc
#endif

/// libxml2's streaming reader, loaded when the first XML body is parsed (issue 16, start-up).
///
/// Foundation's `XMLParser` links libxml2, and libxml2 links ICU and liblzma: the dynamic loader
/// then maps and relocates them at every start of `tincan` (0.4 ms of `tincan --version`'s
/// 4.3 ms, measured), though most runs never read XML. Here the library is opened on first use
/// instead, and only the reader's plain C functions are called, so no libxml2 header or struct
/// is needed.
///
/// The reader substitutes internal entities, within libxml2's own limits on their expansion
/// (a "billion laughs" document is refused); external entities and DTDs are never loaded, from
/// the network or from files.
struct LibXML2: Sendable {
    typealias Reader = OpaquePointer

    typealias ReaderForMemory = @Sendable @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> Reader?
    typealias ReaderCall = @Sendable @convention(c) (Reader?) -> Int32
    typealias ReaderString = @Sendable @convention(c) (Reader?) -> UnsafePointer<UInt8>?
    typealias SetErrorHandler = @Sendable @convention(c) (Reader?, ErrorHandler?, UnsafeMutableRawPointer?) -> Void
    typealias Free = @Sendable @convention(c) (Reader?) -> Void
    /// `xmlSetGenericErrorFunc`, with a handler that ignores its (variadic) arguments.
    typealias SetGenericErrorFunc = @Sendable @convention(c) (UnsafeMutableRawPointer?, (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void)?) -> Void

    let readerForMemory: ReaderForMemory
    let read: ReaderCall
    let nodeType: ReaderCall
    let constName: ReaderString
    let constValue: ReaderString
    let isEmptyElement: ReaderCall
    let moveToNextAttribute: ReaderCall
    let lineNumber: ReaderCall
    let columnNumber: ReaderCall
    let setErrorHandler: SetErrorHandler
    let free: Free
    let setGenericErrorFunc: SetGenericErrorFunc

    /// `xmlTextReaderErrorFunc`: the argument, the message, its severity and its locator.
    typealias ErrorHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, OpaquePointer?) -> Void

    /// `XML_PARSE_NOENT | XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING`: entities
    /// substituted, no network, and errors to the handler instead of standard error.
    static let options: Int32 = 1 << 1 | 1 << 11 | 1 << 5 | 1 << 6
    /// `XML_PARSER_SEVERITY_ERROR`.
    static let errorSeverity: Int32 = 4

    /// Keeps libxml2's errors that have no parser context (an encoding's conversion error, say)
    /// off standard error, where they would cut into a report or the TUI's screen; the reader's
    /// handler still gets the parser's own. The setting is the calling thread's.
    func silenceGenericErrors() {
        setGenericErrorFunc(nil) { _, _ in }
    }

    /// The node types the tree is built from (`xmlReaderTypes`).
    enum NodeType: Int32 {
        case element = 1, text = 3, cdata = 4, whitespace = 13, significantWhitespace = 14, endElement = 15
    }

    /// The library, opened once; nil with the reason when it cannot be.
    static let shared: Result<LibXML2, XMLTreeError> = load()

    private static func load() -> Result<LibXML2, XMLTreeError> {
        // libxml2 2.14 changed its soname from .so.2 to .so.16; the reader API is the same.
        guard let handle = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL) ?? dlopen("libxml2.so.16", RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(XMLTreeError(detail: "libxml2 could not be loaded (\(reason)); install the libxml2 package", line: 0, column: 0))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        typealias Setter = @convention(c) (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, OpaquePointer?) -> OpaquePointer?) -> Void
        guard let initialize = symbol("xmlInitParser", as: (@convention(c) () -> Void).self),
              let setLoader = symbol("xmlSetExternalEntityLoader", as: Setter.self),
              let readerForMemory = symbol("xmlReaderForMemory", as: ReaderForMemory.self),
              let read = symbol("xmlTextReaderRead", as: ReaderCall.self),
              let nodeType = symbol("xmlTextReaderNodeType", as: ReaderCall.self),
              let constName = symbol("xmlTextReaderConstName", as: ReaderString.self),
              let constValue = symbol("xmlTextReaderConstValue", as: ReaderString.self),
              let isEmptyElement = symbol("xmlTextReaderIsEmptyElement", as: ReaderCall.self),
              let moveToNextAttribute = symbol("xmlTextReaderMoveToNextAttribute", as: ReaderCall.self),
              let lineNumber = symbol("xmlTextReaderGetParserLineNumber", as: ReaderCall.self),
              let columnNumber = symbol("xmlTextReaderGetParserColumnNumber", as: ReaderCall.self),
              let setErrorHandler = symbol("xmlTextReaderSetErrorHandler", as: SetErrorHandler.self),
              let free = symbol("xmlFreeTextReader", as: Free.self),
              let setGenericErrorFunc = symbol("xmlSetGenericErrorFunc", as: SetGenericErrorFunc.self) else {
            return .failure(XMLTreeError(detail: "libxml2 lacks the reader API (libxml2 2.6 or later is needed)", line: 0, column: 0))
        }
        initialize()
        // Every external entity and DTD is refused, whatever a document asks for: general and
        // parameter entities and external subsets all load through this one loader. It is the
        // process's, so any other libxml2 user here (none in tincan) is refused them too.
        setLoader { _, _, _ in nil }
        return .success(LibXML2(readerForMemory: readerForMemory, read: read, nodeType: nodeType, constName: constName, constValue: constValue,
                                isEmptyElement: isEmptyElement, moveToNextAttribute: moveToNextAttribute, lineNumber: lineNumber,
                                columnNumber: columnNumber, setErrorHandler: setErrorHandler, free: free, setGenericErrorFunc: setGenericErrorFunc))
    }
}
