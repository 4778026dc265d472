import CMalloc
import Foundation
import TerminalUI
import TincanCore


/// Lays out a response body for the Pretty and Raw views, once, when the response arrives.
///
/// JSON is shown from its bytes through a ``JSONOutline``, text through a ``TextIndex`` and binary
/// as a ``HexDump``: rows are built only when drawn, so bodies of tens of megabytes open at once.
/// Property lists are written as JSON and outlined the same way; XML (a decoded tree, usually
/// small) is laid out in advance, up to a limit.
enum BodyFormatter {
    /// The most lines laid out in advance for an XML body.
    static let lineLimit = 100_000
    /// Bodies larger than this keep their bytes and outline, not their decoded body.
    static let decodedTreeLimit = 1 << 20

    /// The decoded body, pretty.
    ///
    /// - Parameter removesNulls: Whether the serializer removed keys with null values; the
    ///   outline shows the bytes as received, with those members marked as removed.
    static func pretty(_ result: TaskResult, removesNulls: Bool = false) -> BodyDocument {
        switch result.serialization?.body ?? .none {
        case let .json(document):
            // The received bytes when they are one JSON value (they nearly always are), so no
            // copy is written; else the decoded value written out.
            guard var outline = JSONOutline(displayBytes(result)) else { return Self.document(of: document.value) }
            outline.marksRemovedNulls = removesNulls
            return BodyDocument(.json(outline))
        case let .propertyList(value):
            // A property list is the same value tree: written as JSON, it folds, searches and
            // copies paths like a JSON body.
            return document(of: value)
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
            return raw(displayBytes(result))
        }
    }

    /// Whether `serializer` decodes `response`'s body as JSON: a JSON serializer, or a compound
    /// one with a JSON member, whose content types take the response's.
    static func decodesJSON(_ response: HTTPResponse, with serializer: (any ResponseSerializer)?) -> Bool {
        let type = response.mimeType
        func accepts(_ types: Set<String>?) -> Bool { types.map { type.map($0.contains) ?? false } ?? true }
        switch serializer {
        case let json as JSONResponseSerializer:
            return accepts(json.acceptableContentTypes)
        case let compound as CompoundResponseSerializer:
            return accepts(compound.acceptableContentTypes) && compound.serializers.contains { decodesJSON(response, with: $0) }
        default:
            return false
        }
    }

    /// The body to show, in UTF-8 when its Content-Type names another charset, as the
    /// serializers convert it before decoding.
    static func displayBytes(_ result: TaskResult) -> [UInt8] {
        TextEncoding.forDisplay(result.data, charset: result.response?.textEncodingName)
    }

    /// The body as received: text rows, or a hex dump when it is not text.
    static func raw(_ data: [UInt8]) -> BodyDocument {
        if data.isEmpty { return BodyDocument(lines: [[Token(.muted, "(no body)")]]) }
        // A sample cut at 64 KiB may end inside a character: try up to three bytes shorter.
        let sample = data.prefix(64 * 1024)
        let isText = (0...min(3, data.count - sample.count == 0 ? 0 : 3)).contains { RequestPreview.isText(sample.dropLast($0)) }
        return BodyDocument(isText ? .text(TextIndex(data)) : .hex(HexDump(bytes: data)))
    }

    /// Drops the decoded body of a large JSON or property-list body once checks and captures have
    /// read it: the views work from the bytes. A property list's tree can take several times
    /// their size; a JSON document holds the same bytes and its index, a tenth of them or so.
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

    /// Hands freed heap pages back to the system (glibc's `malloc_trim`): the tree was many
    /// small allocations.
    private static func trimHeap() {
        _ = malloc_trim(0)
    }

    /// A decoded value written as JSON and outlined (as text, should the writer ever produce
    /// something the outline does not read).
    private static func document(of value: ParameterValue) -> BodyDocument {
        let bytes = JSONWriter.bytes(value)
        return BodyDocument(JSONOutline(bytes).map(BodyDocument.Layout.json) ?? .text(TextIndex(bytes)))
    }

    private static func limited(_ lines: [TokenLine]) -> [TokenLine] {
        guard lines.count > lineLimit else { return lines }
        return Array(lines.prefix(lineLimit)) + [[Token(.muted, "… \(lines.count - lineLimit) more lines not shown; Raw (F3) shows the whole body")]]
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
