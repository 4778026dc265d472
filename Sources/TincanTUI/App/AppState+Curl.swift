import Foundation
import OrderedCollections
import TerminalUI
import TincanCore
import TincanSessions

extension AppState {
    /// Asks the runner to read a pasted curl command (curl reads `@file` data when it runs, so
    /// the import does too); its answer comes to ``curlImported(_:)``.
    mutating func pasteCurlCommand(_ text: String) {
        queuedEffects.append(.importCurl(text, workingDirectory: launch.workingDirectory, sessionDirectory: sessionDirectory))
    }

    /// Replaces the selected request with a pasted curl command, as the runner read it: method,
    /// URL, headers (removals too), its body (a JSON object or a form body become the parameter
    /// tree; `-F` fields and files become multipart parameters; any other body is the Body tab's
    /// text, bytes or file, as it is), upload, download, credentials and timeout. A command that
    /// cannot be read leaves the request unchanged, with the reason in the status line. What the
    /// import cannot carry over is named in the status line.
    mutating func curlImported(_ outcome: Result<CurlCommand.Imported, InterchangeError>) {
        let imported: CurlCommand.Imported
        switch outcome {
        case .success(let read):
            imported = read
        case .failure(let error):
            status = StatusMessage("Not loaded: \(error)", .error)
            return
        }
        let request = imported.request
        // A JSON object or a form body becomes the parameter tree the panes edit; any other body
        // stays as it is (a raw `body:`, shown and sent as `tincan import curl` keeps it).
        var tree: (kind: SerializerKind, parameters: ParameterValue)?
        if case .text(let body)? = request.body {
            let contentType = request.headers.last { HTTPHeaders.same($0.name, "Content-Type") }?.value?.lowercased() ?? ""
            if contentType.contains("json") || (contentType.isEmpty && body.first == "{"), let object = try? JSONParser.parse(body), case .dictionary = object {
                tree = (.json, object)
            } else if contentType.contains("x-www-form-urlencoded"), let members = Self.formParameters(body) {
                tree = (.form, .dictionary(members))
            }
        }
        // The pasted command replaces everything that shapes the request (method, URL, headers,
        // body, files, upload, download, credentials, properties, how redirects are followed);
        // only the name, the response checks and how the session runs it (retries, delay,
        // repeats) stay. A session's base is shared by its requests and curl's URL is
        // absolute, so the base stays; the scratch request has nothing else that needs it.
        if bodyIsDirty, !applyBody() { return }
        commitPanes()
        let current = workspace.session.requests[workspace.selected]
        // The runner took curl's relative paths (from where Tincan runs) from the session's folder.
        var replacement = request
        replacement.name = current.name
        replacement.response = current.response
        replacement.captures = current.captures
        replacement.assertions = current.assertions
        replacement.flow.retry = current.flow.retry
        replacement.flow.retryInterval = current.flow.retryInterval
        replacement.flow.delay = current.flow.delay
        replacement.flow.repeatCount = current.flow.repeatCount
        replacement.line = current.line
        let notes = imported.warnings
        if let tree {
            replacement.serializer = tree.kind
            replacement.body = nil
            if case .dictionary(let members) = tree.parameters, !members.isEmpty { replacement.params = tree.parameters }
            // The serializer writes its own Content-Type; a pasted one that says the same is dropped.
            let serializerType = tree.kind == .json ? "application/json" : "application/x-www-form-urlencoded"
            replacement.headers = request.headers.filter { header in
                !(HTTPHeaders.same(header.name, "Content-Type") && (header.value?.lowercased().hasPrefix(serializerType) ?? false))
            }
        }
        workspace.session.requests[workspace.selected] = replacement
        if workspace.path == nil { workspace.session.base = nil }
        loadRequest(workspace.selected, committing: false)
        // What the import could not carry over (and the panes then cannot either) is named.
        status = notes.isEmpty
            ? StatusMessage("Loaded the curl command: \(request.method) \(Redaction.url(request.url))")
            : StatusMessage("Loaded the curl command: \(request.method) \(Redaction.url(request.url)). Note: \(notes.joined(separator: "; "))", .warning)
    }

    /// A form body as nested parameters (`user[name]=Ada`), or nil when a key is not a path.
    static func formParameters(_ body: String) -> OrderedDictionary<String, ParameterValue>? {
        var members: OrderedDictionary<String, ParameterValue> = [:]
        let decode = { (text: Substring) in String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
        for field in body.split(separator: "&") where !field.isEmpty {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            do {
                try ParameterPath(parsing: decode(parts[0])).insert(.string(parts.count > 1 ? decode(parts[1]) : ""), into: &members)
            } catch {
                return nil
            }
        }
        return members
    }
}
