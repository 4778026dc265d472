import Testing
import TincanCore
@testable import TincanSessions

/// Where each variable's value comes from: the layers of docs/session-format.md, *Variables*.
@Suite("Variable sources")
struct VariableSourceTests {
    static let file = """
        variables:
          host: http://127.0.0.1:8080
          api: "{{host}}/v1"
          auth: "Bearer {{$env.API_TOKEN}}"
          user: ada
          missing: "{{nowhere}}"
        environments:
          staging:
            host: https://staging.example.com
            region: eu
        requests:
          - url: x
        """

    @Test("Each variable has its value now, the layer that set it, the layers it hides and the $env names it reads")
    func layersAreNamed() throws {
        let session = try Session.parse(Self.file, path: "s.tincan.yaml")
        let sources = session.variableSources(environment: "staging", overrides: ["user": "grace"], captured: ["token": .string("t0k"), "api": .integer(7)],
                                              processEnvironment: ["API_TOKEN": "s3cret"])
        let byName = Dictionary(uniqueKeysWithValues: sources.map { ($0.name, $0) })
        #expect(sources.map(\.name) == ["host", "api", "auth", "user", "missing", "region", "token"])
        #expect(byName["host"]?.layer == .environment("staging"))
        #expect(byName["host"]?.hidden == [.file])
        #expect(try byName["host"]?.value.get() == .string("https://staging.example.com"))
        // A capture wins over the file, and is never expanded.
        #expect(byName["api"]?.layer == .capture)
        #expect(try byName["api"]?.value.get() == .integer(7))
        #expect(byName["auth"]?.environmentReads == ["API_TOKEN"])
        #expect(try byName["auth"]?.value.get() == .string("Bearer s3cret"))
        #expect(byName["user"]?.layer == .commandLine)
        #expect(byName["user"]?.hidden == [.file])
        #expect(byName["region"]?.layer == .environment("staging"))
        #expect(byName["token"]?.layer == .capture)
        guard case .failure(let error)? = byName["missing"]?.value else {
            Issue.record("a variable that refers to nothing has a value")
            return
        }
        #expect(error.name == "nowhere")
    }

    @Test("Without an environment, the file's values apply and the environment's own names are absent")
    func noEnvironment() throws {
        let session = try Session.parse(Self.file, path: "s.tincan.yaml")
        let sources = session.variableSources(environment: nil, overrides: [:], captured: [:], processEnvironment: [:])
        #expect(!sources.map(\.name).contains("region"))
        let api = try #require(sources.first { $0.name == "api" })
        #expect(api.layer == .file)
        #expect(try api.value.get() == .string("http://127.0.0.1:8080/v1"))
        let auth = try #require(sources.first { $0.name == "auth" })
        guard case .failure = auth.value else {
            Issue.record("an unset $env variable gave a value")
            return
        }
    }

    @Test("A variable that names another which reads $env reads it too, through any depth and without looping on a cycle")
    func environmentReadsAreTransitive() throws {
        let session = try Session.parse("""
            variables:
              api: "{{$env.MYSECRET}}"
              header: "Bearer {{api}}"
              outer: "{{header}}!"
              a: "{{b}}"
              b: "{{a}}{{$env.LOOP}}"
              plain: hello
            requests:
              - url: x
            """, path: "t.tincan.yaml")
        let byName = Dictionary(uniqueKeysWithValues: session.variableSources(environment: nil, overrides: [:], captured: [:], processEnvironment: ["MYSECRET": "hunter2"]).map { ($0.name, $0) })
        #expect(byName["header"]?.environmentReads == ["MYSECRET"])
        #expect(byName["outer"]?.environmentReads == ["MYSECRET"])
        #expect(byName["a"]?.environmentReads == ["LOOP"])
        #expect(byName["plain"]?.environmentReads == [])
    }
}
