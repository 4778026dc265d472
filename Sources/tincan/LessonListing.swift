import TincanCore
import TincanSessions

/// What `tincan learn` lists: each built-in lesson with the learner's status in it, its summary,
/// and the lesson to take next.
struct LessonListing: Equatable {
    /// Where a learner stands in one lesson.
    enum Status: Equatable {
        case notStarted
        /// Some steps passed; `step` (from 1) is the first not passed.
        case inProgress(step: Int, passed: Int)
        case done

        /// The status of a lesson of `steps` steps from its recorded progress (steps recorded
        /// beyond the lesson's count, from an older version of it, are not counted).
        init(_ entry: LessonProgress.Entry?, steps: Int) {
            let passed = entry?.passedSteps.filter { $0 < steps } ?? []
            if steps > 0, passed.count == steps {
                self = .done
            } else if passed.isEmpty {
                self = .notStarted
            } else {
                self = .inProgress(step: ((0..<steps).first { !passed.contains($0) } ?? 0) + 1, passed: passed.count)
            }
        }

        /// The status in words, for a lesson of `steps` steps.
        func text(steps: Int) -> String {
            switch self {
            case .notStarted: "not started · \(steps) steps"
            case let .inProgress(step, _): "in progress · step \(step) of \(steps)"
            case .done: "✓ done"
            }
        }

        /// The status's name in `--json`.
        var key: String {
            switch self {
            case .notStarted: "not-started"
            case .inProgress: "in-progress"
            case .done: "done"
            }
        }
    }

    /// One lesson.
    struct Row: Equatable {
        var name: String
        var title: String
        var summary: String?
        var steps: Int
        var status: Status
    }

    var rows: [Row]

    /// The lesson to take next: the first one in progress, else the first not started after the
    /// last one done, else the first not done; nil when every lesson is done.
    var next: Row? {
        if let started = rows.first(where: { if case .inProgress = $0.status { true } else { false } }) { return started }
        let lastDone = rows.lastIndex { $0.status == .done }
        let after = lastDone.map { rows.index(after: $0) } ?? rows.startIndex
        return rows[after...].first { $0.status == .notStarted } ?? rows.first { $0.status != .done }
    }

    /// The number a lesson is opened by (`tincan learn 7`), or its name.
    static func shortName(_ name: String) -> String {
        name.split(separator: "-").first.flatMap { Int($0) }.map(String.init) ?? name
    }

    /// The list as text for a terminal: a line per lesson (name, title, status) with the summary
    /// indented under it, then the lesson to take next. Titles and summaries come from lesson
    /// files; the caller neutralises the text.
    func text(progressPath: String) -> String {
        var text = "Lessons (open one with: tincan learn NUMBER)\n"
        let nameWidth = rows.map(\.name.count).max() ?? 0
        let titleWidth = rows.map(\.title.count).max() ?? 0
        for row in rows {
            text += "  \(row.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))  \(row.title.padding(toLength: titleWidth, withPad: " ", startingAt: 0))  \(row.status.text(steps: row.steps))\n"
            if let summary = row.summary, !summary.isEmpty { text += "  \(String(repeating: " ", count: nameWidth))    \(summary)\n" }
        }
        if let next {
            let step: String = if case let .inProgress(number, _) = next.status { ", step \(number)" } else { "" }
            text += "Next: tincan learn \(Self.shortName(next.name)) (\(next.title)\(step))\n"
        } else if !rows.isEmpty {
            text += "Every lesson is done.\n"
        }
        return text + "Progress is kept in \(progressPath)\n"
    }

    /// The list as `--json` prints it.
    func json(progressPath: String) -> ParameterValue {
        .dictionary([
            "progress": .string(progressPath),
            "next": next.map { .string($0.name) } ?? .null,
            "lessons": .array(rows.map { row in
                var object: [(String, ParameterValue)] = [
                    ("name", .string(row.name)), ("title", .string(row.title)), ("summary", row.summary.map(ParameterValue.string) ?? .null),
                    ("steps", .integer(Int64(row.steps))), ("status", .string(row.status.key)),
                ]
                switch row.status {
                case .notStarted: object.append(("passed", .integer(0)))
                case let .inProgress(step, passed): object += [("passed", .integer(Int64(passed))), ("step", .integer(Int64(step)))]
                case .done: object.append(("passed", .integer(Int64(row.steps))))
                }
                return .dictionary(.init(uniqueKeysWithValues: object))
            }),
        ])
    }
}
