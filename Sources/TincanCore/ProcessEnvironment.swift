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

/// The XDG base directories Tincan keeps its files in, each with its `tincan` folder: what the
/// variable names when it is an absolute path (the specification ignores a relative one), else
/// its default under `$HOME`.
public enum XDGDirectory: String, Sendable {
    /// Settings: themes, keymaps, `config.yaml`.
    case config = "XDG_CONFIG_HOME"
    /// Data: the history.
    case data = "XDG_DATA_HOME"
    /// State: the learner's progress through the lessons.
    case state = "XDG_STATE_HOME"

    /// The default under `$HOME`.
    private var fallback: String {
        switch self {
        case .config: ".config"
        case .data: ".local/share"
        case .state: ".local/state"
        }
    }

    /// Tincan's folder in this directory.
    public func tincanFolder(environment: [String: String] = ProcessEnvironment.values) -> String {
        let base: String
        if let value = environment[rawValue], value.hasPrefix("/") {
            base = value
        } else {
            base = ((environment["HOME"] ?? NSHomeDirectory()) as NSString).appendingPathComponent(fallback)
        }
        return (base as NSString).appendingPathComponent("tincan")
    }
}
