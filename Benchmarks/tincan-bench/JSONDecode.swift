import Foundation
import OrderedCollections
import TincanCore
import TincanSessions

/// Decoding and validating a 100 MB JSON response with the JSON response serializer, then
/// capturing one value as a replay's `capture:` does, against Python's json.loads, orjson.loads
/// and pysimdjson's Parser.parse of the same bytes, each followed by the same capture.
func benchmarkJSONDecode() throws {
    let rounds = 5
    let directory = try makeScratchDirectory("json")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/large.json"
    let bytes = makeLargeJSON(targetBytes: 100_000_000)
    try Data(bytes).write(to: URL(fileURLWithPath: path))

    let url = URLReference(parsing: "http://127.0.0.1/large.json")
    let response = HTTPResponse(url: url, statusCode: 200, headers: ["Content-Type": "application/json"])
    let request = HTTPRequest(method: "GET", url: url)
    let serializer = JSONResponseSerializer()
    let index = 123_456
    let capture = try BodyPath(parsing: "$[\(index)].name")
    var items = 0
    var captured: ParameterValue?
    var valid = false
    let tincan = medianNanoseconds(rounds: rounds) {
        let result = serializer.serialize(response, data: bytes, request: request)
        valid = result.error == nil
        if case .json(let document) = result.body {
            items = document.elementCount(at: []) ?? 0
            captured = capture.value(in: document)
        }
    }

    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("python/json_bench.py").path
    let outputPath = directory + "/python.json"
    _ = try measure(["python3", script, path, String(rounds), String(index)], standardOutput: outputPath, limit: .seconds(600), peakMemory: false)
    let python = try jsonObject(atPath: outputPath)
    guard let jsonTime = python["json_ns"] as? Int, let jsonGCOff = python["json_gc_off_ns"] as? Int,
          let pythonItems = python["items"] as? Int, let pythonCapture = python["capture"] as? String
    else { throw BenchFailure("the Python side printed no timings") }
    try require(valid, "the JSON serializer refused the document")
    try require(items == pythonItems, "tincan read \(items) items, Python \(pythonItems)")
    try require(captured == .string(pythonCapture), "tincan captured \(captured.map { "\($0)" } ?? "nothing"), Python \(pythonCapture)")

    print("Decode and validate a \(bytes.count / 1_000_000) MB JSON response, then capture \(capture) (median of \(rounds); Python \(pythonVersion()))")
    printRow(["decoder", "time", "MB/s", "tincan's speed"])
    func row(_ name: String, _ nanoseconds: Int) {
        printRow([name, formatDuration(Int64(nanoseconds)), String(format: "%.0f", Double(bytes.count) / Double(nanoseconds) * 1000),
                  String(format: "%.2fx", Double(nanoseconds) / Double(tincan))])
    }
    row("tincan JSON serializer", Int(tincan))
    row("python json.loads", jsonTime)
    row("python json.loads, gc off", jsonGCOff)
    if let orjson = python["orjson_ns"] as? Int { row("python orjson.loads", orjson) } else { print("orjson: not installed") }
    if let simdjson = python["simdjson_ns"] as? Int { row("pysimdjson Parser.parse", simdjson) } else { print("pysimdjson: not installed") }
    print("every decoder read \(items) items and captured \(pythonCapture.debugDescription)")
    print("target: at least 3.0x orjson's speed and 0.5x pysimdjson's")
}

/// An API-like document: an array of records with strings (escapes and non-ASCII among them),
/// integers, floats, booleans, nulls, nested objects and arrays.
/// About `targetBytes` of JSON records; compact, or indented with `indent` spaces a level as
/// some APIs send it (a line per value).
func makeLargeJSON(targetBytes: Int, indent: Int? = nil) -> [UInt8] {
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
        size += JSONWriter.bytes(record, indent: indent).count + 1 + (indent ?? 0)
        records.append(record)
        index += 1
    }
    return JSONWriter.bytes(.array(records), indent: indent)
}
