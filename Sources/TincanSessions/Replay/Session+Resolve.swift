import Foundation
import TincanCore

extension Session {
    /// A template of ``variables(environment:overrides:)``, which knows which names `--var`
    /// gave, so that a request's own variables do not replace them.
    ///
    /// - Throws: ``SessionError`` for an unknown environment.
    public func template(environment: String?, overrides: [String: String], processEnvironment: [String: String] = ProcessEnvironment.values) throws(SessionError) -> Template {
        var template = Template(variables: try variables(environment: environment, overrides: overrides), environment: processEnvironment)
        template.overridden = Set(overrides.keys)
        return template
    }

    /// The variables in effect before any request runs: the file's, then the environment's,
    /// then those given on the command line (`--var`), each replacing the one before.
    ///
    /// - Throws: ``SessionError`` for an unknown environment.
    public func variables(environment: String?, overrides: [String: String]) throws(SessionError) -> [String: ParameterValue] {
        var values = Dictionary(uniqueKeysWithValues: variables.map { ($0.key, $0.value) })
        if let environment {
            guard let chosen = environments[environment] else {
                throw SessionError(.unknownEnvironment(environment, defined: Array(environments.keys)))
            }
            for (name, value) in chosen { values[name] = value }
        }
        for (name, value) in overrides { values[name] = .string(value) }
        return values
    }

    /// Resolves request `index` with `template`'s variables.
    ///
    /// - Parameters:
    ///   - directory: Where relative file paths are read from (the session file's directory).
    ///   - proxyEnvironment: The proxy variables that decide when the session names no proxy.
    ///   - files: Where the client certificate (`tls:`) is read from: the disk, unless the front
    ///     end already read it (the TUI's preview).
    /// - Throws: ``RequestResolutionError`` naming the request and the missing variable or bad value.
    public func resolve(_ index: Int, template: Template, directory: String, file: String? = nil, proxyEnvironment: ProxyEnvironment = .current,
                        files: any RequestFileReader = DiskFileReader()) throws(RequestResolutionError) -> ResolvedRequest {
        let saved = requests[index]
        // The request's own variables, over the file's and the environment's but not over --var.
        var template = template
        for (name, value) in saved.variables where !template.overridden.contains(name) { template.variables[name] = value }
        // Absolute, so the draft (which reads its files from the same folder) does not add a
        // relative folder a second time (`other/dir/other/dir/../../a.txt`).
        let directory = resolveSessionPath(directory, in: FileManager.default.currentDirectoryPath)
        func fail(_ reason: RequestResolutionError.Reason) -> RequestResolutionError {
            RequestResolutionError(request: "#\(index + 1) \(saved.displayName)", file: file, line: saved.line, reason: reason)
        }
        /// The error at the reference the variable is missing for: in the request, else in the
        /// session's base, defaults or variables (a variable whose value refers to it).
        func fail(_ error: MissingVariableError) -> RequestResolutionError {
            var failure = fail(.missingVariable(error))
            if let location = saved.referenceLocations[error.name] ?? referenceLocations[error.name] {
                failure.line = location.line
                failure.column = location.column
            }
            return failure
        }
        func expand(_ text: String) throws(RequestResolutionError) -> String {
            do {
                return try template.expand(text)
            } catch {
                throw fail(error)
            }
        }
        func resolvePath(_ path: String) throws(RequestResolutionError) -> String {
            let expanded = try expand(path)
            // `-` is standard input (issue 18 §7), which the front end reads, not a file beside the session.
            return expanded == RequestDraft.standardInputPath ? expanded : resolveSessionPath(expanded, in: directory)
        }

        var draft = RequestDraft(method: saved.method, url: try expand(saved.url), baseURL: try base.map(expand))
        draft.workingDirectory = directory
        draft.serializer = saved.serializer ?? defaults.serializer ?? .form
        // A disabled header is not sent, and does not hide a default of its name.
        let own = saved.headers.filter(\.isEnabled)
        var headers = defaults.headers.filter { shared in shared.isEnabled && !own.contains { HTTPHeaders.same($0.name, shared.name) } }
        headers += own
        for header in headers {
            if let value = header.value {
                draft.items.append(.header(name: header.name, value: try expand(value)))
            } else {
                draft.items.append(.removeHeader(name: header.name))
            }
        }
        for field in saved.query where field.isEnabled {
            draft.items.append(.query(name: try expand(field.name), value: try expand(field.value)))
        }
        if let params = saved.params {
            do {
                draft.parameters = try template.expand(params)
            } catch {
                throw fail(error)
            }
        }
        switch saved.body {
        case .text(let text)?: draft.body = .text(try expand(text))
        case .base64(let bytes)?: draft.body = .bytes(bytes)
        case .file(let path)?: draft.body = .file(path: try resolvePath(path))
        case .graphql(let operation)?:
            do {
                var expanded = GraphQLQuery(query: try template.expand(operation.query))
                if let variables = operation.variables { expanded.variables = try template.expand(variables) }
                if let name = operation.operationName { expanded.operationName = try template.expand(name) }
                draft.body = .graphql(expanded)
            } catch {
                throw fail(error)
            }
        case nil: break
        }
        for part in saved.files {
            draft.items.append(.file(field: try expand(part.field), path: try resolvePath(part.path), mimeType: part.type))
        }
        // A WebSocket request: the draft is its handshake, built from the URL's http form.
        var webSocket = saved.webSocket
        if webSocket != nil {
            do {
                draft.url = try WebSocketURL.httpForm(of: draft.url)
            } catch {
                throw fail(.webSocket("\(error)"))
            }
            var messages: [WebSocketOutgoing] = []
            for message in saved.webSocket?.messages ?? [] {
                guard case .text(let text) = message else {
                    messages.append(message)
                    continue
                }
                messages.append(.text(try expand(text)))
            }
            webSocket?.messages = messages
        }
        var resolved = ResolvedRequest(draft: draft, contract: defaults.response.merged(with: saved.response))
        resolved.webSocket = webSocket
        if resolved.contract.serializer == nil { resolved.contract.serializer = saved.defaultResponseSerializer }
        resolved.security = try defaults.security.resolvingPaths(in: directory, expand: expand)
        do {
            resolved.options.proxy = try ProxySettings(proxy: defaults.proxy, noProxy: defaults.noProxy, environment: proxyEnvironment)
        } catch {
            throw fail(.proxy(error))
        }
        do {
            resolved.options.clientIdentity = try defaults.tls.resolvingPaths(in: directory).identity(files: files)
        } catch {
            throw fail(.clientCertificate(error))
        }
        if let auth = saved.auth ?? defaults.auth {
            switch auth.scheme {
            case .basic: resolved.draft.credentials = Credential(user: try expand(auth.user), password: try expand(auth.password))
            case .digest: resolved.options.credential = Credential(user: try expand(auth.user), password: try expand(auth.password))
            case .oauth2:
                guard let grant = auth.oauth2 else { throw fail(.oauth2("type: oauth2 needs grant:")) }
                let configuration = try grant.configuration(user: auth.user, password: auth.password, expand: expand, fail: { fail(.oauth2($0)) })
                resolved.options.oauth2 = OAuth2Authorization(configuration: configuration)
            }
        }
        var properties = defaults.properties
        for property in saved.properties.changed { properties.copyValue(of: property, from: saved.properties) }
        resolved.draft.observed = properties
        if let redirects = saved.flow.redirectPolicy { resolved.options.redirects = redirects }
        resolved.options.httpVersion = saved.httpVersion ?? defaults.httpVersion ?? .automatic
        resolved.options.deadline = saved.maxTime
        resolved.options.retryPolicy = (saved.retryPolicy ?? defaults.retryPolicy)?.policy
        if let download = saved.download { resolved.options.download = TaskOptions.Download(path: try resolvePath(download)) }
        if let upload = saved.upload {
            let path = try resolvePath(upload.file)
            // Standard input is sent from memory, as the draft's body; a file is streamed by an upload task.
            resolved.options.uploadFile = path == RequestDraft.standardInputPath ? nil : path
            // The draft carries the file as its body, so that the preview, the Explain view and
            // an export show what the upload task streams.
            resolved.draft.upload(fromFile: path)
            if let rate = upload.rate {
                let text = try expand(rate)
                do {
                    resolved.options.uploadBytesPerSecond = try ByteRate.checked(text, range: NumericRange.uploadRate.named("upload rate"))
                } catch {
                    throw fail(.invalidUploadRate(error))
                }
            }
        }
        return resolved
    }
}
