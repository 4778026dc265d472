import ArgumentParser
import TincanCore
import TincanSessions

/// `send`'s arguments read without the argument parser (issue 16, start-up).
///
/// The parser reflects over every option of `send` and of the commands around it, and the
/// runtime looks up each type it meets in a table of 11,000 conformances: about 7 ms of what was
/// a 20 ms `tincan send`, all of it before the request could start. Even making a `SendCommand`
/// costs 0.3 to 0.8 ms, in its 42 property wrappers. A command line of the usual shape is read
/// here instead, in microseconds, into the `SendOptions` the parser's command would give:
/// - options by their names as the parser knows them (`--name value`, `--name=value`, `-H value`),
///   each single-valued one at most once, and flags without a value;
/// - positionals that do not start with `-`: the method, the URL, then the items.
///
/// Anything else returns nil, and the argument parser reads the whole line as before, with its
/// help, its errors and its rules: `--help`, `--`, an unknown or repeated option, a value that
/// looks like an option, an empty `--name=`, a word an enumeration does not take, fewer than
/// two positionals. So
/// this path never gives a line another meaning: `SendDirectParseTests` holds it to the parser's
/// result for every option the parser lists, and for 5,000 generated lines. `DirectLine` reads
/// the line's shape; `replay` reads its usual lines the same way (ReplayArguments+DirectParse).
extension SendOptions: DirectlyParsedOptions {
    static func parsedDirectly(_ arguments: ArraySlice<String>) -> SendOptions? {
        // Only the repeatable options (-H, --pin) may come twice.
        guard let line = directLine(arguments, repeatable: ["-H", "--pin"]), line.positionals.count >= 2 else { return nil }
        var options = SendOptions(method: line.positionals[0], url: line.positionals[1])
        options.items = Array(line.positionals.dropFirst(2))
        return options.setting(line)
    }

    /// The flag of this name, as the parser names it.
    static func flag(named name: String) -> WritableKeyPath<SendOptions, Bool>? {
        switch name {
        case "--http1.1": \.http1_1
        case "--http2": \.http2
        case "--continue": \.continueDownload
        case "--insecure": \.insecure
        case "--offline": \.offline
        case "--explain": \.explain
        case "--show-secrets": \.showSecrets
        case "--remove-nulls": \.removeNulls
        case "--ignore-stdin": \.ignoreStdin
        case "--stream": \.stream
        case "--no-stream": \.noStream
        default: nil
        }
    }

    /// Sets the option of this name, as the parser names it; false for a name `send` does not
    /// take, or a word its enumeration does not (the parser then says so).
    mutating func setOption(_ name: String, to value: String) -> Bool {
        switch name {
        case "--base": base = value
        case "--serializer":
            guard let kind = SerializerKind(argument: value) else { return false }
            serializer = kind
        case "--params-json": paramsJSON = value
        case "-H": headers.append(value)
        case "--timeout": timeout = value
        case "--max-time": maxTime = value
        case "--retry": retry = value
        case "--retry-delay": retryDelay = value
        case "--max-redirects": maxRedirects = value
        case "--user": user = value
        case "--auth-type":
            guard let type = AuthType(argument: value) else { return false }
            authType = type
        case "--download": download = value
        case "--upload": upload = value
        case "--throttle": throttle = value
        case "--max-body": maxBody = value
        case "--ca-file": caFile = value
        case "--pin": pin.append(value)
        case "--pin-mode":
            guard let mode = SessionKey.PinMode(argument: value) else { return false }
            pinMode = mode
        case "--cert": clientCertificate = value
        case "--key": clientKey = value
        case "--proxy": proxy = value
        case "--noproxy": noproxy = value
        case "--format":
            guard let format = OutputFormat(argument: value) else { return false }
            self.format = format
        case "--boundary": boundary = value
        case "--response-serializer":
            guard let kind = ResponseSerializerKind(argument: value) else { return false }
            responseSerializer = kind
        case "--accept-status": acceptStatus = value
        case "--accept-type": acceptType = value
        case "--cookie-jar": cookieJar = value
        default: return false
        }
        return true
    }
}

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
