import Foundation
import TincanDemoServer

/// Whole-process costs a user feels at every command: `tincan --version` against
/// `curl --version`, and one `tincan send GET` to the demo server against `curl -s`,
/// alternating runs, without GNU time in between.
func benchmarkStartup() async throws {
    let rounds = 200
    let directory = try makeScratchDirectory("startup")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let curlOutput = directory + "/curl"
    let tincanOutput = directory + "/tincan"

    var curlVersion: [ProcessCost] = []
    var tincanVersion: [ProcessCost] = []
    for _ in 0..<rounds {
        curlVersion.append(try await measure(["curl", "--version"], standardOutput: curlOutput, limit: .seconds(10), peakMemory: false))
        tincanVersion.append(try await measure([tincanBinary, "--version"], standardOutput: tincanOutput, limit: .seconds(10), peakMemory: false))
    }
    let version = try String(contentsOfFile: tincanOutput, encoding: .utf8)
    try require(version.hasPrefix("tincan ") || version.first?.isNumber == true, "tincan --version printed \(version.debugDescription)")
    try require(try String(contentsOfFile: curlOutput, encoding: .utf8).hasPrefix("curl "), "curl --version printed no version")

    let server = try await DemoServer.start()
    defer { Task { await server.stop() } }
    let url = "\(server.baseURL)/json"
    var curlSend: [ProcessCost] = []
    var tincanSend: [ProcessCost] = []
    for _ in 0..<rounds {
        curlSend.append(try await measure(["curl", "-s", "-f", url], standardOutput: curlOutput, limit: .seconds(10), peakMemory: false))
        tincanSend.append(try await measure([tincanBinary, "send", "GET", url], standardOutput: tincanOutput, limit: .seconds(10), peakMemory: false))
    }
    // Both got the whole document: into a file, tincan writes the body alone, as curl does, and
    // it decodes to what curl printed.
    func canonical(_ data: Data) throws -> Data {
        try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: data), options: [.sortedKeys])
    }
    let curlBody = try canonical(Data(contentsOf: URL(fileURLWithPath: curlOutput)))
    let tincanBody = try Data(contentsOf: URL(fileURLWithPath: tincanOutput))
    try require(try canonical(tincanBody) == curlBody, "tincan's body differs from curl's: \(String(decoding: tincanBody.prefix(200), as: UTF8.self).debugDescription)")

    let medians = [median(curlVersion), median(tincanVersion), median(curlSend), median(tincanSend)]
    print("Start-up and one request, whole process (median of \(rounds) alternating runs)")
    printRow(["command", "time"])
    for (name, cost) in zip(["curl --version", "tincan --version", "curl -s GET /json", "tincan send GET /json"], medians) {
        printRow([name, String(format: "%.2f ms", cost.seconds * 1000)])
    }
    print(String(format: "tincan --version: %.2fx curl's time (target at most 1.2x); tincan send: %.2fx curl's time (target at most 2x, every option declared once)",
                 medians[1].seconds / medians[0].seconds, medians[3].seconds / medians[2].seconds))
    print("tincan binary: \(mebibytes(fileSize(tincanBinary))) (\(strippedSize().map(mebibytes) ?? "strip unavailable") stripped)")
}

/// The size of the tincan binary with its symbols stripped, as a package would ship it.
func strippedSize() -> Int? {
    let copy = NSTemporaryDirectory() + "tincan-bench-stripped-\(getpid())"
    defer { unlink(copy) }
    guard (try? measure(["strip", "-o", copy, tincanBinary], limit: .seconds(60), peakMemory: false)) != nil else { return nil }
    return fileSize(copy)
}
