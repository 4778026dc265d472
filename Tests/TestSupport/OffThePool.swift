import Foundation

/// Runs `work` on a thread of its own and returns what it returns, or throws what it throws.
///
/// Swift's cooperative pool has one thread per core (two on the CI machine), and every test in
/// the process shares it. Work that computes for a second or blocks in a system call without
/// suspending holds one of those threads all that time, and the tests that wait on a timer, a
/// server or a cancellation wait meanwhile to be scheduled at all: their timing checks fail, and
/// the in-process demo server's routes (which run on the pool too) answer late. CPU-heavy checks
/// and blocking I/O run here instead. `#expect` needs the test's task, so the work returns what it
/// found and the test checks that afterwards.
public func offThePool<T: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
        Thread { continuation.resume(returning: Result(catching: work)) }.start()
    }
    return try result.get()
}
