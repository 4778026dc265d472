/// An XML or HTML document as XPath reads it: a flat list of nodes in document order, each with
/// its parent and children.
///
/// The reader is small and tolerant where HTML needs it and strict where XML does. In HTML,
/// names are lowercased, void elements (`<br>`, `<meta>`, `<img>`…) never hold children, an
/// unclosed `<p>`, `<li>`, `<dt>`, `<dd>`, `<tr>`, `<td>`, `<th>` or `<option>` ends where the
/// next one (or a block that cannot be inside it) starts, attribute values may go without
/// quotes, `<script>` and `<style>` hold raw text, and an end tag with no open element is
/// ignored. In XML, an end tag must close the open element and every element must be closed,
/// or the error names the line and column. Comments, `<!DOCTYPE>` and `<?…?>` are skipped;
/// CDATA is text; the five XML entities and numeric references are decoded (and `&nbsp;` in
/// HTML). Namespaces are not processed: `a:b` is a name like any other.
struct MarkupDocument: Sendable {
    enum Kind: Sendable, Equatable {
        case root
        case element(String)
        case attribute(String, String)
        case text(String)
    }

    struct Node: Sendable {
        var kind: Kind
        var parent: Int?
        var children: [Int] = []
        var attributes: [Int] = []
    }

    /// Node 0 is the document; the rest follow in document order.
    private(set) var nodes: [Node] = [Node(kind: .root, parent: nil)]

    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]
    /// Start tags that end an open `<p>`.
    static let closesParagraph: Set<String> = ["address", "article", "aside", "blockquote", "div", "dl", "fieldset", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav", "ol", "p", "pre", "section", "table", "ul"]
    /// An open element ended by a start tag of one of these names, unless one of the scope's names stands between.
    static let implicitEnds: [String: (ends: Set<String>, scope: Set<String>)] = [
        "li": (["li"], ["ul", "ol"]),
        "dt": (["dt", "dd"], ["dl"]),
        "dd": (["dt", "dd"], ["dl"]),
        "tr": (["tr"], ["table", "tbody", "thead", "tfoot"]),
        "td": (["td", "th"], ["tr", "table"]),
        "th": (["td", "th"], ["tr", "table"]),
        "option": (["option"], ["select", "datalist"]),
    ]

    /// Reads a body: HTML when `html` says so, or when it is nil and the body starts like an
    /// HTML page (`<!DOCTYPE html` or `<html`). The error says what is wrong and where.
    static func parse(_ bytes: [UInt8], html: Bool?) -> Result<MarkupDocument, MarkupError> {
        let text = String(decoding: bytes, as: UTF8.self)
        let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }.prefix(14).lowercased()
        let isHTML = html ?? (start.hasPrefix("<!doctype html") || start.hasPrefix("<html"))
        var reader = MarkupReader(text: Array(text.unicodeScalars), html: isHTML)
        do {
            return .success(try reader.read())
        } catch {
            return .failure(error)
        }
    }

    mutating func append(_ kind: Kind, to parent: Int) -> Int {
        nodes.append(Node(kind: kind, parent: parent))
        let index = nodes.count - 1
        if case .attribute = kind { nodes[parent].attributes.append(index) } else { nodes[parent].children.append(index) }
        return index
    }

    /// The element's name, or nil for other nodes.
    func name(_ index: Int) -> String? {
        switch nodes[index].kind {
        case .element(let name), .attribute(let name, _): name
        default: nil
        }
    }

    /// XPath's string-value: an element's or the document's text, all of it, in order.
    func stringValue(_ index: Int) -> String {
        switch nodes[index].kind {
        case .text(let text), .attribute(_, let text): return text
        case .root, .element:
            return descendantsOrSelf(index).map { if case .text(let text) = nodes[$0].kind { text } else { "" } }.joined()
        }
    }

    /// The node and everything below it (attributes aside), in document order.
    func descendantsOrSelf(_ index: Int) -> [Int] {
        depthFirst(from: index) { nodes[$0].children }
    }
}

/// `root` and every node below it, depth first in document order, without recursion (so that a
/// deeply nested body cannot exhaust the stack).
func depthFirst<Node>(from root: Node, children: (Node) -> [Node]) -> [Node] {
    var result: [Node] = []
    var stack = [root]
    while let next = stack.popLast() {
        result.append(next)
        stack += children(next).reversed()
    }
    return result
}

/// Where markup could not be read.
struct MarkupError: Error, CustomStringConvertible {
    var message: String
    var line: Int
    var column: Int
    var html: Bool

    var description: String {
        "the body is not \(html ? "HTML" : "XML"): \(message) at line \(line), column \(column)"
    }
}

/// Builds a ``MarkupDocument`` from text.
private struct MarkupReader {
    let text: [Unicode.Scalar]
    let html: Bool
    var index = 0
    var document = MarkupDocument()
    /// The open elements, innermost last, with where each started (for errors).
    var openElements: [(node: Int, name: String, at: Int)] = []

    init(text: [Unicode.Scalar], html: Bool) {
        self.text = text
        self.html = html
    }

    mutating func read() throws(MarkupError) -> MarkupDocument {
        var pending = ""
        while index < text.count {
            if text[index] == "<" {
                flush(&pending)
                try tag()
            } else {
                let start = index
                while index < text.count, text[index] != "<" { index += 1 }
                pending += decode(String(String.UnicodeScalarView(text[start..<index])))
            }
        }
        flush(&pending)
        if !html, let last = openElements.last { throw error("<\(last.name)> is never closed", at: last.at) }
        if !html, document.nodes[0].children.allSatisfy({ if case .element = document.nodes[$0].kind { false } else { true } }) {
            throw error("no root element", at: 0)
        }
        return document
    }

    private var current: Int { openElements.last?.node ?? 0 }

    private mutating func flush(_ pending: inout String) {
        guard !pending.isEmpty else { return }
        if openElements.isEmpty, pending.allSatisfy(\.isWhitespace) {
            pending = ""
            return
        }
        _ = document.append(.text(pending), to: current)
        pending = ""
    }

    private mutating func tag() throws(MarkupError) {
        let start = index
        if starts(with: "<!--") {
            guard let end = find("-->", from: index + 4) else { throw error("a comment is never closed (-->)", at: start) }
            index = end + 3
        } else if starts(with: "<![CDATA[") {
            guard let end = find("]]>", from: index + 9) else { throw error("CDATA is never closed (]]>)", at: start) }
            _ = document.append(.text(String(String.UnicodeScalarView(text[(index + 9)..<end]))), to: current)
            index = end + 3
        } else if starts(with: "<!") || starts(with: "<?") {
            guard let end = find(">", from: index + 2) else { throw error("a declaration is never closed (>)", at: start) }
            index = end + 1
        } else if starts(with: "</") {
            index += 2
            let name = self.name()
            skipSpaces()
            guard index < text.count, text[index] == ">" else { throw error("'>' to end </\(name)", at: index) }
            index += 1
            try close(name, at: start)
        } else {
            index += 1
            let name = self.name()
            guard !name.isEmpty else {
                if html {
                    _ = document.append(.text("<"), to: current)
                    return
                }
                throw error("an element name after '<'", at: index)
            }
            try openElement(name, at: start)
        }
    }

    private mutating func openElement(_ name: String, at start: Int) throws(MarkupError) {
        if html {
            if MarkupDocument.closesParagraph.contains(name), openElements.contains(where: { $0.name == "p" }) { closeImplicitly("p", scope: ["div", "td", "th", "li", "body", "table"]) }
            for (element, rule) in MarkupDocument.implicitEnds where rule.ends.contains(name) {
                closeImplicitly(element, scope: rule.scope)
            }
        }
        let element = document.append(.element(name), to: current)
        var selfClosing = false
        while true {
            skipSpaces()
            guard index < text.count else { throw error("'>' to end <\(name)", at: start) }
            if text[index] == ">" {
                index += 1
                break
            }
            if text[index] == "/", index + 1 < text.count, text[index + 1] == ">" {
                index += 2
                selfClosing = true
                break
            }
            let attribute = self.name()
            guard !attribute.isEmpty else { throw error("an attribute name or '>' in <\(name)", at: index) }
            skipSpaces()
            var value = html ? "" : attribute
            if index < text.count, text[index] == "=" {
                index += 1
                skipSpaces()
                value = try attributeValue(of: attribute)
            } else if !html {
                throw error("'=' and a quoted value after the attribute \(attribute)", at: index)
            }
            _ = document.append(.attribute(attribute, value), to: element)
        }
        if selfClosing || (html && MarkupDocument.voidElements.contains(name)) { return }
        if html, name == "script" || name == "style" {
            let end = find("</\(name)", from: index, caseInsensitive: true) ?? text.count
            if end > index { _ = document.append(.text(String(String.UnicodeScalarView(text[index..<end]))), to: element) }
            index = end
            return
        }
        openElements.append((element, name, start))
    }

    private mutating func attributeValue(of attribute: String) throws(MarkupError) -> String {
        guard index < text.count else { throw error("a value for the attribute \(attribute)", at: index) }
        let quote = text[index]
        if quote == "\"" || quote == "'" {
            guard let end = find(String(quote), from: index + 1) else { throw error("\(quote) to close the value of \(attribute)", at: index) }
            let value = decode(String(String.UnicodeScalarView(text[(index + 1)..<end])))
            index = end + 1
            return value
        }
        guard html else { throw error("a quoted value for the attribute \(attribute)", at: index) }
        let start = index
        while index < text.count, !text[index].properties.isWhitespace, text[index] != ">" { index += 1 }
        return decode(String(String.UnicodeScalarView(text[start..<index])))
    }

    private mutating func close(_ name: String, at start: Int) throws(MarkupError) {
        guard let position = openElements.lastIndex(where: { $0.name == name }) else {
            if html { return }
            throw error("</\(name)> closes nothing\(openElements.last.map { "; expected </\($0.name)>" } ?? "")", at: start)
        }
        if !html, position != openElements.count - 1, let last = openElements.last { throw error("</\(name)> where </\(last.name)> was expected", at: start) }
        openElements.removeSubrange(position...)
    }

    /// Closes the innermost open `name` unless an element of `scope` is open inside it.
    private mutating func closeImplicitly(_ name: String, scope: Set<String>) {
        for position in openElements.indices.reversed() {
            if openElements[position].name == name {
                openElements.removeSubrange(position...)
                return
            }
            if scope.contains(openElements[position].name) { return }
        }
    }

    private mutating func name() -> String {
        let start = index
        while index < text.count, text[index].properties.isAlphabetic || ("0"..."9").contains(text[index]) || "-_:.".unicodeScalars.contains(text[index]) {
            index += 1
        }
        let name = String(String.UnicodeScalarView(text[start..<index]))
        return html ? name.lowercased() : name
    }

    private mutating func skipSpaces() {
        while index < text.count, text[index].properties.isWhitespace { index += 1 }
    }

    private func starts(with prefix: String) -> Bool {
        let scalars = Array(prefix.unicodeScalars)
        guard index + scalars.count <= text.count else { return false }
        return zip(text[index...], scalars).allSatisfy { $0 == $1 || (html && String($0).lowercased() == String($1).lowercased()) }
    }

    private func find(_ needle: String, from start: Int, caseInsensitive: Bool = false) -> Int? {
        let scalars = Array((caseInsensitive ? needle.lowercased() : needle).unicodeScalars)
        guard !scalars.isEmpty, start <= text.count - scalars.count else { return nil }
        for position in start...(text.count - scalars.count) {
            if zip(text[position...], scalars).allSatisfy({ (caseInsensitive ? Unicode.Scalar(String($0).lowercased()) ?? $0 : $0) == $1 }) { return position }
        }
        return nil
    }

    /// Entities decoded; an unknown one stays as written.
    private func decode(_ raw: String) -> String {
        guard raw.contains("&") else { return raw }
        var result = ""
        var rest = Substring(raw)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            guard let semicolon = rest.prefix(12).firstIndex(of: ";") else {
                result.append("&")
                rest = rest.dropFirst()
                continue
            }
            let entity = rest[rest.index(after: rest.startIndex)..<semicolon]
            var decoded: String?
            switch entity {
            case "amp": decoded = "&"
            case "lt": decoded = "<"
            case "gt": decoded = ">"
            case "quot": decoded = "\""
            case "apos": decoded = "'"
            case "nbsp" where html: decoded = "\u{00A0}"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    decoded = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if entity.hasPrefix("#") {
                    decoded = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                }
            }
            if let decoded {
                result += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result.append("&")
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    /// An error at the scalar offset `at`, with its line and column (1-based).
    private func error(_ message: String, at offset: Int) -> MarkupError {
        var line = 1
        var column = 1
        for scalar in text[..<min(offset, text.count)] {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return MarkupError(message: message, line: line, column: column, html: html)
    }
}
