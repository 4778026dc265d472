import Foundation
import TincanDemoServer

/// `tincan replay` of a 1,000-request session against the same requests from curl (one kept-alive
/// `curl -K` process, and a shell loop of one process per request) and from Python's
/// requests.Session, all against one in-process demo server, alternating runs; and from
/// AsyncHTTPClient alone (`LibraryReplay`), the floor of a client on Tincan's transport.
func benchmarkReplay() async throws {
    let count = 1000
    let rounds = 5
    let server = try await DemoServer.start()
    defer { Task { await server.stop() } }
    let directory = try makeScratchDirectory("replay")
    defer { try? FileManager.default.removeItem(atPath: directory) }

    // Half GETs with a query, half POSTs of a small JSON object; every response is checked.
    var session = "name: Replay benchmark\nbase: \"{{server}}/\"\nrequests:\n"
    var script = "#!/bin/bash\nset -e\n"
    // curl's config: `next` starts the next transfer, which reuses the connection. `silent` is
    // global; `fail` and `write-out` are per transfer, so each block repeats them.
    var config = "silent\n"
    for index in 0..<count {
        config += "fail\nwrite-out = \"%{http_code}\\n\"\n"
        if index.isMultiple(of: 2) {
            session += "  - method: GET\n    url: get\n    query:\n      n: \"\(index)\"\n    assert:\n      status: 200\n      body:\n        $.args.n: \"\(index)\"\n"
            script += "curl -s -f -o /dev/null -w '%{http_code}\\n' '\(server.baseURL)/get?n=\(index)'\n"
            config += "url = \"\(server.baseURL)/get?n=\(index)\"\noutput = \"/dev/null\"\n"
        } else {
            session += "  - method: POST\n    url: post\n    serializer: json\n    params:\n      n: \(index)\n      name: item\n    assert:\n      status: 200\n      body:\n        $.json.n: \(index)\n"
            script += "curl -s -f -o /dev/null -w '%{http_code}\\n' -H 'Content-Type: application/json' --data-raw '{\"n\":\(index),\"name\":\"item\"}' '\(server.baseURL)/post'\n"
            config += "url = \"\(server.baseURL)/post\"\noutput = \"/dev/null\"\nheader = \"Content-Type: application/json\"\ndata-raw = \"{\\\"n\\\":\(index),\\\"name\\\":\\\"item\\\"}\"\n"
        }
        if index < count - 1 { config += "next\n" }
    }
    let sessionFile = directory + "/bench.tincan.yaml"
    let scriptFile = directory + "/curl-loop.sh"
    let configFile = directory + "/curl.config"
    try session.write(toFile: sessionFile, atomically: true, encoding: .utf8)
    try script.write(toFile: scriptFile, atomically: true, encoding: .utf8)
    try config.write(toFile: configFile, atomically: true, encoding: .utf8)
    let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("python/replay_bench.py").path
    let output = directory + "/output"

    // Each command, and how its output shows that all `count` requests got their answer.
    let allOK = String(repeating: "200\n", count: count)
    let commands: [(name: String, arguments: [String], check: (String) throws -> Void)] = [
        ("curl -K, one process", ["curl", "-K", configFile], { text in
            try require(text == allOK, "curl -K: \(text.split(separator: "\n").filter { $0 == "200" }.count) of \(count) transfers answered 200")
        }),
        ("python requests.Session", ["python3", python, server.baseURL, String(count)], { _ in
            let checked = try jsonObject(atPath: output)["checked"] as? Int
            try require(checked == count, "requests.Session: \(checked ?? 0) of \(count) responses passed their checks")
        }),
        ("curl loop (bash)", ["bash", scriptFile], { text in
            try require(text == allOK, "curl loop: \(text.split(separator: "\n").filter { $0 == "200" }.count) of \(count) transfers answered 200")
        }),
        ("AsyncHTTPClient alone", [benchBinary, "--library-replay", server.baseURL, String(count)], { text in
            try require(text == allOK, "AsyncHTTPClient alone: \(text.split(separator: "\n").filter { $0 == "200" }.count) of \(count) requests answered 200")
        }),
        ("tincan replay", [tincanBinary, "replay", sessionFile, "--var", "server=\(server.baseURL)", "--report", "json"], { _ in
            let report = try jsonObject(atPath: output)
            try require(report["passed"] as? Bool == true && report["total"] as? Int == count,
                        "tincan replay: \(report["failed"] ?? "?") of \(report["total"] ?? "?") requests failed their checks")
        }),
    ]
    var costs = Array(repeating: [ProcessCost](), count: commands.count)
    for _ in 0..<rounds {
        for (index, command) in commands.enumerated() {
            costs[index].append(try await measure(command.arguments, standardOutput: output, limit: .seconds(120)))
            try command.check(try String(contentsOfFile: output, encoding: .utf8))
        }
    }
    let medians = costs.map(median)
    print("Replay \(count) requests (GET with a query, POST of JSON, each answered 200; Tincan and Python check the echoed value) against the demo server, median of \(rounds)")
    printRow(["tool", "time", "requests/s", "peak RSS"])
    for (command, cost) in zip(commands, medians) {
        printRow([command.name, String(format: "%.2f s", cost.seconds), String(format: "%.0f", Double(count) / cost.seconds), mebibytes(cost.maxRSSBytes)])
    }
    let tincan = medians[4].seconds
    print(String(format: "tincan replay: %.2fx the requests per second of one keep-alive curl (target at least 1.0x), %.2fx requests.Session's, %.1fx the curl loop's",
                 medians[0].seconds / tincan, medians[1].seconds / tincan, medians[2].seconds / tincan))
    // The floor: Tincan's transport library with nothing of Tincan's around it.
    print(String(format: "AsyncHTTPClient alone (its delegate API, status only): %.2fx one keep-alive curl; tincan replay takes %.2fx its time",
                 medians[0].seconds / medians[3].seconds, tincan / medians[3].seconds))
}
