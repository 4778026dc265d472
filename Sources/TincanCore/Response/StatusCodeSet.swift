/// A set of status codes as ranges, written `200-299,304`.
public struct StatusCodeSet: Sendable, Hashable, CustomStringConvertible {
    /// The ranges, in the order given.
    public var ranges: [ClosedRange<Int>]

    /// Creates a set from ranges.
    public init(_ ranges: [ClosedRange<Int>]) {
        self.ranges = ranges
    }

    /// 200 through 299, the default of the HTTP serializer.
    public static let successful = StatusCodeSet([200...299])

    /// Parses `200-299,304` or `2xx,304` (commas or spaces between items). This is the one
    /// reading of a status set: the command line, session files and the TUI all parse through it.
    ///
    /// - Throws: ``StatusCodeSetError`` naming the item that is not a code, a range or a class.
    public init(parsing text: String) throws(StatusCodeSetError) {
        var ranges: [ClosedRange<Int>] = []
        for item in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            // A class of codes: `2xx` is 200-299.
            if item.count == 3, item.lowercased().hasSuffix("xx"), let digit = item.first?.wholeNumberValue, (1...5).contains(digit) {
                ranges.append((digit * 100)...(digit * 100 + 99))
                continue
            }
            let bounds = item.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count),
                  let low = Int(bounds[0]), let high = Int(bounds.last!),
                  (100...599).contains(low), (100...599).contains(high), low <= high
            else { throw StatusCodeSetError(item: String(item)) }
            ranges.append(low...high)
        }
        guard !ranges.isEmpty else { throw StatusCodeSetError(item: text) }
        self.ranges = ranges
    }

    /// Whether `code` is in the set.
    public func contains(_ code: Int) -> Bool {
        ranges.contains { $0.contains(code) }
    }

    public var description: String {
        ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
    }
}

/// A status-code set that could not be parsed.
public struct StatusCodeSetError: Error, Sendable, CustomStringConvertible {
    /// The item at fault.
    public var item: String
    public var description: String { "'\(item)' is not a status code or range; expected codes from 100 to 599 such as 200-299,304 or 2xx" }
}
