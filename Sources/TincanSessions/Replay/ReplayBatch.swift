import Foundation
import TincanCore

/// Several session files replayed side by side (`tincan replay a b c --jobs N`): each file runs
/// through its own ``Replayer``, so each has its own session manager, cookie jar and cache, and
/// at most ``jobs`` run at once. Results come back in file order, whatever order they finish in.
public struct ReplayBatch: Sendable {
    /// One session file to replay.
    public struct File: Sendable {
        public var session: Session
        /// The file's path, for reports and for its relative file paths.
        public var path: String

        /// Creates a file to replay.
        public init(session: Session, path: String) {
            self.session = session
            self.path = path
        }
    }

    /// What one file's replay gave: its report and recorded session, or why it could not run.
    public typealias FileResult = Result<(report: ReplayReport, session: Session), any Error>

    /// The most files replayed at once (`--jobs`): 1 up to 256.
    public static let jobsRange = NumericRange(name: "--jobs", minimum: 1, maximum: 256, isInteger: true)

    public let files: [File]
    /// How many files run at once; at least one.
    public let jobs: Int
    public let options: ReplayOptions

    /// Creates a batch.
    public init(files: [File], jobs: Int, options: ReplayOptions) {
        self.files = files
        self.jobs = max(1, jobs)
        self.options = options
    }

    /// Replays every file.
    ///
    /// - Parameters:
    ///   - progress: Called after each request of file `index`, as it finishes (from the file's own task).
    ///   - finished: Called once a file, in file order: as soon as the file and every file before it have finished.
    /// - Returns: Each file's result, in file order.
    public func run(progress: @escaping @Sendable (_ index: Int, RequestOutcome) -> Void = { _, _ in },
                    finished: (_ index: Int, FileResult) -> Void = { _, _ in }) async -> [FileResult] {
        let files = files
        let options = options
        return await withTaskGroup(of: (Int, FileResult).self) { group in
            var results = [FileResult?](repeating: nil, count: files.count)
            var started = 0
            var delivered = 0
            func startNext() {
                let index = started
                started += 1
                group.addTask {
                    let replayer = Replayer(session: files[index].session, path: files[index].path, options: options)
                    do {
                        let run = try await replayer.run { progress(index, $0) }
                        return (index, .success(run))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            while started < min(jobs, files.count) { startNext() }
            for await (index, result) in group {
                results[index] = result
                if started < files.count { startNext() }
                while delivered < files.count, let result = results[delivered] {
                    finished(delivered, result)
                    delivered += 1
                }
            }
            return results.compactMap { $0 }
        }
    }

    /// The files of shard `shard` of `count` (`--shard K/N`, K from 1): every Nth file from the
    /// Kth, so that N CI jobs given the same list share it out with no file run twice.
    public static func shard<Element>(_ files: [Element], _ shard: Int, of count: Int) -> [Element] {
        files.enumerated().filter { $0.offset % count == shard - 1 }.map(\.element)
    }
}

/// `--shard K/N` as written.
public struct Shard: Sendable, Equatable {
    /// Which shard, from 1.
    public var index: Int
    /// How many shards.
    public var count: Int

    /// The most shards: more than any CI matrix runs.
    public static let maximumCount = 10_000

    /// Reads `K/N`.
    ///
    /// - Throws: ``ShardError`` saying what was expected.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ShardError(text: text, expected: "K/N, two whole numbers such as 1/4 (the first of four shards)")
        }
        guard count >= 1, count <= Self.maximumCount else {
            throw ShardError(text: text, expected: "a shard count N from 1 to \(Self.maximumCount)")
        }
        guard index >= 1, index <= count else {
            throw ShardError(text: text, expected: "a shard K from 1 to \(count)")
        }
        self.index = index
        self.count = count
    }
}

/// A `--shard` value that cannot be used.
public struct ShardError: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var expected: String

    public var description: String { "--shard '\(text)' cannot be used; expected \(expected)" }
}
