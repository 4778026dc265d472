import Foundation
import TincanDemoServer

/// `tincan replay` of a 1,000-request session against a shell loop of curl over the same
/// requests, both against one in-process demo server, alternating runs.
func benchmarkReplay() async throws {
    let count = 1000
    let rounds = 3
    let server = try await DemoServer.start()
    defer { Task { await server.stop() } }
    let directory = NSTemporaryDirectory() + "tincan-bench-replay-\(ProcessInfo.processInfo.processIdentifier)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }

    // Half GETs with a query, half POSTs of a small JSON object; every response is checked.
    var session = "name: Replay benchmark\nbase: \"{{server}}/\"\nrequests:\n"
    var script = "#!/bin/bash\nset -e\n"
    for index in 0..<count {
        if index.isMultiple(of: 2) {
            session += "  - method: GET\n    url: get\n    query:\n      n: \"\(index)\"\n    assert:\n      status: 200\n      body:\n        $.args.n: \"\(index)\"\n"
            script += "curl -s -f -o /dev/null '\(server.baseURL)/get?n=\(index)'\n"
        } else {
            session += "  - method: POST\n    url: post\n    serializer: json\n    params:\n      n: \(index)\n      name: item\n    assert:\n      status: 200\n      body:\n        $.json.n: \(index)\n"
            script += "curl -s -f -o /dev/null -H 'Content-Type: application/json' --data-raw '{\"n\":\(index),\"name\":\"item\"}' '\(server.baseURL)/post'\n"
        }
    }
    let sessionFile = directory + "/bench.tincan.yaml"
    let scriptFile = directory + "/curl-loop.sh"
    try session.write(toFile: sessionFile, atomically: true, encoding: .utf8)
    try script.write(toFile: scriptFile, atomically: true, encoding: .utf8)

    var curl: [ProcessCost] = []
    var tincan: [ProcessCost] = []
    for _ in 0..<rounds {
        curl.append(try measure(["bash", scriptFile]))
        tincan.append(try measure([tincanBinary, "replay", sessionFile, "--var", "server=\(server.baseURL)", "--report", "json"]))
    }
    let curlCost = median(curl)
    let tincanCost = median(tincan)
    let curlRate = Double(count) / curlCost.seconds
    let tincanRate = Double(count) / tincanCost.seconds
    print("Replay \(count) requests (GET with a query, POST of JSON, each checked) against the demo server, median of \(rounds)")
    printRow(["tool", "time", "requests/s", "peak RSS"])
    printRow(["curl loop (bash)", String(format: "%.2f s", curlCost.seconds), String(format: "%.0f", curlRate), mebibytes(curlCost.maxRSSBytes)])
    printRow(["tincan replay", String(format: "%.2f s", tincanCost.seconds), String(format: "%.0f", tincanRate), mebibytes(tincanCost.maxRSSBytes)])
    print(String(format: "tincan replay: %.1fx the requests per second of the curl loop (target: at least 5x)", tincanRate / curlRate))
}
