import Foundation
import PackagePlugin

/// Names the commit a build comes from, for `tincan --version` (issue 19 §4): before each build,
/// Build/commit-stamp.sh writes `BuildCommit.swift` into the plugin's folder, rewriting it only
/// when the commit (or whether the tree has changes) is not what it already says, so an
/// unchanged checkout recompiles nothing.
@main
struct CommitStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let script = context.package.directoryURL.appending(path: "Build/commit-stamp.sh")
        return [
            .prebuildCommand(
                displayName: "Stamping the commit into \(target.name)",
                executable: URL(filePath: "/bin/sh"),
                arguments: [script.path(percentEncoded: false), context.package.directoryURL.path(percentEncoded: false), output.path(percentEncoded: false)],
                outputFilesDirectory: output
            ),
        ]
    }
}
