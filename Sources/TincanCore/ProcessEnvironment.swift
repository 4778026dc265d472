import Foundation

/// This process's environment variables, read once.
///
/// Foundation builds `ProcessInfo.processInfo.environment` afresh on every read, parsing every
/// `NAME=value` string of `environ` into a new dictionary: about 340,000 instructions with 40
/// variables. Default headers, the proxy variables and `$env` references are read for every
/// request, and a replay read it three times per request (40% of its instructions). Tincan never
/// changes its own environment, so the first reading stands for the whole run.
public enum ProcessEnvironment {
    /// The variables, by name.
    public static let values: [String: String] = ProcessInfo.processInfo.environment
}
