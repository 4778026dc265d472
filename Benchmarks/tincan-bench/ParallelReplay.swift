import Foundation
import TincanDemoServer

/// `tincan replay --jobs 4` of 8 session files of 250 checked requests each, against `--jobs 1`
/// of the same files, alternating runs against one in-process demo server. Both must pass every
/// request with the same results, file by file.
func benchmarkParallelReplay() async throws {
    let files = 8
    let requests = 250
    let rounds = 3
    let server = try await DemoServer.start()
    defer { Task { await server.stop() } }
    let directory = try makeScratchDirectory("jobs")
    defer { try? FileManager.default.removeItem(atPath: directory) }

    var paths: [String] = []
    for file in 0..<files {
        var session = "name: Part \(file)\nbase: \"{{server}}/\"\nrequests:\n"
        for index in 0..<requests {
            let n = file * requests + index
            if index.isMultiple(of: 2) {
                session += "  - url: get\n    query:\n      n: \"\(n)\"\n    assert:\n      status: 200\n      body:\n        $.args.n: \"\(n)\"\n"
            } else {
                session += "  - method: POST\n    url: post\n    serializer: json\n    params:\n      n: \(n)\n    assert:\n      status: 200\n      body:\n        $.json.n: \(n)\n"
            }
        }
        let path = directory + "/part\(file).tincan.yaml"
        try session.write(toFile: path, atomically: true, encoding: .utf8)
        paths.append(path)
    }
    let output = directory + "/output"
    /// Each file's name and request states, from the report: what both runs must agree on.
    func results() throws -> [String] {
        let report = try jsonObject(atPath: output)
        try require(report["files"] as? Int == files && report["total"] as? Int == files * requests && report["passed"] as? Bool == true,
                    "tincan replay: \(report["failed"] ?? "?") of \(report["total"] ?? "?") requests in \(report["files"] ?? "?") files failed")
        let sessions = report["sessions"] as? [[String: Any]] ?? []
        return sessions.map { session in
            let states = (session["requests"] as? [[String: Any]] ?? []).map { "\($0["state"] ?? "?")" }
            return "\(session["session"] ?? "?"): \(states.joined(separator: ","))"
        }
    }
    let commands = [1, 4].map { jobs in
        (name: "tincan replay --jobs \(jobs)", arguments: [tincanBinary, "replay", "--jobs", String(jobs), "--var", "server=\(server.baseURL)", "--report", "json"] + paths)
    }
    var costs = Array(repeating: [ProcessCost](), count: commands.count)
    var expected: [String]?
    for _ in 0..<rounds {
        for (index, command) in commands.enumerated() {
            costs[index].append(try await measure(command.arguments, standardOutput: output, limit: .seconds(120)))
            let got = try results()
            if let expected {
                try require(got == expected, "\(command.name): the files' results differ from the other run's")
            } else {
                expected = got
            }
        }
    }
    let medians = costs.map(median)
    print("Replay \(files) files of \(requests) checked requests each (GET with a query, POST of JSON), median of \(rounds)")
    printRow(["tool", "time", "requests/s", "peak RSS"])
    for (command, cost) in zip(commands, medians) {
        printRow([command.name, String(format: "%.2f s", cost.seconds), String(format: "%.0f", Double(files * requests) / cost.seconds), mebibytes(cost.maxRSSBytes)])
    }
    print(String(format: "--jobs 4: %.2fx the requests per second of --jobs 1, with the same results, file by file", medians[0].seconds / medians[1].seconds))
}
