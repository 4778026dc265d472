import Foundation
import TincanCore
import TincanDemoServer

/// 1 GiB download and upload through `tincan send`, against curl on the same in-process demo
/// server, alternating runs so that both see the same machine.
func benchmarkTransfers(download: Bool, upload: Bool) async throws {
    let size = 1 << 30
    // Five rounds: the disk's writeback makes single runs of a gigabyte vary by a third.
    let rounds = 5
    let server = try await DemoServer.start()
    defer { Task { await server.stop() } }
    let directory = try makeScratchDirectory("transfer")
    defer { try? FileManager.default.removeItem(atPath: directory) }

    if download {
        let url = "\(server.baseURL)/bytes/\(size)"
        let curlFile = directory + "/curl.bin"
        let tincanFile = directory + "/tincan.bin"
        var curl: [ProcessCost] = []
        var tincan: [ProcessCost] = []
        // Each run writes a new file onto a settled disk: the other tool's gigabyte is gone
        // from the page cache and nothing is left to write back. Tincan runs the command a user
        // types, with its default (compound) response serializer.
        for _ in 0..<rounds {
            settle(removing: [curlFile, tincanFile])
            curl.append(try await measure(["curl", "-s", "-f", "-o", curlFile, url], limit: .seconds(120)))
            settle(removing: [curlFile, tincanFile])
            tincan.append(try await measure([tincanBinary, "send", "--download", tincanFile, "GET", url], limit: .seconds(120)))
            // Each round's times and CPU: a slow round says whether the time went in user space or in the kernel.
            print(String(format: "  round %d: curl %.2f s (%.2f + %.2f CPU), tincan %.2f s (%.2f + %.2f CPU)", curl.count,
                         curl.last!.seconds, curl.last!.userSeconds, curl.last!.systemSeconds,
                         tincan.last!.seconds, tincan.last!.userSeconds, tincan.last!.systemSeconds))
        }
        _ = try await measure(["curl", "-s", "-f", "-o", curlFile, url], limit: .seconds(120))
        try require(fileSize(curlFile) == size, "curl wrote \(fileSize(curlFile)) bytes of \(size)")
        try require(FileManager.default.contentsEqual(atPath: curlFile, andPath: tincanFile), "tincan's file differs from curl's")
        report("Download 1 GiB from the demo server (median of \(rounds), peak RSS the highest)", rows: [("curl -o", median(curl)), ("tincan send --download", median(tincan))], bytes: size)
        print(String(format: "tincan: %.2fx curl's throughput (target at least 1.1x), peak RSS %@ (target at most 32 MiB); files identical", median(curl).seconds / median(tincan).seconds, mebibytes(median(tincan).maxRSSBytes)))
        try? FileManager.default.removeItem(atPath: curlFile)
        try? FileManager.default.removeItem(atPath: tincanFile)
    }

    if upload {
        let file = directory + "/upload.bin"
        try writeRandomFile(file, size: size)
        let url = "\(server.baseURL)/upload"
        let output = directory + "/upload-response"
        // Fair curl sends at once. Default curl sends `Expect: 100-continue` and waits for the
        // demo server's interim 100 before the body, as a server that answers it is met.
        let commands: [(name: String, arguments: [String])] = [
            ("curl -H 'Expect:' -T", ["curl", "-s", "-f", "-H", "Expect:", "-T", file, url]),
            ("curl -T (100-continue)", ["curl", "-s", "-f", "-T", file, url]),
            ("tincan send --upload", [tincanBinary, "send", "--upload", file, "PUT", url]),
        ]
        var costs = Array(repeating: [ProcessCost](), count: commands.count)
        settle(removing: [])
        for _ in 0..<rounds {
            for (index, command) in commands.enumerated() {
                costs[index].append(try await measure(command.arguments, standardOutput: output, limit: .seconds(120)))
                // The server says how many bytes reached it; anything but the whole file fails.
                let text = try String(contentsOfFile: output, encoding: .utf8)
                try require(receivedByteCount(in: text) == size, "\(command.name): the server received \(receivedByteCount(in: text).map(String.init) ?? "no count") bytes of \(size)")
            }
        }
        if download { print("") }
        let medians = costs.map(median)
        report("Upload 1 GiB from a file to the demo server (median of \(rounds), peak RSS the highest; the server counted every byte)", rows: zip(commands, medians).map { ($0.name, $1) }, bytes: size)
        print(String(format: "tincan: %.2fx fair curl's throughput (target at least 1.0x), %.2fx default curl's; peak RSS %@ (target at most 32 MiB)",
                     medians[0].seconds / medians[2].seconds, medians[1].seconds / medians[2].seconds, mebibytes(medians[2].maxRSSBytes)))
    }
}

/// The byte count in the demo server's /upload answer, as curl prints it (`"bytes":N`) or as
/// tincan shows it indented (`"bytes": N`).
func receivedByteCount(in text: String) -> Int? {
    guard let range = text.range(of: "\"bytes\":") else { return nil }
    let digits = text[range.upperBound...].drop(while: { $0 == " " }).prefix(while: \.isNumber)
    return Int(digits)
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? -1
}

func report(_ title: String, rows: [(String, ProcessCost)], bytes: Int) {
    print(title)
    printRow(["tool", "time", "MiB/s", "peak RSS", "CPU user + sys"])
    for (name, cost) in rows {
        printRow([name, String(format: "%.2f s", cost.seconds), String(format: "%.0f", Double(bytes) / 1_048_576 / cost.seconds), mebibytes(cost.maxRSSBytes),
                  String(format: "%.2f + %.2f s", cost.userSeconds, cost.systemSeconds)])
    }
}

/// Writes `size` pseudo-random bytes, a megabyte at a time.
func writeRandomFile(_ path: String, size: Int) throws {
    guard let handle = FileHandle(forWritingAtPath: path) ?? {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: path)
    }() else { throw BenchFailure("cannot write \(path)") }
    defer { try? handle.close() }
    var state: UInt64 = 0x1234_5678
    var block = [UInt8](repeating: 0, count: 1 << 20)
    for _ in 0..<(size >> 20) {
        block.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                words[index] = state
            }
        }
        try handle.write(contentsOf: block)
    }
}
