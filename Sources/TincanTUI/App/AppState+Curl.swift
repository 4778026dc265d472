import Foundation
import OrderedCollections
import TerminalUI
import TincanCore
import TincanSessions

extension AppState {
    /// Loads a pasted curl command into the request panes: method, URL, headers, and a body the
    /// panes can edit (a JSON object or a form body become the parameter tree; `-F` fields and
    /// files become multipart parameters). Returns false, with the reason in the status line,
    /// when the command cannot be loaded; the panes are then unchanged. What the import or the
    /// panes cannot keep is named in the status line, as a warning.
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
        if !request.files.isEmpty, case var .dictionary(members) = parameters {
            for file in request.files { members[file.field] = .string("@" + file.path) }
            parameters = .dictionary(members)
        }
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
        method = request.method
        serializer = kind
        // A session's base is shared by its requests, and curl's URL is absolute, so the base stays;
        // the scratch request has nothing else that needs it.
        if workspace.path == nil { baseField = TextField() }
        urlField = TextField(request.url)
        // The serializer writes its own Content-Type; a pasted one that says the same is dropped.
        let serializerType = switch kind {
        case .json: "application/json"
        case .form: "application/x-www-form-urlencoded"
        case .plist: "application/x-plist"
        case .multipart: "multipart/form-data"
        }
        headers = request.headers.compactMap { header in
            guard let value = header.value else { return nil }
            if HTTPHeaders.same(header.name, "Content-Type"), value.lowercased().hasPrefix(serializerType) { return nil }
            return HeaderRow(name: header.name, value: value)
        }
        self.parameters = TreeEditor(root: Self.treeNode(key: "", parameters))
        if let timeout = request.properties.timeoutInterval { observed.timeoutInterval = timeout }
        bodyIsDirty = false
        let dropped = imported.warnings + Self.notInPanes(request)
        status = dropped.isEmpty
            ? StatusMessage("Loaded the curl command: \(request.method) \(request.url)")
            : StatusMessage("Loaded the curl command: \(request.method) \(request.url). Not as curl sends it: \(dropped.joined(separator: "; "))", .warning)
        refreshPreview()
        return true
    }

    /// What of an imported request the panes do not hold (`tincan import curl` keeps it).
    static func notInPanes(_ request: SavedRequest) -> [String] {
        var dropped: [String] = []
        let removed = request.headers.filter { $0.value == nil }.map(\.name)
        if !removed.isEmpty { dropped.append("the panes cannot remove headers (\(removed.joined(separator: ", "))), so they are sent") }
        if request.auth != nil { dropped.append("credentials (-u) are not loaded") }
        if request.upload != nil { dropped.append("the upload (-T) is not loaded") }
        if request.download != nil { dropped.append("the download (-o) is not loaded") }
        if !dropped.isEmpty { dropped.append("use tincan import curl to keep them") }
        return dropped
    }
}
