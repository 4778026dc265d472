/// What a draft reads from the file system while it builds: the value of a `name=@file` or
/// `name:=@file` item, and the length of a file it sends (a raw body, an upload, a multipart part);
/// and what a saved request reads as it is resolved, its client certificate and key.
///
/// ``RequestDraft/build(settings:boundary:files:)`` asks its reader rather than the disk, so a
/// front end that must not read files where it builds (the TUI's `update`, issue 35 §1) hands it
/// what it has already read, and the command line reads straight from disk
/// (``DiskFileReader``). The rules stay with their one owner: a reader answers as
/// ``RequestDraft/parameterValue(fromFile:isJSON:key:workingDirectory:standardInput:)`` and
/// ``RequestBody/sendableFileLength(atPath:)`` do, or with what they answered before.
public protocol RequestFileReader {
    /// The value of the item `key=@path` (text) or `key:=@path` (JSON); `path` is never `-`,
    /// which the draft reads from its standard input.
    ///
    /// - Throws: The error the one reading throws: ``RequestItemError`` or ``RequestSerializationError``.
    func parameterValue(fromFile path: String, isJSON: Bool, key: String, workingDirectory: String) throws -> ParameterValue

    /// The length of the regular, readable file at `path` (absolute), which the request streams.
    ///
    /// - Throws: ``RequestSerializationError`` naming the path, as ``RequestBody/sendableFileLength(atPath:)`` does.
    func sendableFileLength(atPath path: String) throws -> Int64

    /// The client certificate in `certificate` (absolute), with its key in `key` or in the same
    /// file, an encrypted key's passphrase from ``ClientIdentity/passphraseVariable``.
    ///
    /// - Throws: ``ClientIdentityError`` naming the file, as ``ClientIdentity/load(certificate:key:environment:)`` does.
    func clientIdentity(certificate: String, key: String?) throws(ClientIdentityError) -> ClientIdentity
}

/// Reads each file when the draft asks: the reader of `tincan send`, replay and exports.
public struct DiskFileReader: RequestFileReader {
    /// The environment an encrypted key's passphrase is read from.
    public var environment: [String: String]

    /// Creates the reader.
    public init(environment: [String: String] = ProcessEnvironment.values) {
        self.environment = environment
    }

    public func parameterValue(fromFile path: String, isJSON: Bool, key: String, workingDirectory: String) throws -> ParameterValue {
        try RequestDraft.parameterValue(fromFile: path, isJSON: isJSON, key: key, workingDirectory: workingDirectory)
    }

    public func sendableFileLength(atPath path: String) throws -> Int64 {
        try RequestBody.sendableFileLength(atPath: path)
    }

    public func clientIdentity(certificate: String, key: String?) throws(ClientIdentityError) -> ClientIdentity {
        try ClientIdentity.load(certificate: certificate, key: key, environment: environment)
    }
}
