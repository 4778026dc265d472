import Foundation
import TerminalUI
import TincanCore
import TincanSessions
import TincanTUI
#if canImport(Glibc)
import Glibc
#endif

// MARK: - A 50 MB JSON response open in the TUI: frame time, first search match, memory

/// Resident memory of this process, in bytes (/proc/self/statm).
func residentBytes() -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Gives freed heap pages back, so a resident-memory reading counts what is live.
func trimHeap() {
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") { _ = unsafeBitCast(symbol, to: Trim.self)(0) }
}

/// The Pretty view of a 50 MB JSON response, driven through the TUI's own update and render at
/// 120x40: the response arrives as the runner delivers it, then the view scrolls and searches.
func benchmarkBodyView() async throws {
    trimHeap()
    let baseline = residentBytes()
    let bytes = makeLargeJSON(targetBytes: 50_000_000)
    trimHeap()
    let lastID = bytes.lastRange(of: Array(#""id":"#.utf8)).map { index -> String in
        var end = index + 5
        while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
        return String(decoding: bytes[(index + 5)..<end], as: UTF8.self)
    } ?? "0"

    var state = AppState.welcome(demo: DemoAddresses(plain: "http://127.0.0.1:8080"), width: 120, height: 40)
    let effects = state.update(.input(.key(.ctrl("r"))))
    guard case let .send(id, request, plan)? = effects.first else { throw BenchFailure("no send effect") }
    let response = HTTPResponse(url: request.url, statusCode: 200, headers: ["Content-Type": "application/json", "Content-Length": String(bytes.count)])

    // As the runner posts them: the body whole first, which the TUI lays out and paints while
    // the core's serializer checks it on the transport's thread (a JSON document: the text
    // checked and its containers indexed, no tree); then the completed result, whose checks the
    // TUI reads while the outline already drawn stays. Here the steps run one after the other;
    // in the app the checking runs on the other core while the body is laid out and painted.
    // The result is handed over and not kept here, as the runner hands it over.
    var painted: UInt64 = 0
    var decoded: UInt64 = 0
    var opened: UInt64 = 0
    func deliver() {
        let paintStart = DispatchTime.now().uptimeNanoseconds
        _ = state.update(.task(exchange: id, .bodyReceived(TaskResult(request: request, response: response, data: bytes)), at: 0.5))
        _ = Renderer.render(&state)
        painted = DispatchTime.now().uptimeNanoseconds - paintStart
        let decodeStart = DispatchTime.now().uptimeNanoseconds
        let serialization = plan.options.responseSerializer.serialize(response, data: bytes, request: request)
        decoded = DispatchTime.now().uptimeNanoseconds - decodeStart
        let openStart = DispatchTime.now().uptimeNanoseconds
        _ = state.update(.task(exchange: id, .completed(TaskResult(request: request, response: response, data: bytes, serialization: serialization)), at: 1))
        opened = DispatchTime.now().uptimeNanoseconds - openStart
    }
    deliver()
    trimHeap()
    let open = residentBytes()
    _ = state.update(.input(.key(KeyEvent(.tab, .shift))))
    _ = state.update(.input(.key(KeyEvent(.tab, .shift))))
    while state.focus != .response { _ = state.update(.input(.key(KeyEvent(.tab)))) }

    // Frames while scrolling: each step is a key through update, then a whole frame rendered.
    var frames: [UInt64] = []
    let keys: [KeyEvent] = Array(repeating: KeyEvent(.pageDown), count: 200) + Array(repeating: KeyEvent(.down), count: 200)
        + [KeyEvent(.end)] + Array(repeating: KeyEvent(.pageUp), count: 100)
    for key in keys {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = state.update(.input(.key(key)))
        let buffer = Renderer.render(&state)
        frames.append(DispatchTime.now().uptimeNanoseconds - start)
        precondition(buffer.height == 40)
    }
    frames.sort()

    // The first match of a string found only in the last record: the search crosses the whole body.
    _ = state.update(.input(.key(KeyEvent(.home))))
    let needle = "user\(lastID)@"
    _ = state.update(.input(.key(.char("/"))))
    for character in needle { _ = state.update(.input(.key(.char(character)))) }
    let searchStart = DispatchTime.now().uptimeNanoseconds
    _ = state.update(.input(.key(KeyEvent(.enter))))
    var frame = Renderer.render(&state)
    let searched = DispatchTime.now().uptimeNanoseconds - searchStart
    let found = frame.lines.contains { $0.contains(needle) }
    // And a match near the top, as most searches are.
    _ = state.update(.input(.key(KeyEvent(.home))))
    _ = state.update(.input(.key(.char("/"))))
    for character in "Grace" { _ = state.update(.input(.key(.char(character)))) }
    let nearStart = DispatchTime.now().uptimeNanoseconds
    _ = state.update(.input(.key(KeyEvent(.enter))))
    frame = Renderer.render(&state)
    let near = DispatchTime.now().uptimeNanoseconds - nearStart
    // N from the only match, in the first record: the search runs backwards from the end of the
    // body to the start before it comes back to the same match.
    _ = state.update(.input(.key(KeyEvent(.home))))
    _ = state.update(.input(.key(.char("/"))))
    for character in "user1@" { _ = state.update(.input(.key(.char(character)))) }
    _ = state.update(.input(.key(KeyEvent(.enter))))
    let firstRow = state.bodyList.selected
    let backStart = DispatchTime.now().uptimeNanoseconds
    _ = state.update(.input(.key(.char("N"))))
    frame = Renderer.render(&state)
    let back = DispatchTime.now().uptimeNanoseconds - backStart
    let backFound = state.bodyList.selected == firstRow && state.search.matchCount == 1

    let size = Double(bytes.count)
    func ms(_ nanoseconds: UInt64) -> String { String(format: "%.2f ms", Double(nanoseconds) / 1e6) }
    let median = frames[frames.count / 2]
    let p99 = frames[frames.count * 99 / 100]
    let worst = frames.last!
    let memory = Double(open - baseline) / size
    print("A \(bytes.count / 1_000_000) MB JSON response open in the TUI's Pretty view (120x40, release build)")
    printRow(["measure", "value", "target", "ratio to target"])
    printRow(["core JSON decode (validation)", ms(decoded), "—", "—"])
    printRow(["completed: checks, outline kept", ms(opened), "—", "—"])
    printRow(["frame while scrolling, median", ms(median), "16 ms", String(format: "%.3fx", Double(median) / 16e6)])
    printRow(["frame while scrolling, p99", ms(p99), "16 ms", String(format: "%.3fx", Double(p99) / 16e6)])
    printRow(["frame while scrolling, worst", ms(worst), "16 ms", String(format: "%.3fx", Double(worst) / 16e6)])
    printRow(["first match, last record (whole body)", ms(searched), "100 ms", String(format: "%.2fx", Double(searched) / 1e8)])
    printRow(["first match, near the top", ms(near), "100 ms", String(format: "%.2fx", Double(near) / 1e8)])
    printRow(["N over the whole body (one match)", ms(back), "100 ms", String(format: "%.2fx", Double(back) / 1e8)])
    printRow(["first paint of the body after its last byte", ms(painted), "300 ms", String(format: "%.2fx", Double(painted) / 3e8)])
    printRow(["validation and checks shown, decoding beside the paint", ms(max(painted, decoded) + opened), "—", "—"])
    printRow(["resident memory, body open", String(format: "%.0f MB", Double(open - baseline) / 1e6), "—", String(format: "%.2fx body", memory)])
    print(String(format: "outline rows: %d; the search found the last record: %@", state.bodyDocument?.rowCount ?? 0, found ? "yes" : "NO"))
    print("targets: frame at most 16 ms, first match at most 100 ms, the body painted at most 300 ms after its last byte")
    if !backFound { print("N did not come back to the only match of user1@") }
    if !found || !backFound { exit(1) }
    try await benchmarkBodyViewPeak(bytes, shape: "compact")
    // The same records indented, a line per value: the Raw view's rows are lines then.
    try await benchmarkBodyViewPeak(makeLargeJSON(targetBytes: 50_000_000, indent: 2), shape: "indented, a line per value")
}

/// The peak memory of the real TUI process (release binary, 120x40 pseudo-terminal) that sends a
/// request for `bytes` (a JSON body) to a loopback server and opens it: the kernel's high-water
/// mark (VmHWM) of the whole process, read once the response's validation is on screen, beside
/// the same reading before the send (the TUI idle, its demo server running).
func benchmarkBodyViewPeak(_ bytes: [UInt8], shape: String) async throws {
    let server = try await OneBodyServer.start(body: bytes, contentType: "application/json")
    defer { server.stop() }
    let directory = try makeScratchDirectory("bodyview")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let session = directory + "/big.tincan.yaml"
    try "requests:\n  - name: big\n    method: GET\n    url: http://127.0.0.1:\(server.port)/big.json\n".write(toFile: session, atomically: true, encoding: .utf8)
    let home = directory + "/home"
    let clean = ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share", "XDG_STATE_HOME": home + "/.local/state", "LANG": "C.UTF-8"]

    let program = try TerminalProgram(name: "tincan", arguments: [tincanBinary, "--no-mouse", "--no-history", session], environment: clean)
    defer { program.stop() }
    try program.waitFor("Preview")
    let idle = try program.status("VmHWM")
    program.type("\u{12}")  // ctrl+r: send
    // The validation line is drawn once the response is complete and its body opened.
    try program.waitFor("status 200-299", timeout: 60)
    let peak = try program.status("VmHWM")
    let resident = try program.status("VmRSS")
    try require(server.served == 1, "the server sent the body \(server.served) times, not once")

    let size = Double(bytes.count)
    print("The TUI process itself (release build, 120x40 pseudo-terminal) sends for the \(bytes.count / 1_000_000) MB body (\(shape)) over loopback and opens it")
    printRow(["measure", "value", "target", "ratio"])
    printRow(["peak (VmHWM) before the send, idle", String(format: "%.0f MB", Double(idle) / 1e6), "—", String(format: "%.2fx body", Double(idle) / size)])
    printRow(["peak (VmHWM) of the process, body open", String(format: "%.0f MB", Double(peak) / 1e6), String(format: "%.0f MB", 2 * size / 1e6), String(format: "%.2fx body", Double(peak) / size)])
    printRow(["peak above the idle process", String(format: "%.0f MB", Double(peak - idle) / 1e6), "—", String(format: "%.2fx body", Double(peak - idle) / size)])
    printRow(["resident, body open", String(format: "%.0f MB", Double(resident) / 1e6), "—", String(format: "%.2fx body", Double(resident) / size)])
    print("target: the process's peak at most 2x the body")
}

extension Array where Element == UInt8 {
    /// The start of the last occurrence of `needle`.
    func lastRange(of needle: [UInt8]) -> Int? {
        var index = count - needle.count
        while index >= 0 {
            if self[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index -= 1
        }
        return nil
    }
}
