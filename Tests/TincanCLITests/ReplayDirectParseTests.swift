import Foundation
import TestSupport
import Testing
@testable import tincan

/// `replay`'s direct reading of its arguments (ReplayArguments+DirectParse) against the argument
/// parser: a line it reads must mean what the parser makes of it, and a line it leaves goes to
/// the parser.
@Suite("replay's arguments read without the parser")
struct ReplayDirectParseTests {
    /// What the argument parser makes of `tincan replay ARGUMENTS`, or nil when it refuses them
    /// or answers with help.
    static func parsed(_ arguments: [String]) -> ReplayArguments? {
        (try? TincanCommand.parseAsRoot(["replay"] + arguments) as? ReplayCommand)?.arguments
    }

    static let check = DirectParseCheck(leading: ["a.tincan.yaml"], direct: ReplayArguments.parsedDirectly, parsed: parsed)

    @Test("every option and flag the parser lists is read directly, as the parser reads it, and changes the arguments")
    func everyListedOption() async throws {
        let listed = try ListedOption.all(of: "replay")
        #expect(listed.count == 16)
        let defaults = ReplayArguments(files: ["a.tincan.yaml"])
        // Every option of replay takes any value, so `--name=v=1` changes it too.
        let readings = await Self.check.readingsOfEveryOption(listed, attachedChanges: true)
        #expect(readings.count > listed.count)
        for reading in readings {
            #expect(reading.direct == reading.parsed, "\(reading.line)")
            #expect(reading.direct != nil, "\(reading.line) was left to the parser")
            #expect(reading.direct != defaults, "\(reading.line) changed no argument")
        }
    }

    @Test("usual lines are read as the parser reads them", arguments: [
        ["a.tincan.yaml"],
        ["a.tincan.yaml", "b.tincan.yaml", "sessions/"],
        ["sessions", "--jobs", "4", "--report", "junit", "--output", "r.xml", "--test"],
        ["a.tincan.yaml", "--var", "server=http://127.0.0.1:9", "--var=token=x", "--env", "staging", "--fail-fast"],
        ["--demo", "a.tincan.yaml", "--report=json", "--max-body", "1M", "--record-har", "x.har", "--show-secrets", "--verbose"],
        ["a.tincan.yaml", "--record-to", "b.tincan.yaml", "--compare-recorded", "--shard", "2/4"],
    ])
    func usualLines(line: [String]) throws {
        let direct = try #require(ReplayArguments.parsedDirectly(line[...]))
        #expect(direct == Self.parsed(line))
    }

    @Test("no file, help, version, unknown or repeated options and formats the parser refuses go to the parser", arguments: [
        [], ["--help"], ["a", "-h"], ["a", "--version"], ["a", "--"], ["a", "--", "-x"], ["a", "--unknown", "x"], ["a", "-x"],
        ["a", "--env"], ["a", "--env", "-x"], ["a", "--env", "x", "--env", "y"], ["a", "--test", "--test"], ["a", "--test=true"],
        ["a", "--report", "xml"], ["a", "--report="], ["--fail-fast"], ["a", "-"], ["a", "--generate-completion-script", "bash"],
        ["a", "--experimental-dump-help"],
    ])
    func leftToTheParser(line: [String]) {
        #expect(ReplayArguments.parsedDirectly(line[...]) == nil)
    }

    @Test("a line only the parser reads runs the same replay as one read directly, with the same report and exit status")
    func bothReadingsRunTheSameReplay() async throws {
        let directory = try TemporaryDirectory()
        let files = try ReplayFilesTests.sessions(["p", "q"], in: directory, failing: ["q"])
        let direct = ["replay", "--demo", "--report", "json"] + files
        // `--` before the files is the parser's to read.
        let parsed = ["replay", "--demo", "--report", "json", "--"] + files
        #expect(ReplayArguments.parsedDirectly(direct.dropFirst()) != nil)
        #expect(ReplayArguments.parsedDirectly(parsed.dropFirst()) == nil)
        var reports: [[[String: String]]] = []
        for line in [direct, parsed] {
            let result = try await tincan(line)
            #expect(result.status == 3, "\(line): \(result.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
            let sessions = try #require(report["sessions"] as? [[String: Any]], "\(result.stdout)")
            // Each request's name and state, file by file (times and the demo server's port differ).
            reports.append(sessions.flatMap { session in
                ((session["requests"] as? [[String: Any]]) ?? []).map { ["name": $0["name"] as? String ?? "", "state": $0["state"] as? String ?? ""] }
            })
        }
        #expect(reports[0].count == 4)
        #expect(reports[0].filter { $0["state"] == "failed" }.map { $0["name"] } == ["q first"])
        #expect(reports[0] == reports[1])
    }

    @Test("generated lines are read as the parser reads them, or left to it")
    func generatedLines() async throws {
        let listed = try ListedOption.all(of: "replay")
        let names = listed.map(\.name) + ["--help", "-h", "--version", "--", "-", "-x", "--unknown", "--test=true"]
            + listed.filter { $0.kind == "option" }.map { "\($0.name)=" } + ["--report=json", "--jobs=-1", "--var=a=b"]
        let values = ["a.tincan.yaml", "dir/", "json", "junit", "text", "xml", "2/4", "4", "a=b", "", "-v", "--test", "=", "é", "-1", "--", "-"]
        let (differing, direct) = await Self.check.generatedLines(names: names, values: values, count: 3000, longest: 7)
        #expect(differing.isEmpty, "read otherwise than the parser reads them: \(differing.prefix(10))")
        #expect(direct > 200)
    }
}
