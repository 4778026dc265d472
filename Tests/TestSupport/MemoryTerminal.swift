import Dispatch
import Foundation
import Synchronization
import TerminalUI

/// A terminal in memory, for run-loop tests: it keeps the screen the runner draws, and hands the
/// runner the input a test queues, as the curses terminal hands it keys.
public final class MemoryTerminal: TerminalDevice {
    private struct State {
        var rows: [[String]]
        var input: [InputEvent] = []
        var clipboard: [String] = []
        var stopRequested = false
    }

    public let size: (width: Int, height: Int)
    public let colorCount = 256
    private let state: Mutex<State>
    private let woken = DispatchSemaphore(value: 0)

    public init(width: Int = 120, height: Int = 40) {
        size = (width, height)
        state = Mutex(State(rows: Array(repeating: Array(repeating: " ", count: width), count: height)))
    }

    public func draw(_ changes: [ScreenBuffer.Change], cursor: Point?) {
        state.withLock { state in
            for change in changes where state.rows.indices.contains(change.y) {
                for (offset, cell) in change.cells.enumerated() where state.rows[change.y].indices.contains(change.x + offset) {
                    state.rows[change.y][change.x + offset] = cell.text
                }
            }
        }
    }

    /// Queued input at once; else waits for a wake (or for `timeout` milliseconds).
    public func waitForEvents(timeout: Int?) -> [InputEvent] {
        if let queued = takeInput() { return queued }
        _ = woken.wait(timeout: .now() + .milliseconds(timeout ?? 1000))
        return takeInput() ?? []
    }

    private func takeInput() -> [InputEvent]? {
        state.withLock { state in
            guard !state.input.isEmpty else { return nil }
            defer { state.input.removeAll() }
            return state.input
        }
    }

    public func wake() { woken.signal() }
    public var stopRequested: Bool { state.withLock { $0.stopRequested } }
    public func suspend() {}
    public func setClipboard(_ text: String) { state.withLock { $0.clipboard.append(text) } }
    public func withTerminalReleased<T>(_ body: () throws -> T) rethrows -> T { try body() }

    // MARK: - For tests

    /// Queues input for the runner and wakes it.
    public func type(_ events: [InputEvent]) {
        state.withLock { $0.input += events }
        woken.signal()
    }

    /// Asks the runner to stop, as SIGTERM does a curses terminal, and wakes it.
    public func requestStop() {
        state.withLock { $0.stopRequested = true }
        woken.signal()
    }

    /// The screen as text, a line per row.
    public var text: String {
        state.withLock { $0.rows.map { $0.joined() }.joined(separator: "\n") }
    }

    /// Waits until the screen shows `needle`, up to `seconds`.
    ///
    /// - Returns: Whether it did.
    public func waitFor(_ needle: String, seconds: Double = 20) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if text.contains(needle) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return text.contains(needle)
    }
}
