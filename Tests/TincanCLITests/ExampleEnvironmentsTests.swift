import Foundation
import Testing
import TestSupport
import TincanSessions

/// Examples that define environments pass in each of them, as they pass without one
/// (SessionCommandTests.everyExamplePasses).
@Suite("Example environments")
struct ExampleEnvironmentsTests {
    /// Each example file with each environment it defines.
    static func cases() throws -> [(String, String)] {
        try exampleFiles().flatMap { file in
            try Session.load(path: file).environments.keys.map { (file, $0) }
        }
    }

    @Test("At least two examples define environments")
    func examplesDefineEnvironments() throws {
        #expect(Set(try Self.cases().map(\.0)).count >= 2)
    }

    @Test(arguments: try cases())
    func everyEnvironmentOfAnExamplePasses(_ file: String, _ environment: String) async throws {
        let downloads = try TemporaryDirectory()
        let result = try await tincan(["replay", "--demo", file, "--env", environment, "--var", "downloads=\(downloads.path)", "--report", "json"])
        #expect(result.status == 0, "\(file) --env \(environment):\n\(result.stdout)\n\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
        #expect(report["passed"] as? Bool == true, "\(result.stdout)")
    }
}
