import Foundation
import TestSupport
import Testing
@testable import tincan
import TincanCore
import TincanDemoServer

/// `tincan send` for people who live in HTTPie and curl (issue 34 §10): output by destination,
/// `--print`, an optional method, HTTPie's short flags, and one declaration of every option.
@Suite("tincan send, HTTPie's way")
struct SendHTTPieTests {
    @Test("into a pipe the body alone, so jq reads it; --verbose sends the heads and timing to standard error")
    func aPipeGetsTheBodyAlone() async throws {
        try await withDemoServer { server in
            let plain = try await tincan(["send", "\(server.baseURL)/get", "q==tea"])
            #expect(plain.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdoutBytes)) as? [String: Any], "\(plain.stdout)")
            #expect((object["args"] as? [String: String]) == ["q": "tea"])
            #expect(plain.stderr.isEmpty, "\(plain.stderr)")
            let verbose = try await tincan(["send", "-v", "\(server.baseURL)/get"])
            #expect(try JSONSerialization.jsonObject(with: Data(verbose.stdoutBytes)) is [String: Any], "standard output stays the body: \(verbose.stdout)")
            #expect(verbose.stderr.hasPrefix("GET /get HTTP/1.1\n"), "\(verbose.stderr)")
            #expect(verbose.stderr.contains("HTTP/1.1 200 OK\n") && verbose.stderr.contains("total "), "\(verbose.stderr)")
        }
    }

    @Test("--print chooses the parts by HTTPie's letters, in the order of the exchange")
    func printChoosesTheParts() async throws {
        try await withDemoServer { server in
            let all = try await tincan(["send", "--print", "HBhbm", "\(server.baseURL)/post", "name=Ada"])
            let text = all.stdout
            let order = ["POST /post HTTP/1.1", "name=Ada", "HTTP/1.1 200 OK", "\"form\"", "total "].map { text.range(of: $0)?.lowerBound }
            #expect(order.allSatisfy { $0 != nil }, "\(text)")
            #expect(zip(order, order.dropFirst()).allSatisfy { $0! < $1! }, "\(text)")
            let head = try await tincan(["send", "-p", "h", "\(server.baseURL)/get"])
            #expect(head.stdout.hasPrefix("HTTP/1.1 200 OK\n") && !head.stdout.contains("\"args\""), "\(head.stdout)")
            let metadata = try await tincan(["send", "-p", "m", "\(server.baseURL)/get"])
            #expect(metadata.stdout.contains("total ") && !metadata.stdout.contains("HTTP/1.1"), "\(metadata.stdout)")
        }
    }

    @Test("the body is as it came into a pipe, bytes and all; --pretty=format indents it there")
    func aPipeGetsTheBytesAsTheyCame() async throws {
        try await withDemoServer { server in
            let image = try await tincan(["send", "\(server.baseURL)/image/png"])
            #expect(image.status == 0)
            #expect(image.stdoutBytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "the PNG's own bytes")
            let raw = try await tincan(["send", "\(server.baseURL)/anything", "--params-json", "{\"a\":[1]}", "-j"])
            let formatted = try await tincan(["send", "--pretty", "format", "\(server.baseURL)/anything", "--params-json", "{\"a\":[1]}", "-j"])
            #expect(formatted.stdout.contains("\"json\": {\n"), "\(formatted.stdout)")
            #expect(!formatted.stdout.contains("\u{1B}["), "format indents without colour")
            #expect(raw.stdout != formatted.stdout)
            let coloured = try await tincan(["send", "--color", "always", "\(server.baseURL)/get"])
            #expect(coloured.stdout.contains("\u{1B}["), "--color always colours a pipe too")
            let neverColoured = try await tincan(["send", "--pretty", "all", "\(server.baseURL)/get"], environment: ["NO_COLOR": "1"])
            #expect(!neverColoured.stdout.contains("\u{1B}["), "NO_COLOR wins over --pretty all's colours")
        }
    }

    @Test("the method is optional: GET, or POST when there is data; a localhost shorthand; a missing URL says so")
    func theMethodIsOptional() async throws {
        try await withDemoServer { server in
            let port = server.port
            let get = try await tincan(["send", "--offline", ":\(port)/get"])
            #expect(get.stdout.hasPrefix("GET /get HTTP/1.1\nHost: localhost:\(port)\n"), "\(get.stdout)")
            let post = try await tincan(["send", "--offline", ":\(port)/post", "name=Ada"])
            #expect(post.stdout.hasPrefix("POST /post HTTP/1.1"), "\(post.stdout)")
            let query = try await tincan(["send", "--offline", ":\(port)/get", "q==1", "X-A:b"])
            #expect(query.stdout.hasPrefix("GET /get?q=1 HTTP/1.1"), "query fields and headers are not data: \(query.stdout)")
            let piped = try await tincan(["send", "\(server.baseURL)/anything"], standardInput: .pipe(Array("hello".utf8)))
            #expect(piped.stdout.contains("\"method\": \"POST\"") && piped.stdout.contains("\"hello\""), "standard input is the body, and makes it a POST: \(piped.stdout)")
            let lowercase = try await tincan(["send", "--offline", "put", ":\(port)/put", "a=1"])
            #expect(lowercase.stdout.hasPrefix("PUT /put HTTP/1.1"), "\(lowercase.stdout)")
        }
        let missing = await ending(of: ["send", "GET"])
        #expect(missing.status == 2)
        #expect(missing.standardError?.contains("a URL is missing after the method GET") == true, "\(missing)")
    }

    @Test("HTTPie's short flags: -a, -j, -f, -o, -v, -F and --no-follow")
    func httpiesShortFlags() async throws {
        let folder = try TemporaryDirectory()
        try await withDemoServer { server in
            let auth = try await tincan(["send", "-a", "ann:s3cret", "\(server.baseURL)/basic-auth/ann/s3cret"])
            #expect(auth.status == 0, "\(auth.stderr)")
            let json = try await tincan(["send", "--offline", "-j", "\(server.baseURL)/post", "n:=1"])
            #expect(json.stdout.contains("Content-Type: application/json") && json.stdout.hasSuffix("{\"n\":1}\n"), "\(json.stdout)")
            let form = try await tincan(["send", "--offline", "-f", "\(server.baseURL)/post", "n:=1"])
            #expect(form.stdout.contains("Content-Type: application/x-www-form-urlencoded"), "\(form.stdout)")
            let file = folder.path + "/out.bin"
            let output = try await tincan(["send", "-o", file, "\(server.baseURL)/bytes/64"])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)).count == 64)
            let follow = try await tincan(["send", "-F", "\(server.baseURL)/redirect/1"])
            #expect(follow.status == 0, "\(follow.stderr)")
            let stay = try await tincan(["send", "--no-follow", "--accept-status", "3xx", "-p", "h", "\(server.baseURL)/redirect/1"])
            #expect(stay.stdout.hasPrefix("HTTP/1.1 302"), "\(stay.stdout)")
        }
    }

    @Test("send --help starts with examples, and fits 80 columns")
    func helpStartsWithExamples() async throws {
        let help = try await run(BuiltProducts.tincan, ["send", "--help"])
        #expect(help.status == 0)
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.prefix(4).contains { $0.hasPrefix("Examples:") }, "\(lines.prefix(4))")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        // 130 before OAuth 2.0 (issue 39 §1) added its twelve options and GraphQL (§2) its three:
        // a bound that says when the help grows without a new option.
        #expect(lines.count <= 146, "\(lines.count) lines")
    }
}
