import Foundation
import TestSupport
import Testing
@testable import tincan

@Suite("tincan send --retry")
struct SendRetryTests {
    @Test("--retry 2 --retry-delay 0.01 on a 503 sends three times and the JSON lists both retries")
    func jsonListsTheRetries() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--format", "json", "--retry", "2", "--retry-delay", "0.01", "GET", "\(server.baseURL)/status/503"])
            #expect(result.status == 3, "a 503 still fails validation")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
            let retries = try #require(object["retries"] as? [[String: Any]])
            #expect(retries.map { $0["kind"] as? String } == ["status", "status"])
            #expect(retries.map { $0["status"] as? Int } == [503, 503])
            #expect(retries.map { $0["attempt"] as? Int } == [1, 2])
            let delays = retries.compactMap { $0["delaySeconds"] as? Double }
            #expect(delays.count == 2)
            #expect(delays[0] >= 0.005 && delays[0] <= 0.01, "retry 1 waits within [delay/2, delay]")
            #expect(delays[1] >= 0.01 && delays[1] <= 0.02, "retry 2 waits within [delay, 2 × delay]")
            #expect((retries.first?["message"] as? String)?.hasSuffix(": status 503") == true)
            #expect(object["retryNote"] as? String == "status 503: gave up after 2 retries")
            #expect((object["timing"] as? [String: Any])?["requests"] as? Int == 3)
        }
    }

    @Test("a request that fails once succeeds on its retry, and the text output says why it was retried")
    func textShowsTheRetry() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--print", "hbm", "--retry", "1", "--retry-delay", "0", "GET", "\(server.baseURL)/flaky/cli/1"])
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == "↻ retry 1 after 0 s: status 503")
            #expect(lines.dropFirst().first == "HTTP/1.1 200 OK")
            #expect(result.stdout.contains("\"attempt\": 2"))
        }
    }

    @Test("into a pipe, where only the body goes to standard output, each retry is still said on standard error")
    func aPipeStillHearsOfTheRetry() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--retry", "1", "--retry-delay", "0", "GET", "\(server.baseURL)/flaky/pipe/1"])
            #expect(result.status == 0)
            #expect(result.stderr.contains("↻ retry 1 after 0 s: status 503"), "\(result.stderr)")
            #expect(!result.stdout.contains("↻"), "\(result.stdout)")
        }
    }

    @Test("without --retry nothing is retried and the JSON says so")
    func noRetryByDefault() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--format", "json", "GET", "\(server.baseURL)/flaky/none/1"])
            #expect(result.status == 3)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
            #expect((object["retries"] as? [Any])?.isEmpty == true)
            #expect(object["retryNote"] is NSNull)
            #expect((object["timing"] as? [String: Any])?["requests"] as? Int == 1)
        }
    }

    @Test("bad --retry and --retry-delay values are exit 2 naming the option and the range", arguments: [
        (["--retry", "101"], "'--retry <N>': 101 is out of range (0…100)"),
        (["--retry=-1"], "'--retry <N>': -1 is out of range (0…100)"),
        (["--retry", "1.5"], "'--retry <N>': 1.5 is not a whole number"),
        (["--retry", "many"], "'--retry <N>': 'many' is not a number"),
        (["--retry", "2", "--retry-delay", "3601"], "'--retry-delay <SECONDS>': 3601 is out of range (0…3600 seconds)"),
        (["--retry", "2", "--retry-delay", "nan"], "'--retry-delay <SECONDS>': 'nan' is not a number"),
        (["--retry-delay", "1"], "--retry-delay sets the wait before a retry; it needs --retry N"),
    ])
    func badValues(arguments: [String], message: String) async {
        let ending = await ending(of: ["send", "--offline"] + arguments + ["GET", "http://127.0.0.1:9/"])
        #expect(ending.status == 2)
        #expect(ending.standardError?.contains(message) == true, "\(ending.standardError ?? "")")
    }
}
