import TincanCore

/// A row of the properties panel: an observed property, in ``ObservedProperty/listingOrder``, or a
/// send setting beside them.
enum PropertyRow: CaseIterable {
    case timeout, cachePolicy, cookies, pipelining, cellular, networkService, responseSerializer, acceptableStatus
    /// The selected request's `response: accept-type:`.
    case acceptTypes
    case removeNulls, maxBody, uploadLimit
    /// The session's cookie file, kept across runs (issue 18 §6).
    case cookieFile
    /// The session's connection settings (`defaults:` `proxy:`, `noproxy:` and `tls:`).
    case proxy, noProxy, clientCertificate, clientKey
    /// The session's retry policy (`defaults:` `retry-policy:`).
    case retries
    /// The selected request's own settings (`follow-redirects:`, `max-redirects:`,
    /// `http-version:`, `max-time:`, `retry:`, `retry-interval:`, `delay:`, `repeat:`).
    case followRedirects, maxRedirects, httpVersion, maxTime, pollRetry, retryInterval, delay, repeatCount

    /// Whether it edits the selected request's own setting (``AppState/changeRequestSetting(_:)``).
    var isRequestSetting: Bool {
        switch self {
        case .acceptTypes, .followRedirects, .maxRedirects, .httpVersion, .maxTime, .pollRetry, .retryInterval, .delay, .repeatCount: true
        default: false
        }
    }

    /// The row's label: an observed property's AFNetworking name, from the core, or the setting's.
    var label: String {
        switch self {
        case .timeout, .cachePolicy, .cookies, .pipelining, .cellular, .networkService: property?.afNetworkingName ?? ""
        case .responseSerializer: "response serializer"
        case .acceptableStatus: "acceptable status"
        case .removeNulls: "remove nulls"
        case .maxBody: "max body"
        case .uploadLimit: "upload pace"
        case .cookieFile: "cookie file"
        case .proxy: "proxy"
        case .noProxy: "no proxy"
        case .clientCertificate: "client cert"
        case .clientKey: "client key"
        case .retries: "retries"
        case .acceptTypes: "accept types"
        case .followRedirects: "follow redirects"
        case .maxRedirects: "max redirects"
        case .httpVersion: "http version"
        case .maxTime: "max time"
        case .pollRetry: "retry on failure"
        case .retryInterval: "retry interval"
        case .delay: "delay"
        case .repeatCount: "repeat"
        }
    }

    /// The observed property it edits, if it is one: the rows' one link to the core's names.
    var property: ObservedProperty? {
        switch self {
        case .timeout: .timeoutInterval
        case .cachePolicy: .cachePolicy
        case .cookies: .httpShouldHandleCookies
        case .pipelining: .httpShouldUsePipelining
        case .cellular: .allowsCellularAccess
        case .networkService: .networkServiceType
        default: nil
        }
    }

    func value(in state: AppState) -> String {
        let effective = state.observed.effective
        switch self {
        case .timeout: return ParameterValue.format(effective.timeoutInterval) + " s"
        case .cachePolicy: return effective.cachePolicy.rawValue
        case .cookies: return effective.httpShouldHandleCookies ? "yes" : "no"
        case .pipelining: return effective.httpShouldUsePipelining ? "yes" : "no"
        case .cellular: return effective.allowsCellularAccess ? "yes" : "no"
        case .networkService: return effective.networkServiceType.rawValue
        case .responseSerializer: return state.responseSerializer.rawValue
        case .acceptableStatus: return state.acceptableStatusCodes.description
        case .removeNulls: return state.removesNulls ? "yes" : "no"
        case .maxBody:
            // As written (`2k`), since the row is narrow; the default as a size.
            guard let text = state.maxBody else { return RequestPreview.shortSize(Double(TaskOptions.defaultMaximumBodyBytes)) }
            return text == "0" ? "no limit" : text
        case .uploadLimit: return state.uploadBytesPerSecond.map { "\(RequestPreview.byteCount(Int64($0)))/s" } ?? "full speed"
        case .cookieFile: return state.workspace.session.cookieFile ?? "in memory"
        case .proxy:
            let defaults = state.workspace.session.defaults
            guard let proxy = defaults.proxy else { return "from environment" }
            if proxy.trimmingWhitespace().isEmpty { return "none" }
            // Shown without its password.
            return (try? ProxyServer(parsing: proxy).description) ?? proxy
        case .noProxy: return state.workspace.session.defaults.noProxy.map { $0.isEmpty ? "(empty: proxy all)" : $0 } ?? "from environment"
        case .clientCertificate: return state.workspace.session.defaults.tls.certificate ?? "none"
        case .clientKey:
            let tls = state.workspace.session.defaults.tls
            return tls.key ?? (tls.certificate == nil ? "none" : "in the cert file")
        case .retries: return state.retriesText
        case .acceptTypes, .followRedirects, .maxRedirects, .httpVersion, .maxTime, .pollRetry, .retryInterval, .delay, .repeatCount: return state.requestSettingText(self)
        }
    }

    /// Whether the user changed it from the session's default.
    func isChanged(in state: AppState) -> Bool {
        if let property { return state.observed.isChanged(property) }
        if isRequestSetting { return state.requestSettingIsChanged(self) }
        switch self {
        case .responseSerializer: return state.responseSerializer != .compound
        case .acceptableStatus: return state.acceptableStatusCodes != .successful
        case .removeNulls: return state.removesNulls
        case .maxBody: return state.maxBody != nil
        case .uploadLimit: return state.uploadBytesPerSecond != nil
        case .cookieFile: return state.workspace.session.cookieFile != nil
        case .proxy: return state.workspace.session.defaults.proxy != nil
        case .noProxy: return state.workspace.session.defaults.noProxy != nil
        case .clientCertificate: return state.workspace.session.defaults.tls.certificate != nil
        case .clientKey: return state.workspace.session.defaults.tls.key != nil
        case .retries: return state.workspace.session.defaults.retryPolicy != nil
        default: return false
        }
    }

    /// A note for properties Linux only records.
    var note: String? {
        guard let property, !property.isHonoredOnLinux else { return nil }
        return "recorded, not acted on by Linux"
    }
}
