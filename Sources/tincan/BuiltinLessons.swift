import Foundation

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
