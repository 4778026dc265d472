import Foundation
import OrderedCollections
import TincanCore

/// Each learner's progress through the lessons: which steps of each lesson they have passed,
/// kept in `$XDG_STATE_HOME/tincan/lessons.json` (else `~/.local/state/tincan/`), private to them.
///
/// Lessons are keyed by name: a built-in lesson's file name without `.tincan.yaml`, any other
/// lesson's absolute path. A file that does not read as progress is never written over; the
/// error names it and the place.
public struct LessonProgress: Sendable, Equatable {
    /// One lesson's progress.
    public struct Entry: Sendable, Equatable {
        /// The steps passed, from 0.
        public var passedSteps: Set<Int> = []
        /// How many steps the lesson had when last opened.
        public var stepCount: Int

        /// Creates an entry.
        public init(passedSteps: Set<Int> = [], stepCount: Int) {
            self.passedSteps = passedSteps
            self.stepCount = stepCount
        }

        /// Whether every step is passed.
        public var isComplete: Bool { stepCount > 0 && (0..<stepCount).allSatisfy(passedSteps.contains) }

        /// The first step not passed yet, or nil when the lesson is complete.
        public var nextStep: Int? { (0..<stepCount).first { !passedSteps.contains($0) } }
    }

    /// The progress file holds at most this many bytes.
    public static let maximumFileBytes = 1 << 20

    /// Each lesson's progress, by key.
    public var lessons: OrderedDictionary<String, Entry> = [:]

    /// Empty progress.
    public init() {}

    /// The progress file for an environment.
    public static func defaultPath(environment: [String: String] = ProcessEnvironment.values) -> String {
        (XDGDirectory.state.tincanFolder(environment: environment) as NSString).appendingPathComponent("lessons.json")
    }

    /// Why progress could not be read or saved.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Reads the progress file; a missing file is no progress yet.
    ///
    /// - Throws: ``Failure`` for a file that cannot be read or does not hold progress.
    public static func load(path: String) throws(Failure) -> LessonProgress {
        guard FileManager.default.fileExists(atPath: path) else { return LessonProgress() }
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.readText(path, limit: maximumFileBytes)
        } catch {
            throw Failure(path: path, reason: "\(error)")
        }
        let value: ParameterValue
        do {
            value = try JSONParser.parse(bytes: bytes)
        } catch {
            throw Failure(path: path, reason: "\(error); it is kept as it is, and progress is not saved until it reads")
        }
        guard case .dictionary(let top) = value, case .dictionary(let lessons)? = top["lessons"] else {
            throw Failure(path: path, reason: "expected {\"lessons\": {…}}; it is kept as it is, and progress is not saved until it reads")
        }
        var progress = LessonProgress()
        for (key, entry) in lessons {
            guard case .dictionary(let fields) = entry, case .integer(let count)? = fields["steps"], (1...Int64(Lesson.maximumSteps)).contains(count),
                  case .array(let passed)? = fields["passed"] else {
                throw Failure(path: path, reason: "lesson '\(key)': expected {\"steps\": N, \"passed\": [step numbers]} with N from 1 to \(Lesson.maximumSteps)")
            }
            var steps: Set<Int> = []
            for step in passed {
                guard case .integer(let number) = step, (1...count).contains(number) else {
                    throw Failure(path: path, reason: "lesson '\(key)': a passed step is not a number from 1 to \(count)")
                }
                steps.insert(Int(number) - 1)
            }
            progress.lessons[key] = Entry(passedSteps: steps, stepCount: Int(count))
        }
        return progress
    }

    /// Records one lesson's progress in the file as it is now, so a Tincan that saved another
    /// lesson's progress in the meantime keeps it: the file is read again, the entry replaced,
    /// and the file written back (atomically). A file that does not read is not written over.
    ///
    /// - Throws: ``Failure`` naming the file and what went wrong.
    public static func record(_ entry: Entry, for key: String, path: String) throws(Failure) {
        var progress = try load(path: path)
        progress.lessons[key] = entry
        try progress.save(path: path)
    }

    /// Writes the progress file atomically, private to the learner (0600, in a 0700 folder).
    ///
    /// - Throws: ``Failure`` naming the file and the system's reason.
    public func save(path: String) throws(Failure) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try AtomicFile.write(JSONWriter.bytes(json, indent: 2) + [0x0A], to: path, mode: 0o600)
        } catch {
            throw Failure(path: path, reason: "could not save progress: \(error)")
        }
    }

    /// The progress as the file holds it: steps numbered from 1, in order.
    var json: ParameterValue {
        .dictionary(["lessons": .dictionary(OrderedDictionary(uniqueKeysWithValues: lessons.map { key, entry in
            (key, ParameterValue.dictionary(["steps": .integer(Int64(entry.stepCount)), "passed": .array(entry.passedSteps.sorted().map { .integer(Int64($0 + 1)) })]))
        }))])
    }

    /// The key of a lesson: a built-in's name, or the file's absolute path.
    public static func key(builtinName: String?, path: String) -> String {
        if let builtinName { return builtinName }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
