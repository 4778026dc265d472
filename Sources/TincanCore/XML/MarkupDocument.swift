internal import CLibXML2

/// An XML or HTML body parsed by libxml2, for XPath (session checks and captures).
///
/// XML is parsed with the hardening of every document (``LibXML2``); HTML with libxml2's HTML
/// parser, which reads a page as browsers do whatever its mistakes (unclosed `<p>` and `<li>`,
/// void elements, unquoted attributes, raw `<script>` text, HTML's named entities). The body is
/// handed over as UTF-8, converted from the Content-Type's charset.
public final class MarkupDocument {
    private let library: LibXML2.Library
    private let document: xmlDocPtr
    /// Whether the body was read as HTML.
    public let isHTML: Bool

    private init(library: LibXML2.Library, document: xmlDocPtr, isHTML: Bool) {
        self.library = library
        self.document = document
        self.isHTML = isHTML
    }

    deinit {
        library.pointee.xmlFreeDoc(document)
    }

    /// Reads a body: HTML when `html` says so, or when it is nil and the body starts like an
    /// HTML page (`<!DOCTYPE html` or `<html`); XML otherwise.
    ///
    /// - Parameters:
    ///   - bytes: The body, at most what the response's body limit let through.
    ///   - charset: The Content-Type's charset; UTF-8 when nil.
    /// - Returns: The document, or what is wrong with the body and where.
    public static func parse(_ bytes: [UInt8], html: Bool?, charset: String? = nil) -> Result<MarkupDocument, MarkupError> {
        let text = LibXML2.utf8(bytes, charset: charset)
        let isHTML = html ?? looksLikeHTML(text)
        func failure(_ message: String, line: Int = 1, column: Int = 1) -> Result<MarkupDocument, MarkupError> {
            .failure(MarkupError(message: message, line: line, column: column, html: isHTML))
        }
        let library: LibXML2.Library
        do {
            library = try LibXML2.open()
        } catch {
            return failure(error.reason, line: 0, column: 0)
        }
        guard text.count < Int32.max else { return failure("the body is 2 GiB or larger") }
        let api = library.pointee
        let (parsed, error) = LibXML2.recordingErrors(library) {
            text.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { characters in
                    isHTML ? api.htmlReadMemory(characters.baseAddress, Int32(characters.count), nil, "UTF-8", LibXML2.htmlOptions)
                        : api.xmlReadMemory(characters.baseAddress, Int32(characters.count), nil, "UTF-8", LibXML2.xmlOptions)
                }
            }
        }
        guard let parsed else {
            guard let error else { return failure(text.isEmpty ? "it is empty" : "libxml2 could not read it", line: 0, column: 0) }
            return failure(error.message, line: max(error.line, 1), column: max(error.column, 1))
        }
        let document = MarkupDocument(library: library, document: parsed, isHTML: isHTML)
        // As Hurl: a document without an element (a comment, or nothing) is not one.
        guard api.xmlDocGetRootElement(parsed) != nil else { return failure(text.isEmpty ? "it is empty" : "it has no element", line: 0, column: 0) }
        return .success(document)
    }

    /// Whether text starts as an HTML page does, after any byte-order mark and white space.
    private static func looksLikeHTML(_ text: [UInt8]) -> Bool {
        var start = text[...]
        if start.starts(with: [0xEF, 0xBB, 0xBF]) { start = start.dropFirst(3) }
        let head = String(decoding: start.drop { $0 == 0x20 || (0x09...0x0D).contains($0) }.prefix(14), as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    /// An XPath 1.0 expression's value on the document: a node set as the list of its nodes'
    /// string values (and `isNodeSet`), text, a number or a boolean as itself.
    ///
    /// The context node is the document. In XML, the prefixes the document declares are
    /// registered, and the first default namespace as `_`, as Hurl registers them.
    ///
    /// - Throws: ``XPathError`` when the expression does not compile, calls an unknown function,
    ///   meets a value of the wrong type, or does more than ``XPath/operationLimit`` operations.
    public func value(of expression: String) throws(XPathError) -> (value: ParameterValue, isNodeSet: Bool) {
        let api = library.pointee
        let compiled = try XPath.compile(expression, with: library)
        defer { api.xmlXPathFreeCompExpr(compiled) }
        guard let context = api.xmlXPathNewContext(document) else { throw XPathError(expression: expression, message: "libxml2 is out of memory", column: nil) }
        defer { api.xmlXPathFreeContext(context) }
        context.pointee.node = UnsafeMutableRawPointer(document).assumingMemoryBound(to: xmlNode.self)
        context.pointee.opLimit = XPath.operationLimit
        if !isHTML { registerNamespaces(in: context) }
        let (object, error) = LibXML2.recordingErrors(library) { api.xmlXPathCompiledEval(compiled, context) }
        guard let object else { throw XPathError(expression: expression, evaluationError: error) }
        defer { api.xmlXPathFreeObject(object) }
        switch object.pointee.type {
        case XPATH_NODESET:
            guard let set = object.pointee.nodesetval, let nodes = set.pointee.nodeTab else { return (.array([]), true) }
            return (.array((0..<Int(set.pointee.nodeNr)).map { .string(stringValue(of: nodes[$0])) }), true)
        case XPATH_STRING:
            return (.string(object.pointee.stringval.map { String(cString: $0) } ?? ""), false)
        case XPATH_NUMBER:
            return (XPath.value(of: object.pointee.floatval), false)
        case XPATH_BOOLEAN:
            return (.bool(object.pointee.boolval != 0), false)
        default:
            throw XPathError(expression: expression, message: "its value is not a node set, text, a number or a boolean", column: nil)
        }
    }

    /// XPath's string-value of a node: an element's or the document's text, all of it, in order;
    /// an attribute's value; a text node's text.
    private func stringValue(of node: xmlNodePtr?) -> String {
        let api = library.pointee
        guard let node, let buffer = api.xmlBufferCreate() else { return "" }
        defer { api.xmlBufferFree(buffer) }
        _ = api.xmlNodeBufGetContent(buffer, node)
        return api.xmlBufferContent(buffer).map { String(cString: $0) } ?? ""
    }

    /// Registers each prefix the document declares (a later declaration of a prefix replacing an
    /// earlier one), and the first default namespace as `_`, walking the elements in document
    /// order without recursion.
    private func registerNamespaces(in context: xmlXPathContextPtr) {
        let api = library.pointee
        var registeredDefault = false
        var node = api.xmlDocGetRootElement(document)
        while let current = node {
            if current.pointee.type == XML_ELEMENT_NODE {
                var declaration = current.pointee.nsDef
                while let namespace = declaration {
                    if let prefix = namespace.pointee.prefix {
                        _ = api.xmlXPathRegisterNs(context, prefix, namespace.pointee.href)
                    } else if !registeredDefault, let href = namespace.pointee.href {
                        registeredDefault = true
                        _ = api.xmlXPathRegisterNs(context, Array("_".utf8) + [0], href)
                    }
                    declaration = namespace.pointee.next
                }
            }
            if current.pointee.type == XML_ELEMENT_NODE, let child = current.pointee.children {
                node = child
                continue
            }
            var next: xmlNodePtr? = current
            while let at = next, at.pointee.next == nil {
                next = at.pointee.parent
                if next.map(UnsafeMutableRawPointer.init) == UnsafeMutableRawPointer(document) { next = nil }
            }
            node = next?.pointee.next
        }
    }
}

/// A body that could not be read as XML or HTML, and where.
public struct MarkupError: Error, Sendable, CustomStringConvertible {
    /// libxml2's description.
    public var message: String
    /// Where, 1-based (0 when the error is not at a place: libxml2 could not be opened, or the
    /// body is empty or has no element).
    public var line: Int
    public var column: Int
    /// Whether it was read as HTML.
    public var html: Bool

    public var description: String {
        "the body is not \(html ? "HTML" : "XML"): \(message)\(line > 0 ? " at line \(line), column \(column)" : "")"
    }
}
