import TincanCore

/// One thing the preview reads from a file: the value of a `key=@file` item, the length of a
/// file the request streams (a raw body, an upload, a multipart part), or the session's client
/// certificate (`tls:`). Paths are as the draft asks for them: absolute for a length and a
/// certificate, as typed (with the folder they are read from) for a value.
public enum PreviewFileRead: Sendable, Hashable {
    /// The length of the file at `path` (``RequestBody/sendableFileLength(atPath:)``).
    case length(path: String)
    /// The value of `key=@path` or `key:=@path`
    /// (``RequestDraft/parameterValue(fromFile:isJSON:key:workingDirectory:standardInput:)``).
    case value(key: String, path: String, isJSON: Bool, workingDirectory: String)
    /// The client certificate and its key, in `key` or in the certificate's file
    /// (``ClientIdentity/load(certificate:key:environment:)``).
    case identity(certificate: String, key: String?)

    /// The file, as the placeholder names it.
    public var shownPath: String {
        switch self {
        case .length(let path): path
        case let .value(key, path, isJSON, _): "\(key)\(isJSON ? ":=@" : "=@")\(path)"
        case let .identity(certificate, key): key.map { "\(certificate) (key \($0))" } ?? certificate
        }
    }

    /// The files looked at, absolute: what their ``FileStamp``s are taken of.
    public var stampedPaths: [String] {
        switch self {
        case .length(let path): [path]
        case let .value(_, path, _, workingDirectory): [RequestDraft.resolvePath(path, in: workingDirectory)]
        case let .identity(certificate, key): [certificate] + (key.map { [$0] } ?? [])
        }
    }
}

/// What a read gave: the length or the value, or the error the one reading threw, kept whole so
/// the preview says exactly what `tincan send` would.
public enum PreviewFileAnswer: Sendable {
    case length(Result<Int64, RequestSerializationError>)
    case value(Result<ParameterValue, any Error>)
    case identity(Result<ClientIdentity, ClientIdentityError>)
}

/// A read's answer and the stamps its files had just before it was read.
public struct PreviewFileEntry: Sendable {
    public var stamp: [FileStamp]
    public var answer: PreviewFileAnswer

    public init(stamp: [FileStamp], answer: PreviewFileAnswer) {
        self.stamp = stamp
        self.answer = answer
    }
}

/// A read the preview asks the runner for: with the stamp of what it holds, the runner reads the
/// file again only when the file's stamp moved (``Effect/readPreviewFiles(_:)``).
public struct PreviewFileCheck: Sendable, Hashable {
    public var read: PreviewFileRead
    /// The stamps of the answer the preview holds; nil when it holds none.
    public var known: [FileStamp]?

    public init(read: PreviewFileRead, known: [FileStamp]?) {
        self.read = read
        self.known = known
    }
}

/// What the preview has read of the files its request names (issue 35 §1): `update` builds the
/// request from these answers and never from the disk. A file not read yet is asked of the runner
/// (``Effect/readPreviewFiles(_:)``) and the preview says it is reading it until the answer
/// (``Message/previewFilesRead(_:)``) comes; each later change makes the runner look again at the
/// files' stamps, so an edited file is read again and an unchanged one is not.
public struct PreviewFiles: Sendable {
    /// The answers, by what was read.
    public private(set) var entries: [PreviewFileRead: PreviewFileEntry] = [:]
    /// What the last build asked for, in order.
    public private(set) var used: [PreviewFileRead] = []
    /// What the last build asked for and had no answer to: the preview waits on these.
    public private(set) var missing: [PreviewFileRead] = []
    /// Asked of the runner and not answered yet, so typing on does not ask twice.
    private var requested: Set<PreviewFileRead> = []
    /// Whether the preview was built since the runner last looked at the files.
    private var checkDue = false
    /// Whether the send key waits on files read again (``readFailuresAgain()``): the answer sends.
    var sendWaits = false

    public init() {}

    /// Takes what a build asked for (``PreviewFileLookup``). Only those answers are kept: what
    /// is held stays the size of the request's own files, however many paths were typed on the
    /// way (another request's files are read again when it is chosen again).
    mutating func record(_ lookup: PreviewFileLookup) {
        used = lookup.used
        missing = lookup.missing
        checkDue = !used.isEmpty
        let kept = Set(used)
        if entries.keys.contains(where: { !kept.contains($0) }) { entries = entries.filter { kept.contains($0.key) } }
    }

    /// Takes the runner's answers: each replaces what was held for its read.
    mutating func take(_ answers: [PreviewFileRead: PreviewFileEntry]) {
        for (read, entry) in answers {
            entries[read] = entry
            requested.remove(read)
        }
    }

    /// The effect that asks the runner to look at the files the last build used, once per change:
    /// nil when none is due, or when every file left to read is already asked for and the rest
    /// would only be looked at again because an answer just came.
    ///
    /// - Parameter afterAnswer: Whether the build followed an answer: then only files not asked
    ///   for yet are asked (a file the answer made the request name), so answers never loop.
    mutating func checkEffect(afterAnswer: Bool) -> Effect? {
        guard checkDue else { return nil }
        checkDue = false
        let checks = used.compactMap { read -> PreviewFileCheck? in
            if let entry = entries[read] { return afterAnswer ? nil : PreviewFileCheck(read: read, known: entry.stamp) }
            return requested.contains(read) ? nil : PreviewFileCheck(read: read, known: nil)
        }
        guard !checks.isEmpty else { return nil }
        for check in checks where check.known == nil { requested.insert(check.read) }
        return .readPreviewFiles(checks)
    }

    /// What the last build used whose answer is an error, in order.
    var failed: [PreviewFileRead] {
        used.filter { read in
            switch entries[read]?.answer {
            case .length(.failure)?, .value(.failure)?, .identity(.failure)?: true
            default: false
            }
        }
    }

    /// The effect that has the runner read every file that failed again, whatever its stamp
    /// says (so it always answers); nil when none failed or all are asked for already.
    mutating func readFailuresAgain() -> Effect? {
        let again = failed.filter { !requested.contains($0) }
        guard !again.isEmpty else { return nil }
        requested.formUnion(again)
        return .readPreviewFiles(again.map { PreviewFileCheck(read: $0, known: nil) })
    }

    /// The lookup a build reads through.
    func lookup() -> PreviewFileLookup {
        PreviewFileLookup(entries: entries)
    }
}

/// The files as the preview has read them, handed to ``RequestDraft/build(settings:boundary:files:)``:
/// an answer read before is given again (its error thrown again); a file not read yet gets a
/// stand-in (a length of 0, an empty value) so the rest of the request still builds, and is
/// noted as missing; a client certificate not read yet stops the resolution (there is no
/// stand-in for one), the preview then saying it is reading it.
final class PreviewFileLookup: RequestFileReader {
    private let entries: [PreviewFileRead: PreviewFileEntry]
    private(set) var used: [PreviewFileRead] = []
    private(set) var missing: [PreviewFileRead] = []

    init(entries: [PreviewFileRead: PreviewFileEntry]) {
        self.entries = entries
    }

    /// Whether the request built holds stand-ins for values, which the send cannot correct
    /// (lengths it can: the runner takes them again as the request leaves).
    var lacksValues: Bool {
        missing.contains { if case .length = $0 { false } else { true } }
    }

    func parameterValue(fromFile path: String, isJSON: Bool, key: String, workingDirectory: String) throws -> ParameterValue {
        let read = PreviewFileRead.value(key: key, path: path, isJSON: isJSON, workingDirectory: workingDirectory)
        note(read)
        guard case .value(let result)? = entries[read]?.answer else { return isJSON ? .null : .string("") }
        return try result.get()
    }

    func sendableFileLength(atPath path: String) throws -> Int64 {
        let read = PreviewFileRead.length(path: path)
        note(read)
        guard case .length(let result)? = entries[read]?.answer else { return 0 }
        return try result.get()
    }

    func clientIdentity(certificate: String, key: String?) throws(ClientIdentityError) -> ClientIdentity {
        let read = PreviewFileRead.identity(certificate: certificate, key: key)
        note(read)
        guard case .identity(let result)? = entries[read]?.answer else {
            // Never shown: with a file missing, the preview says it is reading it.
            throw ClientIdentityError(.certificate, path: certificate, .unreadable("not read yet"))
        }
        return try result.get()
    }

    private func note(_ read: PreviewFileRead) {
        if !used.contains(read) { used.append(read) }
        if entries[read] == nil, !missing.contains(read) { missing.append(read) }
    }
}
