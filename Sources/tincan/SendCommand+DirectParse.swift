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
/// the line's shape; `replay` and the TUI read their usual lines the same way.
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
