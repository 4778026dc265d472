import Foundation
import TincanSessions

/// The lessons built into the binary (examples/lessons, embedded by Plugins/EmbedLessons).
enum BuiltinLessons {
    /// A built-in lesson: its name (the file name without `.tincan.yaml`) and its text.
    struct Lesson {
        var name: String
        var text: String
    }

    static let suffix = ".tincan.yaml"

    /// Every built-in lesson, in order.
    static let all: [Lesson] = builtinLessonFiles.map { Lesson(name: String($0.name.dropLast(suffix.count)), text: $0.text) }

    /// The solution of the built-in lesson `name` (examples/lessons/solutions), as text.
    static func solution(of name: String) -> String? {
        builtinLessonSolutionFiles.first { $0.name == name + suffix }?.text
    }

    /// Writes the files the built-in lessons send to a new private folder, and returns it.
    ///
    /// - Throws: ``CLIFailure`` naming the folder when it cannot be written.
    static func writeSupportFiles() throws -> String {
        let folder = NSTemporaryDirectory() + "tincan-lesson-files-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            for file in builtinLessonSupportFiles {
                try Data(file.text.utf8).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(file.name)))
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw CLIFailure(message: "error: the lessons' files cannot be written to \(folder): \(error.localizedDescription)", exitCode: .writeFailed)
        }
        return folder
    }

    /// The built-in lesson a lesson file is a copy of (one `tincan learn N` saved, or its
    /// solution): the one of the file's name, else the one of its title; nil for any other lesson.
    static func original(ofFile path: String, titled title: String?) -> (name: String, lesson: TincanSessions.Lesson)? {
        let name = (path as NSString).lastPathComponent
        let builtin = all.first { $0.name + suffix == name } ?? all.first { lesson in
            title != nil && (try? Session.parse(lesson.text, path: lesson.name))?.lesson?.title == title
        }
        guard let builtin, let lesson = try? Session.parse(builtin.text, path: "built-in lesson \(builtin.name)").lesson else { return nil }
        return (builtin.name, lesson)
    }

    /// Where a lesson's goals differ from `original`'s (the steps, each step's goals and the
    /// request it starts from), in words; nil when they are the same. Text and hints may differ.
    static func goalDifference(from original: TincanSessions.Lesson, _ lesson: TincanSessions.Lesson) -> String? {
        if original.steps.count != lesson.steps.count { return "\(lesson.steps.count) steps against \(original.steps.count)" }
        for (index, (step, saved)) in zip(original.steps, lesson.steps).enumerated() where step.goals != saved.goals || step.requestName != saved.requestName {
            return "step \(index + 1)'s \(step.goals != saved.goals ? "goals" : "request")"
        }
        return nil
    }

    /// The lesson after the built-in lesson `name`, as the learner opens it:
    /// `tincan learn 7 (Cookies on and off)`; nil after the last.
    static func next(after name: String) -> String? {
        guard let index = all.firstIndex(where: { $0.name == name }), index + 1 < all.count else { return nil }
        let next = all[index + 1]
        let number = next.name.split(separator: "-").first.flatMap { Int($0) }.map(String.init) ?? next.name
        let title = (try? Session.parse(next.text, path: next.name))?.lesson?.title
        return "tincan learn \(number)" + (title.map { " (\($0))" } ?? "")
    }

    /// The built-in lesson `name` names: its whole name (`01-base-url`), its number (`01`, `1`),
    /// or its name without the number (`base-url`).
    static func named(_ name: String) -> Lesson? {
        let wanted = name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
        return all.first { lesson in
            let parts = lesson.name.split(separator: "-", maxSplits: 1)
            guard let number = parts.first else { return false }
            return lesson.name == wanted || number == wanted || Int(number).map { Int(wanted) == $0 } == true
                || (parts.count > 1 && parts[1] == wanted)
        }
    }
}
