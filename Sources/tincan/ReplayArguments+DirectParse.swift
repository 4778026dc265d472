import ArgumentParser
import TincanSessions

/// `replay`'s arguments read without the argument parser, as `send`'s are (SendCommand+DirectParse):
/// the parser's reflection over `replay` and the commands around it costs about 4 ms before the
/// first file is read, a third of a one-request replay. A line of the usual shape (the options
/// by the names the parser knows, `--var` repeatable, the files as positionals) is read here into
/// the `ReplayArguments` the parser's command would give; anything else (help, `--`, an unknown or
/// repeated option, a report format the parser does not take, no file) goes to the parser.
/// `ReplayDirectParseTests` holds it to the parser's result for every option and for generated lines.
extension ReplayArguments: DirectlyParsedOptions {
    static func parsedDirectly(_ arguments: ArraySlice<String>) -> ReplayArguments? {
        guard let line = directLine(arguments, repeatable: ["--var"]), !line.positionals.isEmpty else { return nil }
        return ReplayArguments(files: line.positionals).setting(line)
    }

    /// The flag of this name, as the parser names it.
    static func flag(named name: String) -> WritableKeyPath<ReplayArguments, Bool>? {
        switch name {
        case "--test": \.test
        case "--fail-fast": \.failFast
        case "--compare-recorded": \.compareRecorded
        case "--record": \.record
        case "--demo": \.demo
        case "--verbose": \.verbose
        case "--show-secrets": \.showSecrets
        default: nil
        }
    }

    /// Sets the option of this name; false for a name `replay` does not take, or a report format
    /// the parser would refuse (it then says so).
    mutating func setOption(_ name: String, to value: String) -> Bool {
        switch name {
        case "--env": env = value
        case "--var": variables.append(value)
        case "--report":
            guard let format = ReportWriter.Format(argument: value) else { return false }
            report = format
        case "--output": output = value
        case "--jobs": jobs = value
        case "--shard": shard = value
        case "--record-to": recordTo = value
        case "--record-har": recordHAR = value
        case "--max-body": maxBody = value
        default: return false
        }
        return true
    }
}
