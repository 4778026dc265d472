import OrderedCollections
import Testing
@testable import TincanCore

/// Numbers a user might type that a field must refuse unless its range holds them.
let hostileNumbers = ["inf", "-inf", "nan", "1e308", "-0", "99999999999999999999", "-5", "1e17", "1e300"]

/// The error a range gives for `text`, or nil when the range holds it: NaN is not a number,
/// everything else outside the bounds (or negative where none are allowed) is out of range.
func expectedRangeError(_ range: NumericRange, _ text: String) -> String? {
    if text == "nan" || text == ".nan" {
        return "\(range.name): '\(text)' is not a number; expected \(range.expected)" + (range.examples.isEmpty ? "" : ", such as \(range.examples)")
    }
    let value = NumericRange.decimal(Substring(text)) ?? .nan
    let negative = text.hasPrefix("-") && range.minimum >= 0
    if negative || !(range.minimum...range.maximum).contains(value) {
        return "\(range.name): \(text) is out of range (\(range.expected))"
    }
    return nil
}

@Suite("Every number a user gives is checked against its field's range")
struct NumericRangeTests {
    static let ranges: [NumericRange] = [.timeout, .uploadRate, .maxDuration, .statusCode, .port, .count, .errorCode, .comparison, .requestNumber, .parameterIndex]

    @Test("Hostile numbers are refused by every range with the field, the value and the range", arguments: ranges)
    func hostileNumbersAreRefused(_ range: NumericRange) {
        for text in hostileNumbers {
            let expected = expectedRangeError(range, text)
            do {
                let value = try range.value(parsing: text)
                #expect(expected == nil, "\(range.name) took \(text) as \(value)")
                #expect(value.isFinite)
            } catch {
                #expect(error.description == expected, "\(range.name) \(text)")
            }
        }
    }

    @Test("The documented examples of each range read as their values")
    func examplesRead() throws {
        #expect(try NumericRange.timeout.value(parsing: "0.5") == 0.5)
        #expect(try NumericRange.timeout.value(parsing: "2147483") == 2_147_483)
        #expect(try ByteRate.checked("1.5M") == 1_500_000)
        #expect(try ByteRate.checked("1.1k") == 1100)
        #expect(try NumericRange.maxDuration.value(parsing: "500ms") == 0.5)
        #expect(try NumericRange.maxDuration.value(parsing: "2s") == 2)
        #expect(try NumericRange.port.integer(parsing: "0") == 0)
        #expect(try NumericRange.comparison.value(parsing: "-1e308") == -1e308)
        #expect(throws: NumericRangeError(field: "count", text: "1.5", reason: .notWhole, expected: "0…2147483647")) { try NumericRange.count.value(parsing: "1.5") }
        #expect(throws: NumericRangeError(field: "--timeout", text: "1e17", reason: .outOfRange, expected: "0.001…2147483 seconds")) {
            try NumericRange.timeout.named("--timeout").value(parsing: "1e17")
        }
        #expect(NumericRange.timeout.named("--timeout").expected == "0.001…2147483 seconds")
        #expect(ByteRate.parse("1e300") == nil)
    }

    @Test("A draft whose timeout no front end checked is refused when built, not handed to the transport")
    func aDraftWithAnUncheckedTimeoutIsRefused() {
        var draft = RequestDraft(method: "GET", url: "http://h/")
        draft.observed.timeoutInterval = 1e17
        #expect(throws: NumericRangeError.self) { try draft.build() }
        draft.observed.timeoutInterval = .nan
        #expect(throws: NumericRangeError.self) { try draft.build() }
    }
}

@Suite("Array indexes in parameter names are bounded")
struct ParameterIndexTests {
    @Test("An index over the limit is refused with the item named, before any array is built", arguments: ["a[100000000]", "a[10000]", "a[99999999999999999999]", "a[b][0][20000]"])
    func aHugeIndexIsRefused(_ name: String) {
        do {
            _ = try ParameterPath(parsing: name)
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.item == name)
            #expect(error.reason.contains("is out of range (0…9999)"), "\(error)")
        }
        var draft = RequestDraft(method: "POST", url: "http://h/")
        draft.items = [.parameter(key: name, value: .string("x"))]
        #expect(throws: RequestItemError.self) { try draft.build() }
    }

    @Test("An index up to the limit fills the gap with nulls, as HTTPie does")
    func anIndexUpToTheLimitWorks() throws {
        var root: OrderedDictionary<String, ParameterValue> = [:]
        try ParameterPath(parsing: "a[2]").insert(.string("x"), into: &root)
        #expect(root["a"] == .array([.null, .null, .string("x")]))
        try ParameterPath(parsing: "big[9999]").insert(.string("y"), into: &root)
        guard case .array(let big)? = root["big"] else {
            Issue.record("big is not an array")
            return
        }
        #expect(big.count == 10_000)
    }
}

@Suite("Malformed URLs are refused where the request is built")
struct URLValidationTests {
    static let malformed: [(url: String, reason: String)] = [
        ("http://[::1", "the IPv6 address '[::1' is missing its closing ']'"),
        ("http://[::1/x", "missing its closing ']'"),
        ("http://[zz]/", "'[zz]' is not an IPv6 address"),
        ("http://[::1]x/", "'x' follows the IPv6 address '[::1]'"),
        ("http://a b/", "the host 'a b' holds a space, which a host name cannot hold"),
        ("http://%zz/", "the host '%zz' holds '%', which a host name cannot hold"),
        ("http://a%2Fb/", "the host 'a/b' holds '/'"),
        ("http://a<b/", "the host 'a<b' holds '<'"),
        ("http://h/\u{01}x", "it holds the control character U+0001 at character 10"),
        ("http://h/a\nb", "it holds the control character U+000A"),
        ("http://h\u{7F}/", "control character U+007F"),
        ("http://h:99999/", "the port 99999 is out of range (0…65535)"),
        ("http://h:99999999999999999999/", "the port 99999999999999999999 is out of range (0…65535)"),
        ("http://h:8x/", "the port '8x' is not a number"),
        ("http://h:-1/", "the port '-1' is not a number"),
        ("http:///x", "it has no host"),
        ("http://u:p@/x", "it has no host"),
    ]

    @Test("Each malformed URL is refused with its problem named", arguments: malformed)
    func malformedURLsAreRefused(_ url: String, _ reason: String) {
        for draft in [RequestDraft(method: "GET", url: url), RequestDraft(method: "GET", url: "x", baseURL: url)] {
            do {
                _ = try draft.build()
                Issue.record("\(url) was accepted")
            } catch {
                #expect("\(error)".contains(reason), "\(error)")
                // A control character never reaches the message: it is shown escaped.
                #expect(!"\(error)".unicodeScalars.contains { $0.value < 0x20 }, "\(error)")
            }
        }
    }

    @Test("Well-formed URLs still build", arguments: [
        "http://[::1]:8080/x", "http://[fe80::1%25eth0]/", "http://bücher.example/", "http://h:/", "http://u:p@h/", "http://h:65535/", "http://h:0/",
        "https://a.b-c_d~e/x y", "http://127.0.0.1/%zz",
    ])
    func wellFormedURLsBuild(_ url: String) throws {
        _ = try RequestDraft(method: "GET", url: url).build()
    }
}
