import Foundation

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

    /// Parses an XML document with libxml2's reader (loaded on first use; see ``LibXML2``).
    ///
    /// Text and CDATA gathered between tags are joined and trimmed, and whitespace-only text is
    /// dropped; attributes are sorted by name; internal entities are replaced by their text.
    ///
    /// - Throws: libxml2's description of the first error, with its line and column.
    public static func parse(_ data: [UInt8]) throws(XMLTreeError) -> XMLTree {
        let library = try LibXML2.shared.get()
        guard data.count < Int32.max else { throw XMLTreeError(detail: "the document is 2 GiB or larger", line: 0, column: 0) }
        return try data.withUnsafeBufferPointer { buffer throws(XMLTreeError) in try read(buffer, with: library) }
    }

    /// Reads the document in `buffer`, which libxml2 reads in place: it must outlive the reader.
    private static func read(_ buffer: UnsafeBufferPointer<UInt8>, with library: LibXML2) throws(XMLTreeError) -> XMLTree {
        library.silenceGenericErrors()
        let errors = ErrorRecord()
        // The handler holds the record unretained: it is kept alive until the reader is freed.
        defer { withExtendedLifetime(errors) {} }
        let reader = buffer.withMemoryRebound(to: CChar.self) { characters in
            library.readerForMemory(characters.baseAddress, Int32(characters.count), nil, nil, LibXML2.options)
        }
        guard let reader else { throw XMLTreeError(detail: "libxml2 could not start reading the document", line: 0, column: 0) }
        defer { library.free(reader) }
        library.setErrorHandler(reader, { record, message, severity, _ in
            guard let record, let message else { return }
            Unmanaged<ErrorRecord>.fromOpaque(record).takeUnretainedValue().note(String(cString: message), severity: severity)
        }, Unmanaged.passUnretained(errors).toOpaque())
        var builder = Builder()
        func text(_ pointer: UnsafePointer<UInt8>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        while true {
            let status = library.read(reader)
            if status == 0 { break }
            guard status > 0 else {
                throw XMLTreeError(detail: errors.message ?? "the document is not well-formed XML",
                                   line: Int(library.lineNumber(reader)), column: Int(library.columnNumber(reader)))
            }
            switch LibXML2.NodeType(rawValue: library.nodeType(reader)) {
            case .element:
                let name = text(library.constName(reader))
                let isEmpty = library.isEmptyElement(reader) == 1
                var attributes: [XMLAttribute] = []
                while library.moveToNextAttribute(reader) == 1 {
                    attributes.append(XMLAttribute(name: text(library.constName(reader)), value: text(library.constValue(reader))))
                }
                builder.start(XMLTree(name: name, attributes: attributes.sorted { $0.name < $1.name }))
                if isEmpty { builder.end() }
            case .endElement:
                builder.end()
            case .text, .cdata, .whitespace, .significantWhitespace:
                builder.pendingText += text(library.constValue(reader))
            case nil:
                break
            }
        }
        guard let root = builder.root else {
            throw XMLTreeError(detail: errors.message ?? "no root element", line: Int(library.lineNumber(reader)), column: Int(library.columnNumber(reader)))
        }
        return root
    }

    /// The first error libxml2 reports (warnings only when there is no error).
    private final class ErrorRecord {
        var message: String?
        var isError = false

        func note(_ text: String, severity: Int32) {
            let isError = severity == LibXML2.errorSeverity
            guard message == nil || (isError && !self.isError) else { return }
            message = text.trimmingWhitespaceAndNewlines()
            self.isError = isError
        }
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
