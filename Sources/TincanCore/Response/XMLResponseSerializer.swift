import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

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

    /// Parses an XML document.
    ///
    /// - Throws: a description of the first error, with its line and column.
    public static func parse(_ data: [UInt8]) throws(XMLTreeError) -> XMLTree {
        let builder = Builder()
        let parser = XMLParser(data: Data(data))
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        if !parser.parse() || builder.root == nil {
            let detail = builder.failure ?? parser.parserError?.localizedDescription ?? "no root element"
            throw XMLTreeError(detail: detail, line: parser.lineNumber, column: parser.columnNumber)
        }
        return builder.root!
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLTree] = []
        /// Text gathered since the last child or tag: the parser delivers it in pieces (around
        /// entities, for one), so it is joined first and trimmed once.
        var pendingText = ""
        var root: XMLTree?
        var failure: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            flushText()
            let ordered = attributes.sorted { $0.key < $1.key }.map { XMLAttribute(name: $0.key, value: $0.value) }
            stack.append(XMLTree(name: qualifiedName ?? name, attributes: ordered))
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            flushText()
            guard let finished = stack.popLast() else { return }
            if stack.isEmpty {
                root = finished
            } else {
                stack[stack.count - 1].children.append(.element(finished))
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            pendingText += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            pendingText += String(decoding: block, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
            failure = failure ?? "\(error.localizedDescription)"
        }

        private func flushText() {
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
