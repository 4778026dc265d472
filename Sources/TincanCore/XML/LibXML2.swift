internal import CLibXML2

/// libxml2, opened when XML is first parsed or an XPath expression first compiled (issue 16,
/// start-up).
///
/// Foundation's `XMLParser` links libxml2, and libxml2 links ICU and liblzma: the dynamic loader
/// then maps and relocates them at every start of `tincan` (0.4 ms of `tincan --version`'s
/// 4.3 ms, measured), though most runs never read XML. `CLibXML2` opens the library instead, on
/// first use, and hands back its functions typed by libxml2's own headers.
///
/// Every document is parsed with the same hardening: no network, errors recorded instead of
/// printed, internal entities substituted within libxml2's own limits on their expansion (a
/// "billion laughs" document is refused; no `XML_PARSE_HUGE`), and external entities and DTDs
/// never loaded, from the network or from files (CLibXML2's entity loader refuses them all).
enum LibXML2 {
    typealias Library = UnsafePointer<tincan_libxml2>

    /// The library, opened on the first call.
    ///
    /// - Throws: Why it could not be opened (not installed, or too old).
    static func open() throws(Unavailable) -> Library {
        guard let library = tincan_libxml2_open() else { throw Unavailable(reason: String(cString: tincan_libxml2_failure())) }
        return library
    }

    /// libxml2 could not be opened.
    struct Unavailable: Swift.Error {
        var reason: String
    }

    /// `XML_PARSE_NOENT | XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING`: internal
    /// entities substituted, no network, and errors recorded instead of printed.
    static let xmlOptions = Int32(XML_PARSE_NOENT.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)

    /// HTML as browsers read it, whatever its mistakes (`HTML_PARSE_RECOVER`), with no network
    /// and no messages.
    static let htmlOptions = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue)

    /// The first error libxml2 reported.
    struct Error: Swift.Error {
        /// libxml2's code (`xmlParserErrors`: `XML_XPATH_*` for XPath).
        var code: Int32
        /// The message, without its final newline.
        var message: String
        /// A parser's line and column, 1-based (0 when unknown).
        var line: Int
        var column: Int
        /// XPath: where in the expression compiling stopped, in UTF-8 bytes from its start.
        var offset: Int
        /// Whether it is an error rather than a warning.
        var isError: Bool
    }

    /// Runs `body` with libxml2's errors on this thread recorded, and never printed.
    ///
    /// - Returns: What `body` returned, and the first error libxml2 reported (the first warning
    ///   when there was no error), if any.
    static func recordingErrors<Result>(_ library: Library, _ body: () -> Result) -> (result: Result, error: Error?) {
        var recorded = tincan_libxml2_error()
        let result = withUnsafeMutablePointer(to: &recorded) { pointer in
            tincan_libxml2_record_errors(library, pointer)
            defer { tincan_libxml2_stop_recording(library) }
            return body()
        }
        guard recorded.reported != 0 else { return (result, nil) }
        let message = withUnsafeBytes(of: recorded.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return (result, Error(code: recorded.code, message: message, line: Int(recorded.line), column: Int(recorded.column),
                              offset: Int(recorded.offset), isError: recorded.level >= Int32(XML_ERR_ERROR.rawValue)))
    }

    /// `bytes` as UTF-8 text for libxml2, which is told the encoding: converted from `charset`
    /// (the Content-Type's; UTF-8 when none), an invalid sequence replaced by U+FFFD.
    static func utf8(_ bytes: [UInt8], charset: String?) -> [UInt8] {
        TextEncoding.utf8(bytes, charset: charset) ?? Array(String(decoding: bytes, as: UTF8.self).utf8)
    }
}
