import Foundation
import TerminalUI
import TincanCore
import TincanSessions

/// The Body tab: the parameters as JSON, or a body sent as it is (text with any Content-Type,
/// bytes, a file, an upload), chosen with alt+k. What it holds is saved as `params:`, `body:` or
/// `upload:`, as the session format writes them.
extension AppState {
    // MARK: - The editor

    /// Fills the body editor with what the tab edits: the parameters as JSON, the text, or the
    /// bytes as base64 (a file or an upload has rows, not text).
    mutating func loadBodyEditor() {
        switch bodySource {
        case nil: body = TextArea(JSONWriter.string(Self.parameterValue(parameters.root), indent: 2))
        case .text(let text)?: body = TextArea(text)
        case .base64(let bytes)?: body = TextArea(Data(bytes).base64EncodedString())
        case .graphql(let operation)?: body = TextArea(GraphQLEditorText.text(operation))
        case .file?, .upload?: body = TextArea()
        }
        bodyIsDirty = false
    }

    /// Applies the body editor: JSON into the parameters, text as it is, base64 into bytes.
    ///
    /// - Returns: Whether it applied; on failure the text stays as typed and the status says why.
    @discardableResult
    mutating func applyBody() -> Bool {
        switch bodySource {
        case nil: return applyParameterJSON()
        case .text?:
            bodySource = .text(body.text)
        case .base64?:
            let compact = body.text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else {
                status = StatusMessage("The body is not valid base64 (A-Z a-z 0-9 + /, = padding). Your text is kept; fix it and press alt+s.", .error)
                return false
            }
            bodySource = .base64(Array(data))
        case .graphql?:
            do {
                bodySource = .graphql(try GraphQLEditorText.operation(body.text))
            } catch {
                status = StatusMessage("The GraphQL body cannot be applied: \(error). Your text is kept; fix it and press alt+s.", .error)
                return false
            }
        case .file?, .upload?:
            break
        }
        bodyIsDirty = false
        return true
    }

    /// Parses the body editor's JSON into the parameters.
    private mutating func applyParameterJSON() -> Bool {
        do {
            let value = try JSONParser.parse(body.text)
            var node = Self.treeNode(key: "", value)
            if !node.value.isContainer {
                status = StatusMessage("The body must be a JSON object or array, not \(value.kindName); nothing was changed.", .error)
                return false
            }
            node.isExpanded = true
            parameters.replaceRoot(node)
            bodyIsDirty = false
            status = StatusMessage("Body applied to the parameters.", .success)
            return true
        } catch {
            status = StatusMessage("Body is not valid JSON: \(error). Your text is kept; fix it and press alt+s.", .error)
            return false
        }
    }

    /// A key the body editor took: text is the body as typed, so it applies at once (the
    /// preview follows every key); JSON and base64 wait for alt+s, as they may not parse yet.
    mutating func bodyEdited() {
        if case .text? = bodySource {
            bodySource = .text(body.text)
        } else {
            bodyIsDirty = true
        }
    }

    /// The file extension $EDITOR gets, so it highlights what it edits.
    var bodyFileExtension: String {
        switch bodySource {
        case nil: return "json"
        case .text?:
            // Suffixes such as `+xml` count: an editor highlights by the extension alone.
            let type = contentType?.lowercased() ?? ""
            return type.contains("xml") ? "xml" : type.contains("html") ? "html" : type.contains("json") ? "json" : "txt"
        case .graphql?: return "graphql"
        case .base64?, .file?, .upload?: return "txt"
        }
    }

    /// The Content-Type the request's own header rows give, if one is on.
    var contentType: String? {
        headers.last { $0.isEnabled && HTTPHeaders.same($0.name, "Content-Type") }?.value
    }

    // MARK: - Choosing the kind

    /// Opens the body kind picker.
    mutating func pickBodyKind() {
        if bodyIsDirty, !applyBody() { return }
        mode = .modal(.picker(Picker(.bodyKind, title: "Body", options: BodySource.Kind.allCases.map(\.choice), selected: bodySource.kind.choice)))
    }

    /// Switches the body to another kind, carrying over what can be carried: the parameters
    /// become JSON text, text becomes parameters when it is a JSON object or array, text and
    /// bytes convert into each other. What cannot be carried over is named in the status line.
    mutating func chooseBodyKind(_ kind: BodySource.Kind) {
        let previous = bodySource
        // The text's Content-Type goes with it: a file, bytes or the serializer's parameters are
        // not application/xml because the text was.
        if case .text? = previous, kind != .text, let type = bodyContentType {
            headers.removeAll { HTTPHeaders.same($0.name, "Content-Type") && $0.value == type }
            bodyContentType = nil
        }
        switch kind {
        case .parameters:
            guard previous != nil else { break }
            bodySource = nil
            if case .text(let text)? = previous, !text.isEmpty {
                if let value = try? JSONParser.parse(text), case let node = Self.treeNode(key: "", value), node.value.isContainer {
                    parameters.replaceRoot(node)
                    status = StatusMessage("The JSON text became the parameters.", .success)
                } else {
                    status = StatusMessage("The text was not a JSON object or array, so it is not in the parameters: \(TextWidth.prefix(text, fitting: 40))…", .warning)
                }
            } else if let previous {
                status = StatusMessage("The \(previous.kind.rawValue) body is gone; the parameters are the body now.", .warning)
            }
        case .text:
            switch previous {
            case nil:
                let value = Self.parameterValue(parameters.root)
                bodySource = .text(isEmptyTree ? "" : JSONWriter.string(value, indent: 2))
                if !isEmptyTree { status = StatusMessage("The parameters became the text as JSON; the tree is empty now.") }
                clearParameters()
            case .base64(let bytes)?:
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    status = StatusMessage("The bytes are not UTF-8 text; they stay base64.", .warning)
                    return
                }
                bodySource = .text(text)
            case .text?: break
            case .graphql(let operation)?: bodySource = .text(JSONWriter.string(operation.object, indent: 2))
            case .file?, .upload?: bodySource = .text("")
            }
            mode = .modal(.prompt(Prompt(.bodyContentType, title: "Content-Type of the text", question: "Media type (application/xml, text/plain…); empty for none of your own",
                                         text: contentType ?? "text/plain")))
        case .base64:
            switch previous {
            case .text(let text)?: bodySource = .base64(Array(text.utf8))
            case .base64?: break
            default:
                if previous == nil { clearParameters() }
                bodySource = .base64([])
            }
        case .file:
            let path: String = switch previous {
            case .file(let path)?: path
            case .upload(let upload)?: upload.file
            default: ""
            }
            mode = .modal(.prompt(Prompt(.bodyFile, title: "Body from a file", question: "File read when the request is sent (relative to the session file)", text: path)))
        case .upload:
            promptUploadFile()
        case .graphql:
            switch previous {
            case .graphql?: break
            case .text(let text)?:
                // A GraphQL request's JSON, as a text body holds it, becomes the operation it says.
                bodySource = .graphql(Self.graphQLOperation(json: text) ?? GraphQLQuery(query: text))
            default:
                if previous == nil { clearParameters() }
                bodySource = .graphql(GraphQLQuery(query: "query {\n  \n}"))
            }
            if method == "GET" { method = GraphQLQuery.defaultMethod }
            if responseSerializer == .compound { responseSerializer = .graphql }
            status = StatusMessage("GraphQL: the query, then its variables as JSON under a \(GraphQLEditorText.variablesMarker) line; alt+s applies.")
        }
        loadBodyEditor()
    }

    /// Asks for the file an upload streams.
    mutating func promptUploadFile() {
        let path: String = switch bodySource {
        case .upload(let upload)?: upload.file
        case .file(let path)?: path
        default: ""
        }
        mode = .modal(.prompt(Prompt(.uploadFile, title: "Upload a file", question: "File streamed as the body (relative to the session file)", text: path)))
    }

    /// Enter on the Body tab of a file or an upload: change the file.
    mutating func changeBodyFile() {
        if case .upload? = bodySource { promptUploadFile() } else { chooseBodyKind(.file) }
    }

    private var isEmptyTree: Bool { parameters.root.children.isEmpty }

    /// The operation a GraphQL request's JSON text says (`{"query", "variables", "operationName"}`), or nil.
    private static func graphQLOperation(json text: String) -> GraphQLQuery? {
        guard case .dictionary(let members)? = try? JSONParser.parse(text), case .string(let query)? = members["query"] else { return nil }
        var operation = GraphQLQuery(query: query)
        if let variables = members["variables"], variables != .null { operation.variables = variables }
        if case .string(let name)? = members["operationName"] { operation.operationName = name }
        return operation
    }

    private mutating func clearParameters() {
        var root = TreeNode(key: "", value: parameters.root.value == .array ? .array : .object)
        root.isExpanded = true
        parameters = TreeEditor(root: root)
    }

    // MARK: - Answers

    /// Sets the text's Content-Type: the request's own header row, added or replaced.
    mutating func answerBodyContentType(_ text: String) -> String? {
        let type = text.trimmingWhitespace()
        if type.isEmpty {
            headers.removeAll { HTTPHeaders.same($0.name, "Content-Type") }
            bodyContentType = nil
            return nil
        }
        if let refusal = setOwnHeader("Content-Type", type) { return refusal }
        bodyContentType = type
        return nil
    }

    /// Sets the file a `body: {file: …}` reads.
    mutating func answerBodyFile(_ text: String) -> String? {
        let path = text.trimmingWhitespace()
        guard !path.isEmpty else { return "expected a file path" }
        if bodySource == nil { clearParameters() }
        bodySource = .file(path)
        return nil
    }

    /// Sets the file an upload streams, then asks for its rate.
    mutating func answerUploadFile(_ text: String) -> String? {
        let path = text.trimmingWhitespace()
        guard !path.isEmpty else { return "expected a file path" }
        var upload = SavedUpload(file: path)
        if case .upload(let current)? = bodySource { upload.rate = current.rate }
        if bodySource == nil { clearParameters() }
        bodySource = .upload(upload)
        mode = .modal(.prompt(Prompt(.uploadRate, title: "Upload rate", question: "Bytes per second (64k, 1m), or a {{variable}}; empty for full speed", text: upload.rate ?? "")))
        return nil
    }

    /// Sets the upload's rate, as written (`64k`), checked unless it is a `{{variable}}`.
    mutating func answerUploadRate(_ text: String) -> String? {
        guard case .upload(var upload)? = bodySource else { return nil }
        let rate = text.trimmingWhitespace()
        if rate.isEmpty {
            upload.rate = nil
        } else {
            if !rate.contains("{{") {
                do {
                    _ = try ByteRate.checked(rate, range: NumericRange.uploadRate.named("upload rate"))
                } catch {
                    return "\(error)"
                }
            }
            upload.rate = rate
        }
        bodySource = .upload(upload)
        return nil
    }
}
