import Foundation
import Synchronization

/// Runs `body` while a thread keeps one core busy, as another job on a CI machine may: races
/// between the event loops and the tasks that feed them show up far more often under load.
public func withBusyCore<T>(_ body: () async throws -> T) async rethrows -> T {
    let spinner = Spinner()
    let thread = Thread { spinner.spin() }
    thread.start()
    defer { spinner.stop() }
    return try await body()
}

private final class Spinner: Sendable {
    private let stopped = Mutex(false)

    func spin() {
        var value: UInt64 = 1
        while !stopped.withLock({ $0 }) {
            for _ in 0..<100_000 { value = value &* 6364136223846793005 &+ 1442695040888963407 }
        }
        // Keeps the loop from being optimised away.
        if value == 0 { print(value) }
    }

    func stop() {
        stopped.withLock { $0 = true }
    }
}
