import Foundation
import TincanCore

/// What the process was started with that `update` must not read for itself: the working
/// directory and the environment variables, taken once at start-up and kept as state, so
/// `update` stays a function of the state and the message (issue 35 §1).
public struct LaunchContext: Sendable, Equatable {
    /// Where Tincan was started: relative paths typed at the command line or in a pasted curl
    /// command are read from here, and so are an unsaved session's.
    public var workingDirectory: String
    /// The environment variables (`{{$env.NAME}}`, the variables view, history redaction).
    public var environment: [String: String]

    /// Creates a context.
    public init(workingDirectory: String, environment: [String: String] = [:]) {
        self.workingDirectory = workingDirectory
        self.environment = environment
    }

    /// This process's context: the one read of the working directory and the environment.
    public static var process: LaunchContext {
        LaunchContext(workingDirectory: FileManager.default.currentDirectoryPath, environment: ProcessEnvironment.values)
    }
}
