/// Byte rates as people type them: `50000`, `200k`, `1.5M` (decimal units, as curl's --limit-rate).
public enum ByteRate {
    /// Bytes per second, or nil when the text is not a rate in ``NumericRange/uploadRate``.
    public static func parse(_ text: String) -> Int? {
        try? checked(text)
    }

    /// Bytes per second, checked against `range` (``NumericRange/uploadRate`` under the caller's name).
    ///
    /// - Throws: ``NumericRangeError`` naming the field, the text and the range.
    public static func checked(_ text: String, range: NumericRange = .uploadRate) throws(NumericRangeError) -> Int {
        try range.integer(parsing: text)
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
