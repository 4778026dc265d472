import Foundation
import OrderedCollections
import Synchronization
import TincanCore

/// Where each student of a workshop is, as their `tincan learn --classroom` reports it to the
/// teacher's `tincan serve --classroom` (issue 37 §5).
///
/// Everything here came from the network: names, lessons and titles are bounded in size, the
/// room in number, and a report that breaks a bound is refused whole with the reason. Nothing is
/// neutralised here; whoever prints a student's text to a terminal passes it through
/// ``TerminalText``.
public final class Classroom: Sendable {
    /// Where the room's routes are: `POST /__classroom/progress`, `GET /__classroom` (HTML),
    /// `GET /__classroom/students` (JSON).
    public static let path = "/__classroom"
    /// The most students a room holds; a report from a new name beyond it is refused.
    public static let maximumStudents = 200
    /// The most characters of a name.
    public static let maximumNameLength = 40
    /// The most characters of a lesson's name, and of its title.
    public static let maximumLessonLength = 80
    /// The most bytes of a report's body.
    public static let maximumReportBytes = 4096
    /// The most steps a lesson may report (``Lesson/maximumSteps``, which this module cannot see).
    public static let maximumSteps = 200

    /// One student's latest report.
    public struct Student: Sendable, Equatable {
        /// The name the student gave (`--name`).
        public var name: String
        /// The lesson they are on: a built-in lesson's name, or a lesson file's name.
        public var lesson: String
        /// The lesson's title, when sent.
        public var title: String?
        /// How many steps the lesson has.
        public var steps: Int
        /// The steps passed, from 1, in order.
        public var passed: [Int]
        /// When the report arrived.
        public var updated: Date

        /// Creates a student's record.
        public init(name: String, lesson: String, title: String?, steps: Int, passed: [Int], updated: Date) {
            self.name = name
            self.lesson = lesson
            self.title = title
            self.steps = steps
            self.passed = passed
            self.updated = updated
        }

        /// The step they are on (from 1), or nil when every step is passed.
        public var step: Int? { (1...steps).first { !passed.contains($0) } }

        /// Whether every step is passed.
        public var isDone: Bool { step == nil }

        /// The student as `GET /__classroom/students` gives them.
        public var json: ParameterValue {
            .dictionary([
                "name": .string(name), "lesson": .string(lesson), "title": title.map(ParameterValue.string) ?? .null,
                "steps": .integer(Int64(steps)), "passed": .array(passed.map { .integer(Int64($0)) }),
                "step": step.map { .integer(Int64($0)) } ?? .null, "done": .bool(isDone),
                "updated": .string(ISO8601DateFormatter().string(from: updated)),
            ])
        }
    }

    /// Why a report was refused, for the student's error message.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        /// Whether it was refused because the room is full (429) rather than malformed (400).
        public var isFull = false
        public var description: String { reason }

        /// Creates a refusal.
        public init(reason: String, isFull: Bool = false) {
            self.reason = reason
            self.isFull = isFull
        }
    }

    private let state = Mutex<OrderedDictionary<String, Student>>([:])
    private let onChange: (@Sendable (Student, [Student]) -> Void)?
    private let now: @Sendable () -> Date

    /// Creates an empty room.
    ///
    /// - Parameters:
    ///   - now: The clock reports are stamped with.
    ///   - onChange: Called after each accepted report (on the connection's thread) with the
    ///     student it is from and every student, in the order they first reported, for what
    ///     `tincan serve` shows.
    public init(now: @escaping @Sendable () -> Date = Date.init, onChange: (@Sendable (Student, [Student]) -> Void)? = nil) {
        self.now = now
        self.onChange = onChange
    }

    /// Every student, in the order they first reported.
    public var students: [Student] { state.withLock { Array($0.values) } }

    /// Records a report, a JSON object `{"name", "lesson", "title"?, "steps", "passed": [step numbers from 1]}`.
    ///
    /// - Returns: The student as recorded.
    /// - Throws: ``Refusal`` naming the field and the bound it breaks, or saying the room is full.
    @discardableResult
    public func record(report bytes: [UInt8]) throws(Refusal) -> Student {
        guard bytes.count <= Self.maximumReportBytes else { throw Refusal(reason: "a report holds at most \(Self.maximumReportBytes) bytes") }
        let value: ParameterValue
        do {
            value = try JSONParser.parse(bytes: bytes)
        } catch {
            throw Refusal(reason: "the report is not JSON: \(error)")
        }
        guard case .dictionary(let fields) = value else { throw Refusal(reason: "expected a JSON object {\"name\", \"lesson\", \"steps\", \"passed\"}") }
        let name = try Self.text(fields["name"], field: "name", limit: Self.maximumNameLength)
        let lesson = try Self.text(fields["lesson"], field: "lesson", limit: Self.maximumLessonLength)
        let title = fields["title"].flatMap { $0 == .null ? nil : $0 }
        guard case .integer(let steps)? = fields["steps"], (1...Int64(Self.maximumSteps)).contains(steps) else {
            throw Refusal(reason: "steps: expected a whole number from 1 to \(Self.maximumSteps)")
        }
        guard case .array(let items)? = fields["passed"], items.count <= Int(steps) else {
            throw Refusal(reason: "passed: expected a list of at most \(steps) step numbers")
        }
        var passed: Set<Int> = []
        for item in items {
            guard case .integer(let number) = item, (1...steps).contains(number) else { throw Refusal(reason: "passed: each step number is from 1 to \(steps)") }
            passed.insert(Int(number))
        }
        var titleText: String?
        if let title { titleText = try Self.text(title, field: "title", limit: Self.maximumLessonLength) }
        let student = Student(name: name, lesson: lesson, title: titleText, steps: Int(steps), passed: passed.sorted(), updated: now())
        let everyone = state.withLock { room -> [Student]? in
            if room[name] == nil, room.count >= Self.maximumStudents { return nil }
            room[name] = student
            return Array(room.values)
        }
        guard let everyone else { throw Refusal(reason: "the classroom is full: it follows at most \(Self.maximumStudents) students", isFull: true) }
        onChange?(student, everyone)
        return student
    }

    /// A report's text field: a non-empty string of at most `limit` characters, none of them a
    /// control character (a name is shown on the teacher's screen).
    private static func text(_ value: ParameterValue?, field: String, limit: Int) throws(Refusal) -> String {
        guard case .string(let text)? = value else { throw Refusal(reason: "\(field): expected a string") }
        let trimmed = text.trimmingWhitespaceAndNewlines()
        guard !trimmed.isEmpty, trimmed.count <= limit else { throw Refusal(reason: "\(field): expected 1 to \(limit) characters") }
        guard !trimmed.unicodeScalars.contains(where: TerminalText.isControl) else { throw Refusal(reason: "\(field): control characters are not allowed") }
        return trimmed
    }

    /// The room as `GET /__classroom/students` gives it.
    public var json: ParameterValue {
        .dictionary(["students": .array(students.map(\.json))])
    }
}
