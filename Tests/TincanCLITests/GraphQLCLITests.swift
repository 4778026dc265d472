import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

@Suite("tincan send --graphql and tincan export --format CODE")
struct GraphQLCLITests {
    @Test("--graphql POSTs the operation as JSON and prints data; GET puts it in the URL")
    func sendsAnOperation() async throws {
        try await withDemoServer { server in
            let posted = try await tincan(["send", "--graphql", "query B($id: ID!) { book(id: $id) { title } }", "--graphql-variables", #"{"id": "1"}"#,
                                           "--operation-name", "B", "\(server.baseURL)/graphql"])
            #expect(posted.status == 0, "\(posted.stderr)")
            #expect(try JSONParser.parse(posted.stdout) == ["data": ["book": ["title": "The Left Hand of Darkness"]]])
            let offline = try await tincan(["send", "--offline", "--graphql", "{ hello }", "GET", "\(server.baseURL)/graphql"])
            #expect(offline.stdout.hasPrefix("GET /graphql?query=%7B%20hello%20%7D HTTP/1.1"), "\(offline.stdout)")
        }
    }

    @Test("a response with errors is a failed validation: exit 3, each message and path on standard error")
    func errorsExitThree() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--graphql", #"{ book(id: "9") { title } }"#, "\(server.baseURL)/graphql"])
            #expect(result.status == 3)
            #expect(result.stderr.contains("GraphQL error: no book has the id 9 (at book)"), "\(result.stderr)")
            #expect(result.stdout.contains(#""book":null"#))
        }
    }

    @Test("the GraphQL example replays against the demo server")
    func exampleReplays() async throws {
        let path = (examplesDirectory as NSString).appendingPathComponent("graphql.tincan.yaml")
        let result = try await tincan(["replay", "--demo", path])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("5 requests: 5 passed, 0 failed"), "\(result.stdout)")
    }

    @Test("export --format python writes one request; a session of several needs --request")
    func exportCode() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("s.tincan.yaml", Array("requests:\n  - name: one\n    url: http://127.0.0.1:9/a\n  - name: two\n    url: http://127.0.0.1:9/b\n".utf8))
        let refused = try await tincan(["export", "s.tincan.yaml", "--format", "python"], in: folder.path)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--format python writes one program, and s.tincan.yaml has 2 requests: choose one with --request NUMBER or NAME"))
        let python = try await tincan(["export", "s.tincan.yaml", "--format", "python", "--request", "two"], in: folder.path)
        #expect(python.status == 0)
        #expect(python.stdout.contains("url = 'http://127.0.0.1:9/b'"))
        let httpie = try await tincan(["export", "s.tincan.yaml", "--format", "httpie"], in: folder.path)
        #expect(httpie.status == 0)
        #expect(httpie.stdout.contains("# one\nhttp --print=b --pretty=none --ignore-stdin"), "\(httpie.stdout)")
        let swift = try await tincan(["export", "s.tincan.yaml", "--format", "swift", "--request", "1"], in: folder.path)
        #expect(swift.stderr.contains("tincan: warning: request 'one': URLSession on Linux adds Connection: keep-alive"), "\(swift.stderr)")
    }
}
