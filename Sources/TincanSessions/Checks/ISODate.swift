/// Whether text is an ISO 8601 date (`2026-11-26`) or date-time (`2026-11-26T08:45:00Z`,
/// `2026-11-26T08:45:00.123+01:00`, `2026-11-26T08:45`): the `is-date` check.
///
/// The extended format only (with `-` and `:`), a `T` between date and time, seconds with any
/// fraction, and `Z` or a `±HH:MM` offset. Fields are range-checked: a month of 13, a 30 February
/// or an hour of 24 is not a date.
enum ISODate {
    static func isValid(_ text: String) -> Bool {
        let characters = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= characters.count else { return nil }
            var value = 0
            for character in characters[index..<(index + count)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) else { return nil }
                value = value * 10 + Int(character - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        func skip(_ character: Character) -> Bool {
            guard index < characters.count, characters[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), skip("-"), let month = digits(2), skip("-"), let day = digits(2),
              (1...12).contains(month), (1...daysIn(month, year: year)).contains(day) else { return false }
        if index == characters.count { return true }
        guard skip("T"), let hour = digits(2), skip(":"), let minute = digits(2), hour < 24, minute < 60 else { return false }
        if skip(":") {
            guard let second = digits(2), second <= 60 else { return false }
            if skip(".") || skip(",") {
                let start = index
                while index < characters.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[index]) { index += 1 }
                guard index > start else { return false }
            }
        }
        if index == characters.count || (skip("Z") && index == characters.count) { return index == characters.count }
        guard skip("+") || skip("-"), let offsetHours = digits(2), skip(":"), let offsetMinutes = digits(2) else { return false }
        return offsetHours < 24 && offsetMinutes < 60 && index == characters.count
    }

    private static func daysIn(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
