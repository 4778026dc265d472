import Foundation
import PackagePlugin

/// Builds the lesson pack into the binary, so `tincan learn` lists and opens the built-in lessons
/// wherever the binary is: Build/embed-lessons.sh writes every `examples/lessons/*.tincan.yaml`,
/// their solutions, and the files in `examples/lessons/files/` they send, into `BuiltinLessonFiles.swift`, again
/// whenever one of them changes.
@main
struct EmbedLessons: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "examples/lessons")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            .filter { $0.hasSuffix(".tincan.yaml") }
            .sorted()
        let lessons = names.map { folder.appending(path: $0) }
        // Their solutions, for a teacher's handout (`tincan learn N --handout FILE --teacher`).
        let solutionsFolder = folder.appending(path: "solutions")
        let solutions = ((try? FileManager.default.contentsOfDirectory(atPath: solutionsFolder.path(percentEncoded: false))) ?? [])
            .filter { $0.hasSuffix(".tincan.yaml") }
            .sorted()
            .map { solutionsFolder.appending(path: $0) }
        // The files lessons send (multipart parts, uploads), named by `{{lesson-files}}`.
        let filesFolder = folder.appending(path: "files")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: filesFolder.path(percentEncoded: false))) ?? [])
            .filter { !$0.hasPrefix(".") }
            .sorted()
            .map { filesFolder.appending(path: $0) }
        let script = context.package.directoryURL.appending(path: "Build/embed-lessons.sh")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltinLessonFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(lessons.count) lessons into \(target.name)",
                executable: URL(filePath: "/bin/sh"),
                arguments: [script.path(percentEncoded: false), output.path(percentEncoded: false)] + lessons.map { $0.path(percentEncoded: false) }
                    + ["--solutions"] + solutions.map { $0.path(percentEncoded: false) }
                    + ["--files"] + files.map { $0.path(percentEncoded: false) },
                inputFiles: [script] + lessons + solutions + files,
                outputFiles: [output]
            ),
        ]
    }
}
