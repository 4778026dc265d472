import Foundation
import TincanSessions

/// `tincan import openapi` of a generated 1,000-operation spec against `posting import` of the
/// same spec, alternating runs; both must produce all 1,000 requests.
func benchmarkImport() throws {
    let count = 1000
    let rounds = 5
    let directory = try makeScratchDirectory("import")
    defer { try? FileManager.default.removeItem(atPath: directory) }

    guard postingExecutable() != nil else {
        print("posting: not installed (make bench installs it with pip install posting); no comparison")
        return try benchmarkLargeImports(directory: directory)
    }
    let spec = makeOpenAPISpec(operations: count)
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
    print("")
    try benchmarkLargeImports(directory: directory)
}

/// An OpenAPI 3 document of `operations` operations, one per path (Posting saves a request to a
/// file named after its path): GETs with a path and a query parameter, POSTs of a JSON body from
/// a shared schema.
func makeOpenAPISpec(operations count: Int) -> String {
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
    return spec + "components:\n  schemas:\n    Item: {type: object, properties: {name: {type: string}, count: {type: integer}}}\n"
}

/// An OpenAPI 3 document shaped as published ones are: 300 object schemas of 40 described
/// properties, and operations (a GET and a POST a path) that return or take them, added until the
/// text reaches `targetBytes`. Returns the text and its number of operations.
func makeDescribedOpenAPISpec(targetBytes: Int) -> (text: String, operations: Int) {
    let description = String(repeating: "A description of this field, as long as the prose of a published specification. ", count: 2)
    var schemas = "components:\n  schemas:\n"
    for schema in 0..<300 {
        schemas += "    Model\(schema):\n      type: object\n      required: [field_0, field_1]\n      properties:\n"
        for property in 0..<40 {
            schemas += "        field_\(property): {type: \(["string", "integer", "boolean"][property % 3]), description: '\(description)'}\n"
        }
    }
    var paths = "paths:\n"
    var operations = 0
    let head = "openapi: 3.0.3\ninfo: {title: Described, version: '1'}\nservers: [{url: 'http://127.0.0.1:9'}]\n"
    while head.utf8.count + paths.utf8.count + schemas.utf8.count < targetBytes {
        let index = operations / 2
        let model = "'#/components/schemas/Model\(index % 300)'"
        paths += "  /resources\(index)/{id}:\n"
        paths += "    get:\n      operationId: get\(index)\n      tags: [tag\(index % 20)]\n      summary: '\(description)'\n"
        paths += "      parameters: [{name: id, in: path, required: true, schema: {type: string}}, {name: expand, in: query, schema: {type: string}}]\n"
        paths += "      responses: {'200': {description: OK, content: {application/json: {schema: {$ref: \(model)}}}}}\n"
        paths += "    post:\n      operationId: post\(index)\n      tags: [tag\(index % 20)]\n"
        paths += "      requestBody: {content: {application/json: {schema: {$ref: \(model)}}}}\n      responses: {'201': {description: Created}}\n"
        operations += 2
    }
    return (head + paths + schemas, operations)
}

/// A 3 MB OpenAPI document shaped as published ones are (target: under a second), one of as many
/// small operations as fit in 3 MB (no target: the cost per request), and the largest real file of
/// each format in the test fixtures, each imported by `tincan import` and read back.
func benchmarkLargeImports(directory: String) throws {
    let rounds = 5
    let described = makeDescribedOpenAPISpec(targetBytes: 3_000_000)
    var small = (text: makeOpenAPISpec(operations: 10_000), operations: 10_000)
    while small.text.utf8.count < 3_000_000 {
        small = (makeOpenAPISpec(operations: small.operations + 1_000), small.operations + 1_000)
    }
    for (index, document) in [described, small].enumerated() {
        let specFile = directory + "/large.yaml"
        try document.text.write(toFile: specFile, atomically: true, encoding: .utf8)
        let session = directory + "/large.tincan.yaml"
        var costs: [ProcessCost] = []
        for _ in 0..<rounds {
            settle(removing: [session])
            costs.append(try measure([tincanBinary, "import", "openapi", specFile, "-o", session], limit: .seconds(60)))
        }
        let requests = try Session.load(path: session).requests.count
        try require(requests == document.operations, "tincan import wrote \(requests) of \(document.operations) requests")
        let cost = median(costs)
        let shape = index == 0 ? "shaped as published ones (described schemas)" : "of small operations only"
        let target = index == 0 ? "target under 1 s" : "no target: the cost per request"
        print(String(format: "Import a %.1f MB OpenAPI document %@, %d operations (median of %d): %.2f s, peak RSS %@ (%@); all requests read back", Double(document.text.utf8.count) / 1e6, shape, document.operations, rounds, cost.seconds, mebibytes(cost.maxRSSBytes), target))
    }

    // The real files: each format's largest, as its tool wrote it.
    let fixtures = "Tests/Fixtures/collections"
    let formats: [(folder: String, format: String)] = [
        ("openapi", "openapi"), ("swagger", "swagger"), ("postman-v2.0", "postman"), ("postman-v2.1", "postman"),
        ("insomnia-v4", "insomnia"), ("insomnia-v5", "insomnia"),
    ]
    guard FileManager.default.fileExists(atPath: fixtures) else {
        print("real files: \(fixtures) not found (run from the repository's root); no rows")
        return
    }
    print("The largest real file of each format in \(fixtures), imported and read back")
    printRow(["file", "size", "time", "requests"])
    var largest = 0
    for (folder, format) in formats {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(fixtures)/\(folder)")) ?? []
        let files = names.filter { [".json", ".yaml", ".yml"].contains(where: $0.hasSuffix) }.map { "\(fixtures)/\(folder)/\($0)" }
        guard let file = files.max(by: { fileSize($0) < fileSize($1) }) else { continue }
        let output = directory + "/real.tincan.yaml"
        settle(removing: [output])
        let cost = try measure([tincanBinary, "import", format, file, "-o", output], limit: .seconds(60))
        let count = try Session.load(path: output).requests.count
        try require(count > 0, "\(file) imported no requests")
        largest = max(largest, fileSize(file))
        printRow([String(file.dropFirst(fixtures.count + 1)), String(format: "%.1f KB", Double(fileSize(file)) / 1e3), String(format: "%.0f ms", cost.seconds * 1000), "\(count)"])
    }
    print(String(format: "largest real file that imports: %.1f KB", Double(largest) / 1e3))
}
