import Foundation
import OrderedCollections
import TerminalUI
import TincanCore
import TincanSessions

extension AppState {
    /// Replaces the selected request with a pasted curl command: method, URL, headers (removals
    /// too), and a body the panes can edit (a JSON object or a form body become the parameter
    /// tree; `-F` fields and files become multipart parameters), with its upload, download,
    /// credentials and timeout. Returns false, with the reason in the status line, when the
    /// command cannot be loaded; the request is then unchanged. What the import cannot carry
    /// over is named in the status line, as a warning.
    @discardableResult
    public mutating func loadCurlCommand(_ text: String) -> Bool {
        let imported: CurlCommand.Imported
        do {
            imported = try CurlCommand.parse(text)
        } catch {
            status = StatusMessage("Not loaded: \(error)", .error)
            return false
        }
        let request = imported.request
        let contentType = request.headers.last { HTTPHeaders.same($0.name, "Content-Type") }?.value?.lowercased() ?? ""
        var kind: SerializerKind = request.serializer ?? .form
        var parameters = request.params ?? .dictionary([:])
        switch request.body {
        case nil: break
        case .text(let body)?:
            if contentType.contains("json") || (contentType.isEmpty && body.first == "{") {
                guard let object = try? JSONParser.parse(body), case .dictionary = object else {
                    status = StatusMessage("Not loaded: the body is not a JSON object, and the panes edit parameters; use tincan import curl for a raw body", .error)
                    return false
                }
                parameters = object
                kind = .json
            } else if contentType.contains("x-www-form-urlencoded") {
                var members: OrderedDictionary<String, ParameterValue> = [:]
                for field in body.split(separator: "&") where !field.isEmpty {
                    let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let decode = { (text: Substring) in String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
                    do {
                        try ParameterPath(parsing: decode(parts[0])).insert(.string(parts.count > 1 ? decode(parts[1]) : ""), into: &members)
                    } catch {
                        status = StatusMessage("Not loaded: \(error)", .error)
                        return false
                    }
                }
                parameters = .dictionary(members)
                kind = .form
            } else {
                status = StatusMessage("Not loaded: a \(contentType.isEmpty ? "raw" : contentType) body is not a parameter tree; use tincan import curl to keep it", .error)
                return false
            }
        case .base64?, .file?:
            status = StatusMessage("Not loaded: a binary or file body is not a parameter tree; use tincan import curl to keep it", .error)
            return false
        }
        guard case .dictionary = parameters else {
            status = StatusMessage("Not loaded: the parameters must be an object", .error)
            return false
        }
        // The pasted command replaces everything that shapes the request (method, URL, headers,
        // body, files, upload, download, credentials, properties); only the name and the
        // response checks stay. A session's base is shared by its requests and curl's URL is
        // absolute, so the base stays; the scratch request has nothing else that needs it.
        if bodyIsDirty, !applyBody() { return false }
        commitPanes()
        let current = workspace.session.requests[workspace.selected]
        // curl's relative paths are from where Tincan runs; a session's are from its file's folder.
        var replacement = request.rebasingPaths(from: FileManager.default.currentDirectoryPath, to: workspace.directory)
        replacement.name = current.name
        replacement.response = current.response
        replacement.captures = current.captures
        replacement.assertions = current.assertions
        replacement.line = current.line
        replacement.serializer = kind
        replacement.body = nil
        if case .dictionary(let members) = parameters { replacement.params = members.isEmpty ? nil : parameters }
        // The serializer writes its own Content-Type; a pasted one that says the same is dropped.
        let serializerType = switch kind {
        case .json: "application/json"
        case .form: "application/x-www-form-urlencoded"
        case .plist: "application/x-plist"
        case .multipart: "multipart/form-data"
        }
        replacement.headers = request.headers.filter { header in
            !(HTTPHeaders.same(header.name, "Content-Type") && (header.value?.lowercased().hasPrefix(serializerType) ?? false))
        }
        workspace.session.requests[workspace.selected] = replacement
        if workspace.path == nil { workspace.session.base = nil }
        loadRequest(workspace.selected, committing: false)
        // What the import could not carry over (and the panes then cannot either) is named.
        status = imported.warnings.isEmpty
            ? StatusMessage("Loaded the curl command: \(request.method) \(Redaction.url(request.url))")
            : StatusMessage("Loaded the curl command: \(request.method) \(Redaction.url(request.url)). Not as curl sends it: \(imported.warnings.joined(separator: "; "))", .warning)
        return true
    }
}
