// What `send`, `replay` and the TUI share to read a usual command line without the argument
// parser's reflection (SendCommand+DirectParse, ReplayArguments+DirectParse,
// TUIArguments+DirectParse).

/// A command's options as a direct reading sets them: its flags by key path, the others by name.
protocol DirectlyParsedOptions {
    /// The flag of this name, as the parser names it; nil for any other name.
    static func flag(named name: String) -> WritableKeyPath<Self, Bool>?
    /// Sets the option of this name, as the parser names it; false for a name the command does
    /// not take, or a word its enumeration does not (the parser then says so).
    mutating func setOption(_ name: String, to value: String) -> Bool
}

extension DirectlyParsedOptions {
    /// `arguments` split into flags, options and positionals, or nil when only the parser may read them.
    static func directLine(_ arguments: ArraySlice<String>, repeatable: Set<String>) -> DirectLine? {
        DirectLine(arguments, isFlag: { flag(named: $0) != nil }, repeatable: repeatable)
    }

    /// These options with the line's flags and options set, or nil when the command takes one of
    /// them otherwise than the line gives it.
    func setting(_ line: DirectLine) -> Self? {
        var options = self
        for name in line.flags {
            guard let flag = Self.flag(named: name) else { return nil }
            options[keyPath: flag] = true
        }
        for (name, value) in line.options {
            guard options.setOption(name, to: value) else { return nil }
        }
        return options
    }
}

/// A command line split as the argument parser splits it, for a command's direct reading: flags,
/// options with their values, and positionals. Nil for a line only the parser may read (see
/// SendOptions.parsedDirectly): `--` or `-` alone, a flag with `=value` or given twice, an option
/// without a value or with one that looks like an option, an empty `--name=`, or a single-valued
/// option given twice. The command then refuses any name it does not take.
struct DirectLine {
    var flags: [String] = []
    var options: [(name: String, value: String)] = []
    var positionals: [String] = []

    init?(_ arguments: ArraySlice<String>, isFlag: (String) -> Bool, repeatable: Set<String>) {
        var given = Set<String>()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                positionals.append(argument)
                continue
            }
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            if isFlag(name) {
                guard attached == nil, given.insert(name).inserted else { return nil }
                flags.append(name)
                continue
            }
            let value: String
            if let attached {
                // The parser reads `--name=` as `--name` followed by the next argument.
                guard !attached.isEmpty else { return nil }
                value = attached
            } else {
                guard index < arguments.endIndex, !arguments[index].hasPrefix("-") else { return nil }
                value = arguments[index]
                index += 1
            }
            guard repeatable.contains(name) || given.insert(name).inserted else { return nil }
            options.append((name, value))
        }
    }
}
