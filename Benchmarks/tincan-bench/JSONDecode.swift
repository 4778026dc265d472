import Foundation
import OrderedCollections
import TincanCore

/// Decoding a 100 MB JSON response with the JSON response serializer, against Python's
/// json.loads of the same bytes.
func benchmarkJSONDecode() throws {
    let rounds = 5
    let directory = NSTemporaryDirectory() + "tincan-bench-json-\(ProcessInfo.processInfo.processIdentifier)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/large.json"
    let bytes = makeLargeJSON(targetBytes: 100_000_000)
    try Data(bytes).write(to: URL(fileURLWithPath: path))

    let url = URLReference(parsing: "http://127.0.0.1/large.json")
    let response = HTTPResponse(url: url, statusCode: 200, headers: ["Content-Type": "application/json"])
    let request = HTTPRequest(method: "GET", url: url)
    let serializer = JSONResponseSerializer()
    var items = 0
    let tincan = medianNanoseconds(rounds: rounds) {
        let result = serializer.serialize(response, data: bytes, request: request)
        if case .json(.array(let array)) = result.body { items = array.count }
    }

    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("python/json_bench.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, path, String(rounds)]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, let python = try JSONSerialization.jsonObject(with: output) as? [String: Int],
          let pythonTime = python["median_ns"], let pythonGCOff = python["median_ns_gc_off"], let pythonItems = python["items"]
    else { throw BenchFailure("the Python side failed") }

    print("Decode a \(bytes.count / 1_000_000) MB JSON response (median of \(rounds); Python \(pythonVersion()))")
    printRow(["decoder", "time", "MB/s"])
    printRow(["tincan JSON serializer", formatDuration(tincan), String(format: "%.0f", Double(bytes.count) / Double(tincan) * 1000)])
    printRow(["python json.loads", formatDuration(Int64(pythonTime)), String(format: "%.0f", Double(bytes.count) / Double(pythonTime) * 1000)])
    printRow(["python json.loads, gc off", formatDuration(Int64(pythonGCOff)), String(format: "%.0f", Double(bytes.count) / Double(pythonGCOff) * 1000)])
    print(String(format: "tincan: %.2fx Python's speed (%.2fx with Python's collector off); both read %d items: %@",
                 Double(pythonTime) / Double(tincan), Double(pythonGCOff) / Double(tincan), items, items == pythonItems ? "yes" : "NO"))
    print("target: at least 1.0x")
    if items != pythonItems { exit(1) }
}

/// An API-like document: an array of records with strings (escapes and non-ASCII among them),
/// integers, floats, booleans, nulls, nested objects and arrays.
func makeLargeJSON(targetBytes: Int) -> [UInt8] {
    var records: [ParameterValue] = []
    var size = 0
    var index = 0
    let names = ["Ada Lovelace", "Grace Hopper", "Zoë Müller", "Jürgen \"JJ\" Weiß", "東京 太郎", "Ola Nordmann\n(admin)"]
    while size < targetBytes {
        let record: ParameterValue = [
            "id": .integer(Int64(index)),
            "name": .string(names[index % names.count]),
            "email": .string("user\(index)@example.com"),
            "score": .double(Double(index % 1000) / 7),
            "active": .bool(index % 3 != 0),
            "manager": index % 5 == 0 ? .null : .integer(Int64(index / 5)),
            "tags": .array((0..<(index % 6)).map { .string("tag\($0)") }),
            "address": ["street": .string("\(index % 999) Main St"), "city": "Springfield", "zip": .string(String(10_000 + index % 89_999))],
        ]
        size += JSONWriter.bytes(record).count + 1
        records.append(record)
        index += 1
    }
    return JSONWriter.bytes(.array(records))
}
