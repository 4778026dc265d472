import Foundation
import TerminalUI
import TincanCore

#if canImport(Glibc)
import Glibc
#endif

/// Lays out a response body for the Pretty and Raw views, once, when the response arrives.
///
/// JSON is shown from its bytes through a ``JSONOutline``, text through a ``TextIndex`` and binary
/// as a ``HexDump``: rows are built only when drawn, so bodies of tens of megabytes open at once.
/// XML and property lists (decoded trees, usually small) are laid out in advance, up to a limit.
enum BodyFormatter {
    /// The most lines laid out in advance for an XML or property-list body.
    static let lineLimit = 100_000
    /// Bodies larger than this keep their bytes and outline, not the decoded tree.
    static let decodedTreeLimit = 1 << 20

    /// The decoded body, pretty.
    static func pretty(_ result: TaskResult) -> BodyDocument {
        switch result.serialization?.body ?? .none {
        case let .json(value):
            if let outline = JSONOutline(result.data) { return BodyDocument(.json(outline)) }
            return BodyDocument(lines: lines(of: value))
        case let .propertyList(value):
            return BodyDocument(lines: lines(of: value))
        case let .xml(tree):
            var lines: [TokenLine] = [[Token(.muted, "<?xml version=\"1.0\"?>")]]
            xml(tree, indent: 0, into: &lines)
            return BodyDocument(lines: limited(lines))
        case let .image(info):
            return BodyDocument(lines: [
                [Token(.success, "\(info.format.rawValue) image"), Token(.base, ", \(info.width)×\(info.height) pixels, \(RequestPreview.byteCount(Int64(result.data.count)))")],
                [],
                [Token(.muted, "Read from the header; the pixels are not decoded. Raw (F3) shows the bytes as hex.")],
            ])
        case .data, .none:
            return raw(result.data)
        }
    }

    /// The body as received: text rows, or a hex dump when it is not text.
    static func raw(_ data: [UInt8]) -> BodyDocument {
        if data.isEmpty { return BodyDocument(lines: [[Token(.muted, "(no body)")]]) }
        // A sample cut at 64 KiB may end inside a character: try up to three bytes shorter.
        let sample = data.prefix(64 * 1024)
        let isText = (0...min(3, data.count - sample.count == 0 ? 0 : 3)).contains { RequestPreview.isText(sample.dropLast($0)) }
        return BodyDocument(isText ? .text(TextIndex(data)) : .hex(HexDump(bytes: data)))
    }

    /// Drops the decoded tree of a large JSON or property-list body once checks and captures have
    /// read it: the views work from the bytes, and the tree can take several times their size.
    static func releaseDecodedTree(of exchange: inout Exchange) {
        guard let result = exchange.result, result.data.count > decodedTreeLimit else { return }
        switch result.serialization?.body {
        case .json?, .propertyList?:
            exchange.result?.serialization?.body = .none
            trimHeap()
        default:
            break
        }
    }

    /// Hands freed heap pages back to the system (glibc's `malloc_trim`, looked up at run time as
    /// the Glibc module does not export malloc.h): the tree was many small allocations.
    private static func trimHeap() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
    }

    private static func lines(of value: ParameterValue) -> [TokenLine] {
        var lines: [TokenLine] = []
        var current: TokenLine = []
        json(value, indent: 0, into: &lines, current: &current)
        if !current.isEmpty { lines.append(current) }
        return limited(lines)
    }

    private static func limited(_ lines: [TokenLine]) -> [TokenLine] {
        guard lines.count > lineLimit else { return lines }
        return Array(lines.prefix(lineLimit)) + [[Token(.muted, "… \(lines.count - lineLimit) more lines not shown; Raw (F3) shows the whole body")]]
    }

    // MARK: - JSON

    private static func json(_ value: ParameterValue, indent: Int, into lines: inout [TokenLine], current: inout TokenLine) {
        let pad = String(repeating: "  ", count: indent)
        func newline() {
            lines.append(current)
            current = []
        }
        switch value {
        case let .dictionary(dictionary):
            if dictionary.isEmpty { current.append(Token(.jsonPunctuation, "{}")); return }
            current.append(Token(.jsonPunctuation, "{"))
            for (offset, (key, element)) in dictionary.enumerated() {
                newline()
                guard lines.count < lineLimit + 1 else { return }
                current.append(Token(.base, pad + "  "))
                current.append(Token(.jsonKey, JSONWriter.string(.string(key))))
                current.append(Token(.jsonPunctuation, ": "))
                json(element, indent: indent + 1, into: &lines, current: &current)
                if offset < dictionary.count - 1 { current.append(Token(.jsonPunctuation, ",")) }
            }
            newline()
            current.append(Token(.base, pad))
            current.append(Token(.jsonPunctuation, "}"))
        case let .array(elements):
            if elements.isEmpty { current.append(Token(.jsonPunctuation, "[]")); return }
            current.append(Token(.jsonPunctuation, "["))
            for (offset, element) in elements.enumerated() {
                newline()
                guard lines.count < lineLimit + 1 else { return }
                current.append(Token(.base, pad + "  "))
                json(element, indent: indent + 1, into: &lines, current: &current)
                if offset < elements.count - 1 { current.append(Token(.jsonPunctuation, ",")) }
            }
            newline()
            current.append(Token(.base, pad))
            current.append(Token(.jsonPunctuation, "]"))
        case let .set(elements):
            json(.array(Array(elements)), indent: indent, into: &lines, current: &current)
        case .string: current.append(Token(.jsonString, JSONWriter.string(value)))
        case .integer, .double: current.append(Token(.jsonNumber, JSONWriter.string(value)))
        case let .bool(bool): current.append(Token(.jsonBool, bool ? "true" : "false"))
        case .null: current.append(Token(.jsonNull, "null"))
        }
    }

    // MARK: - XML

    private static func xml(_ element: XMLTree, indent: Int, into lines: inout [TokenLine]) {
        guard lines.count <= lineLimit else { return }
        let pad = String(repeating: "  ", count: indent)
        var open: TokenLine = [Token(.base, pad), Token(.xmlTag, "<\(element.name)")]
        for attribute in element.attributes {
            open.append(Token(.xmlAttribute, " \(attribute.name)="))
            open.append(Token(.jsonString, "\"\(attribute.value)\""))
        }
        if element.children.isEmpty {
            open.append(Token(.xmlTag, "/>"))
            lines.append(open)
            return
        }
        if element.children.count == 1, case let .text(text) = element.children[0] {
            lines.append(open + [Token(.xmlTag, ">"), Token(.xmlText, text), Token(.xmlTag, "</\(element.name)>")])
            return
        }
        lines.append(open + [Token(.xmlTag, ">")])
        for child in element.children {
            switch child {
            case let .element(inner): xml(inner, indent: indent + 1, into: &lines)
            case let .text(text): lines.append([Token(.base, pad + "  "), Token(.xmlText, text)])
            }
        }
        lines.append([Token(.base, pad), Token(.xmlTag, "</\(element.name)>")])
    }
}
