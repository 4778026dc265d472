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
    /// The task's options the request itself gives: the credential for a Digest challenge, the
    /// upload file and rate, the download destination. The response serializer and the
    /// in-memory limit come from ``contract`` when it is sent: see ``taskOptions(maximumBodyBytes:)``.
    public var options = TaskOptions()
    /// The session's security settings, their file paths resolved.
    public var security = SecuritySettings()
    /// For a WebSocket request, its messages with their variables expanded; the draft is then
    /// its handshake, its URL in http form.
    public var webSocket: SavedWebSocket?

    /// A request resolved from `draft` and `contract`, with the options and security settings given.
    public init(draft: RequestDraft, contract: ResponseContract = ResponseContract(), options: TaskOptions = TaskOptions(), security: SecuritySettings = SecuritySettings()) {
        self.draft = draft
        self.contract = contract
        self.options = options
        self.security = security
    }

    /// The options to send the request with: ``options`` with the contract's response serializer,
    /// and its `max-body` when it names one, else `maximumBodyBytes` (what `--max-body` says).
    ///
    /// - Throws: ``ResponseContractError`` naming the setting at fault.
    public func taskOptions(maximumBodyBytes: Int64? = TaskOptions.defaultMaximumBodyBytes) throws(ResponseContractError) -> TaskOptions {
        var options = options
        do {
            options.responseSerializer = try contract.makeSerializer()
        } catch {
            throw ResponseContractError(setting: "accept-status", reason: "\(error)")
        }
        do {
            options.maximumBodyBytes = try contract.maxBody.map { try TaskOptions.maximumBodyBytes(parsing: $0) } ?? maximumBodyBytes
        } catch {
            throw ResponseContractError(setting: "max-body", reason: "\(error)")
        }
        return options
    }
}

/// A response setting of a request that cannot be used as written.
public struct ResponseContractError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The setting's key under `response:`.
    public var setting: String
    public var reason: String

    public var description: String { "response \(setting): \(reason)" }
}
