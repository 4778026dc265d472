import Foundation
import TestSupport
import Testing
@testable import tincan

/// Numbers a user might type that every option here must refuse.
private let hostileNumbers = ["inf", "-inf", "nan", "1e308", "-0", "99999999999999999999", "-5", "1e17", "1e300"]

/// The message for `text` given to `option`, whose range is `expected`.
/// What is wrong with a hostile number, in the words the error gives after naming the option.
private func reason(_ text: String, _ expected: String, examples: String = "") -> String {
    text == "nan"
        ? "'nan' is not a number; expected \(expected)" + (examples.isEmpty ? "" : ", such as \(examples)")
        : "\(text) is out of range (\(expected))"
}

@Suite("The command line checks every number and every URL it is given")
struct TrustCLITests {
    @Test("Every numeric option refuses hostile numbers with exit 2 and the option's range")
    func numericOptionsRefuseHostileNumbers() async throws {
        let directory = try TemporaryDirectory()
        let session = try directory.write("s.tincan.yaml", Array("requests:\n  - url: http://h/\n".utf8))
        let options: [(arguments: (String) -> [String], option: String, expected: String, examples: String)] = [
            ({ ["send", "--offline", "--timeout=\($0)", "GET", "http://h/"] }, "--timeout", "0.001…2147483 seconds", "5 or 0.5"),
            ({ ["send", "--offline", "--throttle=\($0)", "GET", "http://h/"] }, "--throttle", "1…1000000000000 bytes per second", "50000, 64k or 1.5M"),
            ({ ["send", "--offline", "--max-time=\($0)", "GET", "http://h/"] }, "--max-time", "0.001…2147483 seconds", "30 or 2.5"),
            ({ ["send", "--offline", "--max-redirects=\($0)", "GET", "http://h/"] }, "--max-redirects", "0…1000", ""),
            ({ ["serve", "--port=\($0)"] }, "--port", "0…65535", ""),
            ({ ["export", session, "--format", "curl", "--request=\($0)"] }, "--request", "1…2147483647", ""),
        ]
        for option in options {
            for text in hostileNumbers {
                let ending = await ending(of: option.arguments(text))
                #expect(ending.status == 2, "\(option.option) \(text): \(ending.standardError ?? "")")
                // The option named, then what is wrong with its value and what was expected.
                let said = ending.standardError ?? ""
                #expect(said.contains("'\(option.option)") || said.contains("\(option.option): "), "\(option.option) \(text): \(said)")
                #expect(said.contains(reason(text, option.expected, examples: option.examples)), "\(option.option) \(text): \(said)")
            }
        }
        // The binary ends the same way: one of them through a real process.
        let spawned = try await tincan(options[0].arguments("inf"))
        #expect(spawned.status == 2)
        #expect(spawned.stderr.hasPrefix("Error: The value 'inf' is invalid for '--timeout <SECONDS>': " + reason("inf", "0.001…2147483 seconds")), "\(spawned.stderr)")
    }

    @Test("Malformed URLs are refused with exit 2 naming the problem, with --offline too", arguments: [
        ("http://[::1", "the IPv6 address '[::1' is missing its closing ']'"),
        ("http://a b/", "the host 'a b' holds a space"),
        ("http://%zz/", "the host '%zz' holds '%'"),
        ("http://h/\u{1B}[2J", "the control character U+001B"),
        ("http://h:99999/", "the port 99999 is out of range (0…65535)"),
        ("http:///x", "it has no host"),
    ])
    func malformedURLsAreRefused(_ url: String, _ reason: String) async throws {
        for offline in [["--offline"], []] {
            let result = await ending(of: ["send"] + offline + ["GET", url])
            #expect(result.status == 2, "\(url): \(result.standardError ?? "")")
            #expect(result.standardError?.contains(reason) == true, "\(result.standardError ?? "")")
            #expect(result.standardError?.contains("\u{1B}") == false)
        }
        let base = await ending(of: ["send", "--offline", "--base", url, "GET", "x"])
        #expect(base.status == 2)
        #expect(base.standardError?.contains(reason) == true, "\(base.standardError ?? "")")
    }

    @Test("A replay reports a malformed URL as that request's failure")
    func replayReportsAMalformedURL() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("s.tincan.yaml", Array("requests:\n  - url: \"http://h:99999/\"\n".utf8))
        let result = try await tincan(["replay", file])
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("the port 99999 is out of range (0…65535)"), "\(result.stdout)\(result.stderr)")
    }

    @Test("A huge array index is refused by name, without allocating the array")
    func aHugeIndexIsRefused() async throws {
        let result = try await tincan(["send", "--offline", "POST", "http://h/", "a[100000000]=x"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad request item 'a[100000000]': the index 100000000 is out of range (0…9999)"), "\(result.stderr)")
    }

    @Test("A session file of nested aliases fails at once, naming the alias")
    func billionLaughsFailsAtOnce() async throws {
        let directory = try TemporaryDirectory()
        var text = "variables:\n  l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { text += "  l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        text += "requests:\n  - url: http://h/\n    params: *l9\n"
        let file = try directory.write("laughs.tincan.yaml", Array(text.utf8))
        let result = try await tincan(["replay", file])
        #expect(result.status == 2)
        #expect(result.stderr.contains("laughs.tincan.yaml:6:47: the alias *l3 takes the nodes that aliases produce past 100000"), "\(result.stderr)")
    }
}
