import Foundation
internal import CLibXML2

/// An XML element: name, attributes in document order, and children (elements and text).
public struct XMLTree: Sendable, Hashable {
    /// A child: an element or a run of text.
    public enum Child: Sendable, Hashable {
        case element(XMLTree)
        case text(String)
    }

    /// The element's qualified name.
    public var name: String
    /// The attributes as written.
    public var attributes: [XMLAttribute]
    /// The children in document order; whitespace-only text is dropped.
    public var children: [Child]

    /// An attribute.
    public struct XMLAttribute: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    /// Creates an element.
    public init(name: String, attributes: [XMLAttribute] = [], children: [Child] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// The child elements.
    public var elements: [XMLTree] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The text directly inside this element, joined.
    public var text: String {
        children.compactMap { if case .text(let text) = $0 { text } else { nil } }.joined()
    }

    /// The element re-serialized with two-space indentation, for display.
    public func indented(level: Int = 0) -> String {
        let pad = String(repeating: "  ", count: level)
        let attributes = self.attributes.map { " \($0.name)=\"\(Self.escape($0.value, quote: true))\"" }.joined()
        if children.isEmpty { return "\(pad)<\(name)\(attributes)/>" }
        if case .text(let text)? = children.first, children.count == 1 {
            return "\(pad)<\(name)\(attributes)>\(Self.escape(text, quote: false))</\(name)>"
        }
        var lines = ["\(pad)<\(name)\(attributes)>"]
        for child in children {
            switch child {
            case .element(let element): lines.append(element.indented(level: level + 1))
            case .text(let text): lines.append(pad + "  " + Self.escape(text, quote: false))
            }
        }
        lines.append("\(pad)</\(name)>")
        return lines.joined(separator: "\n")
    }

    /// Escapes `&`, `<` and `>` (and `"` when `quote` is set, for attribute values).
    public static func escape(_ text: String, quote: Bool) -> String {
        var result = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        if quote { result = result.replacingOccurrences(of: "\"", with: "&quot;") }
        return result
    }

    /// Parses an XML document with libxml2's streaming reader (opened on first use; see
    /// ``LibXML2``), hardened as every document is.
    ///
    /// Text and CDATA gathered between tags are joined and trimmed, and whitespace-only text is
    /// dropped; attributes are sorted by name; internal entities are replaced by their text.
    ///
    /// - Throws: libxml2's description of the first error, with its line and column.
    public static func parse(_ data: [UInt8]) throws(XMLTreeError) -> XMLTree {
        let library: LibXML2.Library
        do {
            library = try LibXML2.open()
        } catch {
            throw XMLTreeError(detail: error.reason, line: 0, column: 0)
        }
        guard data.count < Int32.max else { throw XMLTreeError(detail: "the document is 2 GiB or larger", line: 0, column: 0) }
        let (result, error) = LibXML2.recordingErrors(library) {
            data.withUnsafeBufferPointer { buffer in read(buffer, with: library.pointee) }
        }
        switch result {
        case .success(let tree): return tree
        case .failure(let failure):
            throw XMLTreeError(detail: error?.message ?? failure.detail, line: failure.line, column: failure.column)
        }
    }

    /// Reads the document in `buffer`, which libxml2 reads in place: it must outlive the reader.
    /// A failure's detail is a fallback for when libxml2 reported no error of its own.
    private static func read(_ buffer: UnsafeBufferPointer<UInt8>, with library: tincan_libxml2) -> Result<XMLTree, XMLTreeError> {
        let reader = buffer.withMemoryRebound(to: CChar.self) { characters in
            library.xmlReaderForMemory(characters.baseAddress, Int32(characters.count), nil, nil, LibXML2.xmlOptions)
        }
        guard let reader else { return .failure(XMLTreeError(detail: "libxml2 could not start reading the document", line: 0, column: 0)) }
        defer { library.xmlFreeTextReader(reader) }
        func failure(_ detail: String) -> Result<XMLTree, XMLTreeError> {
            .failure(XMLTreeError(detail: detail, line: Int(library.xmlTextReaderGetParserLineNumber(reader)),
                                  column: Int(library.xmlTextReaderGetParserColumnNumber(reader))))
        }
        var builder = Builder()
        func text(_ pointer: UnsafePointer<xmlChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        while true {
            let status = library.xmlTextReaderRead(reader)
            if status == 0 { break }
            guard status > 0 else { return failure("the document is not well-formed XML") }
            switch xmlReaderTypes(UInt32(library.xmlTextReaderNodeType(reader))) {
            case XML_READER_TYPE_ELEMENT:
                let name = text(library.xmlTextReaderConstName(reader))
                let isEmpty = library.xmlTextReaderIsEmptyElement(reader) == 1
                var attributes: [XMLAttribute] = []
                while library.xmlTextReaderMoveToNextAttribute(reader) == 1 {
                    attributes.append(XMLAttribute(name: text(library.xmlTextReaderConstName(reader)), value: text(library.xmlTextReaderConstValue(reader))))
                }
                builder.start(XMLTree(name: name, attributes: attributes.sorted { $0.name < $1.name }))
                if isEmpty { builder.end() }
            case XML_READER_TYPE_END_ELEMENT:
                builder.end()
            case XML_READER_TYPE_TEXT, XML_READER_TYPE_CDATA, XML_READER_TYPE_WHITESPACE, XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
                builder.pendingText += text(library.xmlTextReaderConstValue(reader))
            default:
                break
            }
        }
        guard let root = builder.root else { return failure("no root element") }
        return .success(root)
    }

    /// The elements open so far, and the text since the last tag.
    private struct Builder {
        var stack: [XMLTree] = []
        /// Text gathered since the last child or tag: the reader gives it in pieces (text, CDATA,
        /// whitespace), so it is joined first and trimmed once.
        var pendingText = ""
        var root: XMLTree?

        mutating func start(_ element: XMLTree) {
            flushText()
            stack.append(element)
        }

        mutating func end() {
            flushText()
            guard let finished = stack.popLast() else { return }
            if stack.isEmpty {
                root = finished
            } else {
                stack[stack.count - 1].children.append(.element(finished))
            }
        }

        private mutating func flushText() {
            defer { pendingText = "" }
            guard !stack.isEmpty else { return }
            let trimmed = pendingText.trimmingWhitespaceAndNewlines()
            if !trimmed.isEmpty { stack[stack.count - 1].children.append(.text(trimmed)) }
        }
    }
}

/// XML that could not be parsed.
public struct XMLTreeError: Error, Sendable, CustomStringConvertible {
    public var detail: String
    public var line: Int
    public var column: Int
    public var description: String { "line \(line), column \(column): \(detail)" }
}

/// Decodes XML (`application/xml`, `text/xml`) into an ``XMLTree``; malformed XML is an error.
public struct XMLResponseSerializer: ResponseSerializer {
    public var acceptableStatusCodes: StatusCodeSet? = .successful
    public var acceptableContentTypes: Set<String>? = ["application/xml", "text/xml"]
    public var kind: ResponseSerializerKind { .xml }

    /// Creates the serializer.
    public init() {}

    public func serialize(_ response: HTTPResponse, data: [UInt8], request: HTTPRequest?) -> ResponseSerialization {
        validatingThenDecoding(response, data: data, request: request) { () throws(ResponseSerializationError) -> DecodedBody in
            if data.isEmpty { return .none }
            do {
                return .xml(try XMLTree.parse(data))
            } catch {
                throw ResponseSerializationError(.decodingFailed(format: "XML", detail: "\(error)"), response: response, data: data)
            }
        }
    }
}
