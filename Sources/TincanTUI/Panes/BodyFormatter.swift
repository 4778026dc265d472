import Foundation
import TerminalUI
import TincanCore

/// Turns a response body into highlighted lines, once, when the response arrives.
enum BodyFormatter {
    /// The most lines built for one view; the rest of a larger body is summarised.
    static let lineLimit = 5_000

    /// The decoded body, pretty: JSON and property lists indented and highlighted, XML as an
    /// indented tree, images as their format and size, text as it is.
    static func pretty(_ result: TaskResult) -> [TokenLine] {
        switch result.serialization?.body ?? .none {
        case let .json(value), let .propertyList(value):
            var lines: [TokenLine] = []
            var current: TokenLine = []
            json(value, indent: 0, into: &lines, current: &current)
            if !current.isEmpty { lines.append(current) }
            return limited(lines)
        case let .xml(tree):
            var lines: [TokenLine] = [[Token(.muted, "<?xml version=\"1.0\"?>")]]
            xml(tree, indent: 0, into: &lines)
            return limited(lines)
        case let .image(info):
            return [[Token(.success, "\(info.format.rawValue) image"), Token(.base, ", \(info.width)×\(info.height) pixels, \(RequestPreview.byteCount(Int64(result.data.count)))")]]
        case .data, .none:
            return raw(result.data)
        }
    }

    /// The body as received, as text lines; binary bodies are summarised.
    static func raw(_ data: [UInt8]) -> [TokenLine] {
        if data.isEmpty { return [[Token(.muted, "(no body)")]] }
        // A sample cut at 64 KiB may end inside a character: try up to three bytes shorter.
        let sample = data.prefix(64 * 1024)
        let isText = (0...min(3, data.count - sample.count == 0 ? 0 : 3)).contains { RequestPreview.isText(sample.dropLast($0)) }
        if !isText {
            return [[Token(.muted, "binary body, \(RequestPreview.byteCount(Int64(data.count)))")]]
        }
        let text = String(decoding: data, as: UTF8.self)
        var lines: [TokenLine] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if lines.count == lineLimit { break }
            lines.append([Token(.base, String(line.hasSuffix("\r") ? line.dropLast() : line))])
        }
        return limited(lines, total: text.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) } + 1)
    }

    private static func limited(_ lines: [TokenLine], total: Int? = nil) -> [TokenLine] {
        let total = total ?? lines.count
        guard total > lineLimit else { return lines }
        return Array(lines.prefix(lineLimit)) + [[Token(.muted, "… \(total - lineLimit) more lines not shown")]]
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
