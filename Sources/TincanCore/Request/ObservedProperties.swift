/// How a request may use the cache (the values of `NSURLRequest.CachePolicy`).
public enum CachePolicy: String, Sendable, CaseIterable, Codable {
    case useProtocolCachePolicy
    case reloadIgnoringLocalCacheData
    case reloadIgnoringLocalAndRemoteCacheData
    case returnCacheDataElseLoad
    case returnCacheDataDontLoad
    case reloadRevalidatingCacheData
}

/// The kind of traffic a request carries (the values of `NSURLRequest.NetworkServiceType`).
///
/// Recorded and reported; Linux has no scheduler that acts on it.
public enum NetworkServiceType: String, Sendable, CaseIterable, Codable {
    case `default`
    case video
    case background
    case voice
    case responsiveData
    case avStreaming
    case responsiveAV
    case callSignaling
}

/// One of the request properties that AFNetworking's serializer observes and copies onto
/// each request it builds, in AFNetworking's order.
///
/// It is the one home of a property's names: the raw value is its AFNetworking name, and
/// ``sessionKey`` its key in a session file. The session reader and writer, the TUI's properties
/// panel and the Explain view take them from here.
public enum ObservedProperty: String, Sendable, CaseIterable, Codable {
    case allowsCellularAccess
    case cachePolicy
    case httpShouldHandleCookies
    case httpShouldUsePipelining
    case networkServiceType
    case timeoutInterval

    /// The properties in the order Tincan lists them, in session files and in the properties
    /// panel: the timeout first, then the cache and cookies, then what Linux only records.
    public static let listingOrder: [ObservedProperty] = [
        .timeoutInterval, .cachePolicy, .httpShouldHandleCookies, .httpShouldUsePipelining, .allowsCellularAccess, .networkServiceType,
    ]

    /// The name of `NSURLRequest`'s property, as AFNetworking observes it (`timeoutInterval`).
    public var afNetworkingName: String { rawValue }

    /// The key under `properties:` in a session file (`timeout`; docs/session-format.md).
    public var sessionKey: String {
        switch self {
        case .timeoutInterval: "timeout"
        case .cachePolicy: "cache-policy"
        case .httpShouldHandleCookies: "cookies"
        case .httpShouldUsePipelining: "pipelining"
        case .allowsCellularAccess: "cellular"
        case .networkServiceType: "network-service"
        }
    }

    /// The short word the TUI's `:set` takes for it (`cache`); its session key is taken too.
    public var commandWord: String {
        switch self {
        case .timeoutInterval: "timeout"
        case .cachePolicy: "cache"
        case .httpShouldHandleCookies: "cookies"
        case .httpShouldUsePipelining: "pipelining"
        case .allowsCellularAccess: "cellular"
        case .networkServiceType: "service"
        }
    }

    /// The property `word` names: its command word, its session key or its AFNetworking name,
    /// in any case; nil for none.
    public init?(word: String) {
        let word = word.lowercased()
        guard let property = Self.allCases.first(where: { [$0.commandWord, $0.sessionKey, $0.afNetworkingName.lowercased()].contains(word) }) else { return nil }
        self = property
    }

    /// Whether Tincan on Linux acts on this property, or only records it.
    public var isHonoredOnLinux: Bool {
        switch self {
        case .cachePolicy, .httpShouldHandleCookies, .timeoutInterval: true
        case .allowsCellularAccess, .httpShouldUsePipelining, .networkServiceType: false
        }
    }
}

/// The effective per-request properties, with `NSURLRequest`'s defaults.
public struct RequestProperties: Sendable, Hashable {
    /// Seconds before the request times out; 60 by default.
    public var timeoutInterval: Double = 60
    /// The cache policy; the protocol's own by default.
    public var cachePolicy: CachePolicy = .useProtocolCachePolicy
    /// Whether cookies are sent from and stored into the cookie jar; true by default.
    public var httpShouldHandleCookies = true
    /// Whether the request may be pipelined; false by default.
    public var httpShouldUsePipelining = false
    /// Whether a cellular interface may carry the request; true by default.
    public var allowsCellularAccess = true
    /// The service type; `default` by default.
    public var networkServiceType: NetworkServiceType = .default

    /// Creates the defaults.
    public init() {}
}

/// The observed properties a serializer has been told to set, each nil until the user sets it.
///
/// As in AFNetworking, only the properties that were set are copied onto a request, so a request
/// keeps the session's defaults for the rest. Setting a property, even to its default value,
/// counts as a change; setting it back to nil forgets it.
public struct ObservedProperties: Sendable, Hashable {
    public var allowsCellularAccess: Bool?
    public var cachePolicy: CachePolicy?
    public var httpShouldHandleCookies: Bool?
    public var httpShouldUsePipelining: Bool?
    public var networkServiceType: NetworkServiceType?
    public var timeoutInterval: Double?

    /// Creates a set with nothing changed.
    public init() {}

    /// The properties that were set, in AFNetworking's order.
    public var changed: [ObservedProperty] {
        ObservedProperty.allCases.filter { isChanged($0) }
    }

    /// Whether `property` was set.
    public func isChanged(_ property: ObservedProperty) -> Bool {
        switch property {
        case .allowsCellularAccess: allowsCellularAccess != nil
        case .cachePolicy: cachePolicy != nil
        case .httpShouldHandleCookies: httpShouldHandleCookies != nil
        case .httpShouldUsePipelining: httpShouldUsePipelining != nil
        case .networkServiceType: networkServiceType != nil
        case .timeoutInterval: timeoutInterval != nil
        }
    }

    /// Copies the changed properties onto `request` and records them as applied.
    public func apply(to request: inout HTTPRequest) {
        if let allowsCellularAccess { request.properties.allowsCellularAccess = allowsCellularAccess }
        if let cachePolicy { request.properties.cachePolicy = cachePolicy }
        if let httpShouldHandleCookies { request.properties.httpShouldHandleCookies = httpShouldHandleCookies }
        if let httpShouldUsePipelining { request.properties.httpShouldUsePipelining = httpShouldUsePipelining }
        if let networkServiceType { request.properties.networkServiceType = networkServiceType }
        if let timeoutInterval { request.properties.timeoutInterval = timeoutInterval }
        for property in changed where !request.appliedProperties.contains(property) {
            request.appliedProperties.append(property)
        }
    }
}
