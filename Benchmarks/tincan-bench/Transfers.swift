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
    let directory = NSTemporaryDirectory() + "tincan-bench-transfer-\(ProcessInfo.processInfo.processIdentifier)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }

    if download {
        let url = "\(server.baseURL)/bytes/\(size)"
        let curlFile = directory + "/curl.bin"
        let tincanFile = directory + "/tincan.bin"
        var curl: [ProcessCost] = []
        var tincan: [ProcessCost] = []
        // Each run writes a new file onto a settled disk: the other tool's gigabyte is gone
        // from the page cache and nothing is left to write back.
        for _ in 0..<rounds {
            settle(removing: [curlFile, tincanFile])
            curl.append(try measure(["curl", "-s", "-f", "-o", curlFile, url]))
            settle(removing: [curlFile, tincanFile])
            tincan.append(try measure([tincanBinary, "send", "--download", tincanFile, "--response-serializer", "http", "GET", url]))
        }
        _ = try measure(["curl", "-s", "-f", "-o", curlFile, url])
        let same = FileManager.default.contentsEqual(atPath: curlFile, andPath: tincanFile)
        report("Download 1 GiB from the demo server (median of \(rounds), peak RSS the highest)", curl: median(curl), tincan: median(tincan), bytes: size)
        print("files identical: \(same ? "yes" : "NO")")
        print("target: throughput at least 1.0x curl's; peak RSS at most 64 MiB")
        try? FileManager.default.removeItem(atPath: curlFile)
        try? FileManager.default.removeItem(atPath: tincanFile)
        if !same { exit(1) }
    }

    if upload {
        let file = directory + "/upload.bin"
        try writeRandomFile(file, size: size)
        let url = "\(server.baseURL)/upload"
        var curl: [ProcessCost] = []
        var tincan: [ProcessCost] = []
        settle(removing: [])
        for _ in 0..<rounds {
            curl.append(try measure(["curl", "-s", "-f", "-o", "/dev/null", "-T", file, url]))
            tincan.append(try measure([tincanBinary, "send", "--upload", file, "PUT", url]))
        }
        if download { print("") }
        report("Upload 1 GiB from a file to the demo server (median of \(rounds), peak RSS the highest)", curl: median(curl), tincan: median(tincan), bytes: size)
        print("target: throughput at least 1.0x curl's; peak RSS at most 64 MiB")
    }
}

func report(_ title: String, curl: ProcessCost, tincan: ProcessCost, bytes: Int) {
    print(title)
    printRow(["tool", "time", "MiB/s", "peak RSS"])
    for (name, cost) in [("curl", curl), ("tincan", tincan)] {
        printRow([name, String(format: "%.2f s", cost.seconds), String(format: "%.0f", Double(bytes) / 1_048_576 / cost.seconds), mebibytes(cost.maxRSSBytes)])
    }
    print(String(format: "tincan throughput: %.2fx curl's; peak RSS %@", curl.seconds / tincan.seconds, mebibytes(tincan.maxRSSBytes)))
}

/// Writes `size` pseudo-random bytes, a megabyte at a time.
func writeRandomFile(_ path: String, size: Int) throws {
    guard let handle = FileHandle(forWritingAtPath: path) ?? {
        FileManager.default.createFile(atPath: path, contents: nil)
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
