import Foundation
import OrderedCollections
import TincanCore

// tincan-bench: Tincan's benchmarks, each measured side by side with its reference in the same run.
// Usage: tincan-bench [query] [json] [download] [upload] [replay] [jobs] [h2] [startup] [paint] [body] [import] [stream]   (no argument runs them all)

let arguments = CommandLine.arguments.dropFirst()
// The replay benchmark's floor runs as a process of its own (LibraryReplay).
if arguments.first == "--library-replay" {
    let rest = Array(arguments.dropFirst())
    guard rest.count == 2, let count = Int(rest[1]), (1...1_000_000).contains(count) else {
        FileHandle.standardError.write(Data("tincan-bench: --library-replay takes a base URL and a request count (1 to 1000000)\n".utf8))
        exit(2)
    }
    do {
        try LibraryReplay.run(base: rest[0], count: count)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("tincan-bench: \(error)\n".utf8))
        exit(1)
    }
}
let selected = Set(arguments)
let all = ["query", "json", "download", "upload", "replay", "jobs", "h2", "startup", "paint", "body", "import", "stream"]
for name in selected where !all.contains(name) {
    FileHandle.standardError.write(Data("tincan-bench: unknown benchmark '\(name)'; expected one of \(all.joined(separator: ", "))\n".utf8))
    exit(2)
}

/// The median of `rounds` timings of `body`, in nanoseconds.
func medianNanoseconds(rounds: Int, _ body: () -> Void) -> Int64 {
    var samples: [Int64] = []
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        let elapsed = clock.measure(body)
        samples.append(Int64(elapsed.inSeconds * 1e9))
    }
    samples.sort()
    return samples[samples.count / 2]
}

func formatDuration(_ nanoseconds: Int64) -> String {
    if nanoseconds >= 1_000_000 { return String(format: "%.2f ms", Double(nanoseconds) / 1e6) }
    return String(format: "%.1f µs", Double(nanoseconds) / 1e3)
}

func printRow(_ columns: [String]) {
    let widths = [40, 12, 12, 16, 20]
    print(zip(columns, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " "))
}

// MARK: - Query-string serialization and escaping versus Python's urllib.parse

/// (a) a large nested parameter set: 2,000 users with nested objects, arrays, numbers and booleans.
func makeNestedParameters() -> OrderedDictionary<String, ParameterValue> {
    var users = OrderedDictionary<String, ParameterValue>()
    let cities = ["Oslo", "São Paulo", "Zürich", "東京", "New York", "Kraków"]
    for index in 0..<2_000 {
        users["user\(index)"] = [
            "name": .string("User number \(index) & co"),
            "email": .string("user\(index)@example.com"),
            "tags": .array((0..<5).map { .string("tag-\($0 * index % 97)") }),
            "address": ["city": .string(cities[index % cities.count]), "zip": .string(String(10_000 + index)), "line": "1 Main St, #4"],
            "active": .bool(index % 2 == 0),
            "score": .double(Double(index) / 4),
            "visits": .integer(Int64(index * 3)),
        ]
    }
    return ["users": .dictionary(users), "page": 1, "q": "search terms: a+b=c?"]
}

/// (b) a long non-ASCII string: CJK, accented Latin, Cyrillic and emoji with modifiers, ~200,000 characters.
func makeLongText() -> String {
    let unit = "漢字かな交じり文 — Ünïcödé façade, Привет мир! 👍🏽🇳🇴👨‍👩‍👧 tea & café/?"
    return String(repeating: unit, count: 200_000 / unit.count)
}

func benchmarkQuery() throws {
    let nested = makeNestedParameters()
    let text = makeLongText()
    let rounds = 30

    let directory = try makeScratchDirectory("")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let inputPath = directory + "/input.json"
    let outputPath = directory + "/python-output.json"
    let input: ParameterValue = ["nested": .dictionary(nested), "text": .string(text)]
    try Data(JSONWriter.bytes(input)).write(to: URL(fileURLWithPath: inputPath))

    var tincanNested = ""
    var tincanText = ""
    let nestedTime = medianNanoseconds(rounds: rounds) { tincanNested = QueryString.encode(nested) }
    let textTime = medianNanoseconds(rounds: rounds) { tincanText = PercentEscaping.escape(text) }

    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("python/query_bench.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, inputPath, outputPath, String(rounds)]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let python = try JSONSerialization.jsonObject(with: data) as? [String: Int64],
          let pythonNested = python["nested_ns"], let pythonText = python["text_ns"],
          let outputs = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: outputPath))) as? [String: String]
    else {
        throw NSError(domain: "tincan-bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "the Python side failed"])
    }
    let same = outputs["nested"] == tincanNested && outputs["text"] == tincanText

    print("Query-string serialization and escaping (median of \(rounds); Python \(pythonVersion()))")
    printRow(["workload", "tincan", "python", "speed-up"])
    printRow(["(a) nested parameters, \(tincanNested.utf8.count / 1024) KiB out", formatDuration(nestedTime), formatDuration(pythonNested),
              String(format: "%.1fx", Double(pythonNested) / Double(nestedTime))])
    printRow(["(b) non-ASCII text, \(text.count) chars", formatDuration(textTime), formatDuration(pythonText),
              String(format: "%.1fx", Double(pythonText) / Double(textTime))])
    print("outputs identical to Python's: \(same ? "yes" : "NO")")
    print("target: at least 3.0x faster on both")
    if !same { exit(1) }
}

func pythonVersion() -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "--version"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try? process.run()
    process.waitUntilExit()
    return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "Python ", with: "")
}

func wants(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

// A benchmark that fails (a stall past its time bound, output that is incomplete or differs from
// the reference's) says which and exits 1, so `make bench` fails with it.
do {
    if wants("query") {
        try benchmarkQuery()
    }
    if wants("json") {
        print("")
        try benchmarkJSONDecode()
    }
    if wants("download") || wants("upload") {
        print("")
        try await benchmarkTransfers(download: wants("download"), upload: wants("upload"))
    }
    if wants("replay") {
        print("")
        try await benchmarkReplay()
    }
    if wants("h2") {
        print("")
        try await benchmarkHTTP2Download()
    }
    if wants("jobs") {
        print("")
        try await benchmarkParallelReplay()
    }
    if wants("startup") {
        print("")
        try await benchmarkStartup()
    }
    if wants("paint") {
        print("")
        try benchmarkFirstPaint()
    }
    if wants("body") {
        print("")
        try await benchmarkBodyView()
    }
    if wants("import") {
        print("")
        try benchmarkImport()
    }
    if wants("stream") {
        print("")
        try await benchmarkStream()
    }
} catch {
    FileHandle.standardError.write(Data("tincan-bench: \(error)\n".utf8))
    exit(1)
}
