import Testing
@testable import tincan

/// How `tincan ARGUMENTS` ends, parsed and run in this process as the binary runs them: in
/// milliseconds, with no process to spawn. For invocations that fail before any output; one that
/// succeeds records an issue, since it would have done its work here.
///
/// Standard input is `standardInput` (none, as a terminal gives, by default), never the test
/// runner's own.
func ending(
    of arguments: [String],
    standardInput: StandardInput.Source = .none,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> TincanCommand.Ending {
    do {
        try await StandardInput.$current.withValue(StandardInput(source: standardInput)) {
            try await TincanCommand.execute(arguments)
        }
        Issue.record("tincan \(arguments.joined(separator: " ")) did not fail", sourceLocation: sourceLocation)
        return TincanCommand.Ending(status: 0)
    } catch {
        return TincanCommand.ending(for: error)
    }
}
