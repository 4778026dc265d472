import ArgumentParser

/// The TUI's arguments (`tincan`, `tincan FILE`, `tincan open …`) read without the argument
/// parser, as `send`'s and `replay`'s are (SendCommand+DirectParse): the parser's reflection over
/// the commands was about 4.5 ms of the 19 ms to the first paint. A line of the usual shape is read
/// here into the `TUIArguments` the parser's command would give; anything else goes to the parser:
/// help and version, `--`, an unknown or repeated option, more than one file, and any word that
/// names a subcommand (after `open`, the parser reads one as the file, and so does this).
/// `TUIDirectParseTests` holds it to the parser's result.
extension TUIArguments: DirectlyParsedOptions {
    static func parsedDirectly(_ arguments: ArraySlice<String>) -> TUIArguments? {
        var arguments = arguments
        let explicit = arguments.first == "open"
        if explicit { arguments = arguments.dropFirst() }
        guard let line = directLine(arguments, repeatable: ["--var"]), line.positionals.count <= 1 else { return nil }
        // Without `open`, a subcommand's name anywhere is the parser's to place.
        if !explicit, let word = line.positionals.first, subcommandNames.contains(word) { return nil }
        return TUIArguments(file: line.positionals.first).setting(line)
    }

    /// The names of `tincan`'s subcommands, and the parser's own `help`.
    private static let subcommandNames: Set<String> = Set(TincanCommand.configuration.subcommands.map { $0._commandName } + ["help"])

    /// The flag of this name, as the parser names it.
    static func flag(named name: String) -> WritableKeyPath<TUIArguments, Bool>? {
        switch name {
        case "--demo": \.demo
        case "--no-history": \.display.noHistory
        case "--no-mouse": \.display.noMouse
        case "--first-paint-marker": \.firstPaintMarker
        default: nil
        }
    }

    /// Sets the option of this name; false for a name the TUI does not take.
    mutating func setOption(_ name: String, to value: String) -> Bool {
        switch name {
        case "--env": env = value
        case "--var": variables.append(value)
        case "--theme": display.theme = value
        case "--keymap": display.keymap = value
        default: return false
        }
        return true
    }
}
