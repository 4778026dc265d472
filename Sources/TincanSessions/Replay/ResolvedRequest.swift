import Foundation
import OrderedCollections
import TincanCore

/// A saved request with its variables expanded and the session's defaults applied: everything
/// needed to build and send it.
public struct ResolvedRequest: Sendable {
    /// The draft the request is built from, exactly as `tincan send` builds its own.
    public var draft: RequestDraft
    /// The response contract (defaults with the request's own laid over them).
    public var contract: ResponseContract
    /// Credentials for a Digest challenge.
    public var digest: Credential?
    /// Where to stream the body, when the request is a download.
    public var download: String?
    /// The file to stream as the body, when the request is an upload.
    public var upload: String?
    /// The upload rate limit in bytes per second.
    public var uploadRate: Int?
    /// The session's security settings, their file paths resolved.
    public var security = SecuritySettings()
}
