/// Standard input as a body: the path `-` in items and raw bodies, and HTTPie's rule that a
/// request with no body items sends standard input as it is.
///
/// The draft never reads standard input itself: a front end (`tincan send`) reads it once, within
/// its limit, and hands the bytes over in ``RequestDraft/standardInput``, so building stays pure
/// and the TUI or a replay, which have no standard input to give, refuse a `-` by name.
extension RequestDraft {
    /// The path that stands for standard input wherever a file is read: `name=@-`, `name:=@-`,
    /// `field@-` and a raw body file. A file named `-` is still reachable as `./-`.
    public static let standardInputPath = "-"

    /// The file name a multipart part read from standard input (`field@-`) is sent with.
    public static let standardInputFileName = "stdin"

    /// How ``standardInputReaders`` names a raw body read from `-`.
    public static let rawBodyReader = "the raw body"

    /// What reads the path `-`, each as the user wrote it (`name=@-`, `field@-`, or
    /// ``rawBodyReader``), in order. Standard input can be read once, so a front end refuses more than one.
    public var standardInputReaders: [String] {
        var readers: [String] = items.compactMap { item in
            switch item {
            case .parameterFromFile(let key, Self.standardInputPath, let isJSON): "\(key)\(isJSON ? ":=@" : "=@")\(Self.standardInputPath)"
            case .file(let field, Self.standardInputPath, _): "\(field)@\(Self.standardInputPath)"
            default: nil
            }
        }
        if case .file(Self.standardInputPath) = body { readers.append(Self.rawBodyReader) }
        return readers
    }

    /// Whether anything gives the request a body: parameters (`--params-json`, `name=value`,
    /// `name:=json`, `name=@file`), multipart files or a raw body. Headers and `name==value`
    /// query items do not. When nothing does, `tincan send` sends standard input as the body,
    /// as HTTPie does.
    public var hasBodyItems: Bool {
        if parameters != nil || body != nil { return true }
        return items.contains { item in
            switch item {
            case .parameter, .parameterFromFile, .file: true
            case .query, .header, .removeHeader: false
            }
        }
    }

    /// The bytes of ``standardInput`` for `reader`, or an error naming it when there are none.
    func standardInputBytes(for reader: String) throws(RequestItemError) -> [UInt8] {
        try Self.standardInputBytes(standardInput, for: reader)
    }

    /// `standardInput`, or an error naming `reader` when there is none.
    static func standardInputBytes(_ standardInput: [UInt8]?, for reader: String) throws(RequestItemError) -> [UInt8] {
        guard let standardInput else {
            throw RequestItemError(item: reader, reason: "'\(Self.standardInputPath)' reads standard input, and none was given here")
        }
        return standardInput
    }
}
