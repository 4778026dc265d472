import Foundation
import TincanSessions

/// `tincan import openapi` of a generated 1,000-operation spec against `posting import` of the
/// same spec, alternating runs; both must produce all 1,000 requests.
func benchmarkImport() throws {
    let count = 1000
    let rounds = 5
    let directory = try makeScratchDirectory("import")
    defer { try? FileManager.default.removeItem(atPath: directory) }

    // One operation per path, since Posting saves a request to a file named after its path:
    // GETs with a path and a query parameter, POSTs of a JSON body from a shared schema.
    var spec = "openapi: 3.0.3\ninfo: {title: Import benchmark, version: '1.0'}\nservers: [{url: 'http://127.0.0.1:9'}]\npaths:\n"
    for index in 0..<count {
        spec += "  /items\(index)/{id}:\n"
        if index.isMultiple(of: 2) {
            spec += "    get:\n      operationId: get\(index)\n      tags: [group\(index % 10)]\n      responses: {'200': {description: OK}}\n"
            spec += "      parameters: [{name: id, in: path, required: true, schema: {type: integer}}, {name: q, in: query, schema: {type: string}}]\n"
        } else {
            spec += "    post:\n      operationId: post\(index)\n      tags: [group\(index % 10)]\n      responses: {'200': {description: OK}}\n"
            spec += "      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]\n"
            spec += "      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}\n"
        }
    }
    spec += "components:\n  schemas:\n    Item: {type: object, properties: {name: {type: string}, count: {type: integer}}}\n"
    let specFile = directory + "/spec.yaml"
    try spec.write(toFile: specFile, atomically: true, encoding: .utf8)
    let session = directory + "/out.tincan.yaml"
    let collection = directory + "/posting"

    let commands: [(name: String, arguments: [String], check: () throws -> Void)] = [
        ("posting import", ["posting", "import", specFile, "-o", collection], {
            let files = FileManager.default.enumerator(atPath: collection)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".posting.yaml") } ?? []
            try require(files.count == count, "posting import wrote \(files.count) of \(count) requests")
        }),
        ("tincan import openapi", [tincanBinary, "import", "openapi", specFile, "-o", session], {
            let requests = try Session.load(path: session).requests
            try require(requests.count == count && requests[count - 1].url == "{{baseUrl}}/items\(count - 1)/{{id}}",
                        "tincan import wrote \(requests.count) of \(count) requests")
        }),
    ]
    var costs = Array(repeating: [ProcessCost](), count: commands.count)
    for _ in 0..<rounds {
        for (index, command) in commands.enumerated() {
            // Each run starts from nothing: tincan would add to an existing session file.
            try? FileManager.default.removeItem(atPath: collection)
            settle(removing: [session])
            costs[index].append(try measure(command.arguments, limit: .seconds(120)))
            try command.check()
        }
    }
    let medians = costs.map(median)
    print("Import an OpenAPI spec of \(count) operations (median of \(rounds) alternating runs)")
    printRow(["tool", "time", "peak RSS"])
    for (command, cost) in zip(commands, medians) {
        printRow([command.name, String(format: "%.2f s", cost.seconds), mebibytes(cost.maxRSSBytes)])
    }
    print(String(format: "tincan import openapi: %.1fx as fast as posting import (target at least 10x), with all %d requests from each", medians[0].seconds / medians[1].seconds, count))
}
