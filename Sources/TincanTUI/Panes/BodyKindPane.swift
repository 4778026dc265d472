import TerminalUI
import TincanCore

/// The Body tab's kinds besides the parameters: the note under the text editor, and the rows of
/// a file body or an upload.
enum BodyKindPane {
    /// The line under the editor: what it holds and the keys that matter.
    static func editorNote(_ state: AppState) -> String {
        // While a GraphQL field name is typed, the fields that complete it come first.
        if let completions = state.graphQLCompletionNote { return completions }
        if state.bodyIsDirty { return "edited · alt+s applies · F4 opens $EDITOR" }
        switch state.bodySource {
        // The type first: on a narrow screen it is what must show.
        case .text?: return "\(state.contentType ?? "text, no Content-Type") · alt+k kind · F4 $EDITOR"
        case .base64(let bytes)?: return "\(RequestPreview.byteCount(Int64(bytes.count))) as base64 · alt+k kind"
        case .graphql?: return "GraphQL · \(GraphQLEditorText.variablesMarker) then JSON · alt+q schema · alt+k kind"
        default: return "the parameters as JSON · alt+k kind · F4 $EDITOR"
        }
    }

    /// A body read from a file, or an upload: the file, the rate, what happens to it.
    static func drawFile(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState) {
        let theme = state.theme
        var lines: [[Span]] = []
        switch state.bodySource {
        case .file(let path)?:
            lines.append([Span(" file  ", theme.style(.label)), Span(path, theme.style(.base))])
            lines.append([Span(" read when the request is sent", theme.style(.muted))])
        case .upload(let upload)?:
            lines.append([Span(" upload  ", theme.style(.label)), Span(upload.file, theme.style(.base))])
            lines.append([Span(" rate    ", theme.style(.label)), Span(upload.rate.map { "\($0)/s" } ?? "full speed", theme.style(.base))])
            lines.append([Span(" streamed from disk as it is sent", theme.style(.muted))])
        default:
            break
        }
        let inferred = if case .upload? = state.bodySource { "by the file's extension" } else { "none of yours" }
        lines.append([Span(" Content-Type: \(state.contentType ?? inferred)", theme.style(.muted))])
        for (index, line) in lines.prefix(max(0, rect.height - 1)).enumerated() {
            buffer.write(line, x: rect.x, y: rect.y + index, limit: rect.width)
        }
        buffer.write("enter changes the file · alt+k kind", x: rect.x + 1, y: rect.maxY - 1, style: theme.style(.muted), limit: rect.width - 1)
    }
}
