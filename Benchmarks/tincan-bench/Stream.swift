import Foundation
import TincanDemoServer

/// Streaming responses (issue 18 §4): the latency from the demo server's write of an event to
/// the moment `tincan send --stream` has printed it and this process has read it, over at least
/// 100 events; and a 100 MB NDJSON stream through `tincan send --stream` against
/// `curl -s -N URL | cat`, both outputs checked complete (every line, ids 0 to n−1) and equal
/// line by line (each line's `headers` member aside: it echoes each client's own headers).
///
/// `TINCAN_BENCH_STREAM_LINES` sets the NDJSON line count (100,000 by default, about 100 MB);
/// a smaller count makes a quick check of a debug build.
func benchmarkStream() async throws {
    let server = try await DemoServer.start()
    defer { Task { await server.stop() } }
    let directory = try makeScratchDirectory("stream")
    defer { try? FileManager.default.removeItem(atPath: directory) }

    // MARK: Latency
    let events = 200
    let eventsURL = "\(server.baseURL)/sse?count=\(events)&delay=20"
    let latencies = try await offThePool { try streamLatencies(url: eventsURL, expected: events, limit: .seconds(60)) }
    let sorted = latencies.sorted()
    let medianLatency = sorted[sorted.count / 2]
    print("Server-sent events: from the server's write to tincan's printed line (\(events) events, 20 ms apart)")
    printRow(["statistic", "latency"])
    printRow(["median", String(format: "%.2f ms", medianLatency * 1000)])
    printRow(["90th percentile", String(format: "%.2f ms", sorted[sorted.count * 9 / 10] * 1000)])
    print(String(format: "median %.2f ms (target at most 5 ms)", medianLatency * 1000))

    // MARK: Throughput
    let lines = ProcessInfo.processInfo.environment["TINCAN_BENCH_STREAM_LINES"].flatMap(Int.init) ?? 100_000
    try require((1...100_000).contains(lines), "TINCAN_BENCH_STREAM_LINES must be 1 to 100000")
    let url = "\(server.baseURL)/stream/\(lines)?pad=760"
    let curlFile = directory + "/curl.ndjson"
    let tincanFile = directory + "/tincan.ndjson"
    let rounds = 3
    var curl: [ProcessCost] = []
    var tincan: [ProcessCost] = []
    // Each run's own file only is removed, so both outputs are there to compare at the end.
    for _ in 0..<rounds {
        settle(removing: [curlFile])
        curl.append(try await measure(["sh", "-c", "curl -s -f -N '\(url)' | cat"], standardOutput: curlFile, limit: .seconds(120)))
        settle(removing: [tincanFile])
        tincan.append(try await measure([tincanBinary, "send", "--stream", "GET", url], standardOutput: tincanFile, limit: .seconds(120)))
    }
    let size = Int(fileSize(curlFile))
    try checkSameLines(curlFile, tincanFile, count: lines)
    report("NDJSON stream of \(lines) lines, \(mebibytes(size)) (median of \(rounds), peak RSS the highest)",
           rows: [("curl -N | cat", median(curl)), ("tincan send --stream", median(tincan))], bytes: size)
    print(String(format: "tincan: %.2fx curl -N | cat (target at least 1.0x); outputs complete and equal", median(curl).seconds / median(tincan).seconds))
}

/// Runs `tincan send --stream --format json URL`, reads its JSON lines as they come, and returns,
/// for each event, the seconds from the `sent` time in its data to the moment it was read.
private func streamLatencies(url: String, expected: Int, limit: Duration) throws -> [Double] {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw BenchFailure("pipe failed") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    let command = [tincanBinary, "send", "--stream", "--format", "json", "GET", url]
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
    close(pipeEnds[1])
    guard spawned == 0 else {
        close(pipeEnds[0])
        throw BenchFailure("cannot start tincan: \(String(cString: strerror(spawned)))")
    }
    let child = pid
    let expired = ExpiryFlag()
    let watchdog = DispatchWorkItem {
        expired.set()
        kill(child, SIGKILL)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + limit.inSeconds, execute: watchdog)
    defer { watchdog.cancel() }

    var latencies: [Double] = []
    var pending: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = block.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        let now = Date().timeIntervalSince1970
        pending += block[..<count]
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Data(pending[..<newline])
            pending.removeSubrange(...newline)
            guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                  let data = object["data"] as? String,
                  let event = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
                  let sent = (event["sent"] as? NSNumber)?.doubleValue else { continue }
            latencies.append(now - sent / 1_000_000)
        }
    }
    close(pipeEnds[0])
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0, errno == EINTR {}
    if expired.isSet { throw BenchFailure("tincan send --stream did not finish within \(limit): a stall, killed") }
    try require(status & 0x7F == 0 && (status >> 8) & 0xFF == 0, "tincan send --stream failed (wait status \(status))")
    try require(latencies.count == expected, "read \(latencies.count) events of \(expected)")
    return latencies
}

/// Checks that both files hold `count` lines with ids 0 to count−1 in order, equal but for
/// their `headers` members.
private func checkSameLines(_ reference: String, _ candidate: String, count: Int) throws {
    let left = try String(contentsOfFile: reference, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    let right = try String(contentsOfFile: candidate, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    try require(left.count == count + 1 && left.last == "", "curl wrote \(left.count - 1) lines of \(count)")
    try require(right.count == count + 1 && right.last == "", "tincan wrote \(right.count - 1) lines of \(count)")
    for index in 0..<count {
        let expected = withoutHeaders(left[index])
        try require(expected.hasSuffix("\"id\":\(index)}"), "curl's line \(index) is not the line with id \(index)")
        try require(withoutHeaders(right[index]) == expected, "tincan's line \(index) differs from curl's")
    }
}

/// A stream line with its `headers` member (each client's own) cut out.
private func withoutHeaders(_ line: Substring) -> Substring {
    guard let start = line.range(of: "\"headers\":{"), let end = line.range(of: "},\"origin\":", range: start.upperBound..<line.endIndex) else { return line }
    return line[..<start.lowerBound] + line[end.upperBound...]
}
