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
        /// Tests waiting for text, answered by the draw that shows it.
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
        /// Waits whose time ran out before they were registered.
        var expired: Set<UInt64> = []

        var text: String { rows.map { $0.joined() }.joined(separator: "\n") }
    }

    private struct Waiter {
        var needle: String
        var continuation: CheckedContinuation<Bool, Never>
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
        let shown = state.withLock { state -> [Waiter] in
            for change in changes where state.rows.indices.contains(change.y) {
                for (offset, cell) in change.cells.enumerated() where state.rows[change.y].indices.contains(change.x + offset) {
                    state.rows[change.y][change.x + offset] = cell.text
                }
            }
            guard !state.waiters.isEmpty else { return [] }
            let text = state.text
            let answered = state.waiters.filter { text.contains($0.value.needle) }
            for id in answered.keys { state.waiters[id] = nil }
            return Array(answered.values)
        }
        for waiter in shown { waiter.continuation.resume(returning: true) }
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
        state.withLock { $0.text }
    }

    /// Waits until the screen shows `needle`: the draw that shows it answers at once. Gives up
    /// after `seconds`, a bound for a test that is failing, not a time anything is measured by.
    ///
    /// - Returns: Whether it did.
    public func waitFor(_ needle: String, seconds: Double = 20) async -> Bool {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let deadline = Task {
            // Cancelled once the wait is answered.
            guard (try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))) != nil else { return }
            self.expire(id)
        }
        defer { deadline.cancel() }
        return await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> Bool? in
                if state.text.contains(needle) { return true }
                if state.expired.remove(id) != nil { return false }
                state.waiters[id] = Waiter(needle: needle, continuation: continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Ends a wait whose time has run out, with what the screen shows now.
    private func expire(_ id: UInt64) {
        let ended = state.withLock { state -> (Waiter, Bool)? in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                state.expired.insert(id)
                return nil
            }
            return (waiter, state.text.contains(waiter.needle))
        }
        if let (waiter, shown) = ended { waiter.continuation.resume(returning: shown) }
    }
}
