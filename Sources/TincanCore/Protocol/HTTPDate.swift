import Foundation

/// HTTP dates: RFC 6265's lenient cookie-date algorithm for reading (it accepts the IMF-fixdate,
/// RFC 850 and asctime forms alike), and the IMF-fixdate form for writing.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date `text` names, or nil when it is not a date (RFC 6265 §5.1.1).
    public static func parse(_ text: some StringProtocol) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(of: Substring(text)) {
            if time == nil, let parsed = parseTime(token) {
                time = parsed
            } else if day == nil, let parsed = leadingDigits(token, minimum: 1, maximum: 2) {
                day = parsed
            } else if month == nil, token.count >= 3, let index = months.firstIndex(of: token.prefix(3).lowercased()) {
                month = index + 1
            } else if year == nil, let parsed = leadingDigits(token, minimum: 2, maximum: 4) {
                year = parsed
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date
    }

    /// `date` in the IMF-fixdate form: `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(weekdays[(parts.weekday ?? 1) - 1]), \(two(parts.day)) \(monthNames[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }

    /// Splits on the delimiters of RFC 6265 §5.1.1: every byte but digits, letters and `:`.
    private static func tokens(of text: Substring) -> [Substring] {
        text.split { character in
            !(character.isASCII && (character.isLetter || character.isNumber || character == ":"))
        }
    }

    private static func leadingDigits(_ token: Substring, minimum: Int, maximum: Int) -> Int? {
        let digits = token.prefix { $0.isASCII && $0.isNumber }
        guard (minimum...maximum).contains(digits.count) else { return nil }
        if digits.count < token.count, token[digits.endIndex].isNumber { return nil }
        return Int(digits)
    }

    private static func parseTime(_ token: Substring) -> (Int, Int, Int)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let hour = leadingDigits(parts[0], minimum: 1, maximum: 2), parts[0].count <= 2,
              let minute = leadingDigits(parts[1], minimum: 1, maximum: 2), parts[1].count <= 2,
              let second = leadingDigits(parts[2], minimum: 1, maximum: 2)
        else { return nil }
        return (hour, minute, second)
    }
}
