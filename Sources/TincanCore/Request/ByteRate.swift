/// Byte rates as people type them: `50000`, `200k`, `1.5M` (decimal units, as curl's --limit-rate).
public enum ByteRate {
    /// Bytes per second, or nil when the text is not a positive rate.
    public static func parse(_ text: String) -> Int? {
        let multipliers: [Character: Double] = ["k": 1_000, "K": 1_000, "m": 1_000_000, "M": 1_000_000, "g": 1_000_000_000, "G": 1_000_000_000]
        let multiplier = text.last.flatMap { multipliers[$0] } ?? 1
        let digits = multiplier == 1 ? Substring(text) : text.dropLast()
        guard let value = Double(digits), value.isFinite, value * multiplier >= 1 else { return nil }
        return Int(value * multiplier)
    }
}

extension ObservedProperties {
    /// The properties a request gets: the changed ones over `NSURLRequest`'s defaults.
    public var effective: RequestProperties {
        var properties = RequestProperties()
        if let allowsCellularAccess { properties.allowsCellularAccess = allowsCellularAccess }
        if let cachePolicy { properties.cachePolicy = cachePolicy }
        if let httpShouldHandleCookies { properties.httpShouldHandleCookies = httpShouldHandleCookies }
        if let httpShouldUsePipelining { properties.httpShouldUsePipelining = httpShouldUsePipelining }
        if let networkServiceType { properties.networkServiceType = networkServiceType }
        if let timeoutInterval { properties.timeoutInterval = timeoutInterval }
        return properties
    }
}
