/// A body written out whole, for a pager, an editor or a file (issue 17 §3).
extension BodyDocument {
    /// The document as text, unfolded and uncut (pretty JSON, the XML as laid out, the text),
    /// or the bytes of a binary body.
    var exportedBytes: [UInt8] {
        switch layout {
        case let .json(outline): outline.prettyBytes()
        case let .text(index): index.bytes
        case let .hex(dump): dump.bytes
        case let .lines(lines): Array(lines.map { $0.map(\.text).joined() }.joined(separator: "\n").utf8) + [0x0A]
        }
    }

    /// The JSON text the outline is read from (the body, or a property list written as JSON),
    /// or nil when the document is not an outline.
    var outlinedJSON: [UInt8]? {
        if case let .json(outline) = layout { return outline.bytes }
        return nil
    }

    /// The file extension that says what ``exportedBytes`` holds.
    var exportedFileExtension: String {
        switch layout {
        case .json: "json"
        case .text, .lines: "txt"
        case .hex: "bin"
        }
    }
}
