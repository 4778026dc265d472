import TerminalUI
import TincanCore
import TincanSessions

/// The Props tab: changing a property opens its prompt or picker (or flips it); resetting goes
/// back to what the session gives.
extension AppState {
    /// Changes the property on a row: a prompt or picker for values, a flip for switches.
    mutating func changeProperty(_ row: PropertyRow) {
        if row.isRequestSetting { return changeRequestSetting(row) }
        let effective = observed.effective
        switch row {
        case .timeout:
            mode = .modal(.prompt(Prompt(.timeout, title: "Timeout", question: "Seconds", text: ParameterValue.format(effective.timeoutInterval))))
        case .cachePolicy:
            mode = .modal(.picker(Picker(.cachePolicy, title: "Cache policy", options: CachePolicy.allCases.map(\.rawValue), selected: effective.cachePolicy.rawValue)))
        case .cookies: observed.httpShouldHandleCookies = !effective.httpShouldHandleCookies
        case .pipelining: observed.httpShouldUsePipelining = !effective.httpShouldUsePipelining
        case .cellular: observed.allowsCellularAccess = !effective.allowsCellularAccess
        case .networkService:
            mode = .modal(.picker(Picker(.networkServiceType, title: "Network service type", options: NetworkServiceType.allCases.map(\.rawValue), selected: effective.networkServiceType.rawValue)))
        case .responseSerializer:
            mode = .modal(.picker(Picker(.responseSerializer, title: "Response serializer", options: ResponseSerializerKind.allCases.map(\.rawValue), selected: responseSerializer.rawValue)))
        case .acceptableStatus:
            mode = .modal(.prompt(Prompt(.acceptableStatusCodes, title: "Acceptable status codes", question: "Codes, ranges and classes, such as 200-299,304 or 2xx", text: acceptableStatusCodes.description)))
        case .removeNulls: removesNulls.toggle()
        case .maxBody:
            mode = .modal(.prompt(Prompt(.maxBody, title: "Body kept in memory", question: "Bytes (500k, 256M, 2G), 0 for no limit, empty for the default", text: maxBody ?? "")))
        case .uploadLimit:
            mode = .modal(.prompt(Prompt(.uploadLimit, title: "Upload pace", question: "Bytes per second (64k, 1m), empty for full speed", text: uploadBytesPerSecond.map(String.init) ?? "")))
        case .cookieFile:
            mode = .modal(.prompt(Prompt(.cookieFile, title: "Cookie file", question: "curl's cookie file (-b/-c), beside the session; empty for none", text: workspace.session.cookieFile ?? "")))
        case .proxy:
            mode = .modal(.prompt(Prompt(.proxy, title: "Proxy (for the session)", question: "[http://|socks5://]host[:port], - for none, empty for the environment's", text: workspace.session.defaults.proxy.map { $0.isEmpty ? "-" : $0 } ?? "")))
        case .noProxy:
            mode = .modal(.prompt(Prompt(.noProxy, title: "No proxy for (the session)", question: "Hosts, domains, IPs or CIDR ranges, comma-separated; empty for NO_PROXY", text: workspace.session.defaults.noProxy ?? "")))
        case .clientCertificate:
            mode = .modal(.prompt(Prompt(.clientCertificate, title: "Client certificate (for the session)", question: "PEM file, relative to the session file; empty for none", text: workspace.session.defaults.tls.certificate ?? "")))
        case .clientKey:
            mode = .modal(.prompt(Prompt(.clientKey, title: "Client key (for the session)", question: "PEM file; empty when the cert file holds the key. Passphrase: TINCAN_KEY_PASSPHRASE", text: workspace.session.defaults.tls.key ?? "")))
        case .acceptTypes, .followRedirects, .maxRedirects, .httpVersion, .maxTime, .pollRetry, .retryInterval, .delay, .repeatCount:
            break
        case .retries:
            mode = .modal(.prompt(Prompt(.retries, title: "Retries (for the session)", question: "How many times a 503, 429 or refused connection is retried (0 to 100); empty for none",
                                         text: workspace.session.defaults.retryPolicy.map { String($0.limit) } ?? "")))
        }
    }

    /// Resets the property on a row to what the request would inherit.
    mutating func resetProperty(_ row: PropertyRow) {
        if row.isRequestSetting { return resetRequestSetting(row) }
        switch row {
        case .timeout: observed.timeoutInterval = nil
        case .cachePolicy: observed.cachePolicy = nil
        case .cookies: observed.httpShouldHandleCookies = nil
        case .pipelining: observed.httpShouldUsePipelining = nil
        case .cellular: observed.allowsCellularAccess = nil
        case .networkService: observed.networkServiceType = nil
        case .responseSerializer: responseSerializer = .compound
        case .acceptableStatus: acceptableStatusCodes = .successful
        // Back to what the session's defaults say, which the request then inherits.
        case .removeNulls: removesNulls = workspace.session.defaults.response.removesNulls ?? false
        case .maxBody: maxBody = workspace.session.defaults.response.maxBody
        case .uploadLimit: uploadBytesPerSecond = nil
        case .cookieFile: workspace.session.cookieFile = nil
        case .proxy: workspace.session.defaults.proxy = nil
        case .noProxy: workspace.session.defaults.noProxy = nil
        case .clientCertificate: workspace.session.defaults.tls = ClientCertificateSettings()
        case .clientKey: workspace.session.defaults.tls.key = nil
        case .retries: workspace.session.defaults.retryPolicy = nil
        case .acceptTypes, .followRedirects, .maxRedirects, .httpVersion, .maxTime, .pollRetry, .retryInterval, .delay, .repeatCount: break
        }
    }

    /// Sets the session's cookie file (`cookies: {file: …}`) from the Props prompt: the runner
    /// then loads it (and saves the jar to it), and saving the session writes the key.
    ///
    /// - Returns: Why the answer was refused: no session file to put it beside, or a file that
    ///   does not parse (which is then never written over).
    mutating func answerCookieFile(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            workspace.session.cookieFile = nil
            return nil
        }
        guard let path = workspace.path else {
            return "a cookie file is kept beside a session file; save the session first (f6)"
        }
        var session = workspace.session
        session.cookieFile = trimmed
        // Named once the runner has read it (``cookieFileChecked(_:failure:asker:)``).
        let file = session.cookieFilePath(in: Self.folder(of: path, in: launch.workingDirectory)) ?? trimmed
        queuedEffects.append(.checkCookieFile(path: file, value: trimmed, asker: promptAsker))
        return nil
    }

    /// Takes the runner's check of a cookie file: the session names it, or the refusal shows
    /// under the prompt again.
    mutating func cookieFileChecked(_ value: String, failure: String?, asker: Asker) {
        if let failure {
            refuse(failure, to: asker, statusPrefix: "Cookie file not set")
        } else {
            workspace.session.cookieFile = value
        }
    }
}
