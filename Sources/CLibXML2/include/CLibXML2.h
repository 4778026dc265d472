// libxml2, typed from its own headers and opened at run time (docs/ARCHITECTURE.md, "XML").
//
// Linking libxml2 would cost every start of tincan the loading of libxml2, ICU and liblzma (issue
// 16), though most runs never read XML. So nothing here links it: `tincan_libxml2_open()` opens the
// library on first use and fills a table of its functions, each field declared with the type of
// libxml2's own declaration (`__typeof__`), so the C compiler checks every signature against the
// headers and Swift calls them with libxml2's types (xmlDocPtr, xmlXPathObjectPtr...).
//
// Only long-standing API is used: libxml2 2.9 (Debian 12, soname .so.2) has it all, and 2.14
// (.so.16) keeps it.
#ifndef TINCAN_CLIBXML2_H
#define TINCAN_CLIBXML2_H

#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, and then its encoding.h includes ICU's headers, whose
// definitions clash with Foundation's own copy of ICU in any Swift file that imports both. Only
// a struct Tincan never touches (xmlCharEncodingHandler) depends on it.
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#define TINCAN_LIBXML2_FUNCTION(name) __typeof__(name) *_Nonnull name

/// The functions of libxml2 that Tincan calls, resolved with dlsym.
typedef struct tincan_libxml2 {
    // The streaming reader, for a response's XMLTree.
    TINCAN_LIBXML2_FUNCTION(xmlReaderForMemory);
    TINCAN_LIBXML2_FUNCTION(xmlTextReaderRead);
    TINCAN_LIBXML2_FUNCTION(xmlTextReaderNodeType);
    TINCAN_LIBXML2_FUNCTION(xmlTextReaderConstName);
    TINCAN_LIBXML2_FUNCTION(xmlTextReaderConstValue);
    TINCAN_LIBXML2_FUNCTION(xmlTextReaderIsEmptyElement);
    TINCAN_LIBXML2_FUNCTION(xmlTextReaderMoveToNextAttribute);
    TINCAN_LIBXML2_FUNCTION(xmlTextReaderGetParserLineNumber);
    TINCAN_LIBXML2_FUNCTION(xmlTextReaderGetParserColumnNumber);
    TINCAN_LIBXML2_FUNCTION(xmlFreeTextReader);
    // Documents, for XPath.
    TINCAN_LIBXML2_FUNCTION(xmlReadMemory);
    TINCAN_LIBXML2_FUNCTION(htmlReadMemory);
    TINCAN_LIBXML2_FUNCTION(xmlFreeDoc);
    TINCAN_LIBXML2_FUNCTION(xmlDocGetRootElement);
    TINCAN_LIBXML2_FUNCTION(xmlBufferCreate);
    TINCAN_LIBXML2_FUNCTION(xmlBufferContent);
    TINCAN_LIBXML2_FUNCTION(xmlBufferFree);
    TINCAN_LIBXML2_FUNCTION(xmlNodeBufGetContent);
    // XPath.
    TINCAN_LIBXML2_FUNCTION(xmlXPathCompile);
    TINCAN_LIBXML2_FUNCTION(xmlXPathFreeCompExpr);
    TINCAN_LIBXML2_FUNCTION(xmlXPathNewContext);
    TINCAN_LIBXML2_FUNCTION(xmlXPathFreeContext);
    TINCAN_LIBXML2_FUNCTION(xmlXPathRegisterNs);
    TINCAN_LIBXML2_FUNCTION(xmlXPathCompiledEval);
    TINCAN_LIBXML2_FUNCTION(xmlXPathFreeObject);
    // Errors and set-up.
    TINCAN_LIBXML2_FUNCTION(xmlInitParser);
    TINCAN_LIBXML2_FUNCTION(xmlSetExternalEntityLoader);
    TINCAN_LIBXML2_FUNCTION(xmlSetGenericErrorFunc);
    TINCAN_LIBXML2_FUNCTION(xmlSetStructuredErrorFunc);
} tincan_libxml2;

/// The first error libxml2 reported while errors were being recorded (see
/// `tincan_libxml2_record_errors`): an error when there was one, else the first warning.
typedef struct tincan_libxml2_error {
    /// Whether anything was reported.
    int reported;
    /// libxml2's domain and code (`xmlErrorDomain`, `xmlParserErrors`; `XML_XPATH_*` for XPath).
    int domain;
    int code;
    /// `xmlErrorLevel`.
    int level;
    /// A parser's line and column (1-based; 0 when unknown).
    int line;
    int column;
    /// XPath: the offset in the expression, in bytes, where compiling stopped.
    int offset;
    /// The message, without its final newline, cut to fit.
    char message[240];
} tincan_libxml2_error;

/// libxml2, opened and set up on the first call (thread-safe); NULL when it cannot be opened or
/// lacks a function, and then `tincan_libxml2_failure()` says why.
///
/// Set-up: every external entity and DTD is refused, from files and the network, whatever a
/// document asks for (general and parameter entities and external subsets all load through the
/// one external entity loader, which is the process's).
const tincan_libxml2 *_Nullable tincan_libxml2_open(void);

/// Why `tincan_libxml2_open()` returned NULL.
const char *_Nonnull tincan_libxml2_failure(void);

/// Records libxml2's errors on this thread into `error` (which must outlive the recording), and
/// keeps them, and libxml2's errors that have no parser (an encoding's conversion error, say),
/// off standard error, where they would cut into a report or the TUI's screen.
void tincan_libxml2_record_errors(const tincan_libxml2 *_Nonnull library, tincan_libxml2_error *_Nonnull error);

/// Ends this thread's recording; errors are then dropped (never printed) until the next.
void tincan_libxml2_stop_recording(const tincan_libxml2 *_Nonnull library);

#endif
