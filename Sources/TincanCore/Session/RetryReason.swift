import Foundation
import OrderedCollections

/// Why a request was sent again.
public enum RetryReason: Sendable, Hashable, CustomStringConvertible {
    /// A 401 challenge, answered with the session's credential in this scheme (`Basic`, `Digest`).
    case authentication(scheme: String, realm: String?)
    /// A status or an error that a ``RetryPolicy`` retries: retry number `attempt` (from 1),
    /// sent after waiting `delay` seconds.
    case transient(RetryCause, attempt: Int, delay: Double)

    /// The reason in words: `retry 1 after 0.5 s: status 503`.
    public var description: String {
        switch self {
        case .authentication(let scheme, _): "retried with \(scheme) authentication"
        case .transient(let cause, let attempt, let delay): "retry \(attempt) after \(Self.seconds(delay)): \(cause)"
        }
    }

    /// The reason as reports give it in JSON: `{"kind": "status", "status": 503, "attempt": 1,
    /// "delaySeconds": 0.5, "message": "retry 1 after 0.5 s: status 503"}`; an authentication
    /// retry has `"kind": "authentication"` and its `scheme`.
    public var reportValue: ParameterValue {
        var members: [(String, ParameterValue)] = []
        switch self {
        case .authentication(let scheme, let realm):
            members = [("kind", "authentication"), ("scheme", .string(scheme)), ("realm", realm.map(ParameterValue.string) ?? .null)]
        case .transient(let cause, let attempt, let delay):
            members = [("kind", .string(cause.kind))]
            if case .status(let code, let retryAfter) = cause {
                members.append(("status", .integer(Int64(code))))
                members.append(("retryAfterSeconds", retryAfter.map(ParameterValue.double) ?? .null))
            }
            members.append(("attempt", .integer(Int64(attempt))))
            members.append(("delaySeconds", .double(Self.toMilliseconds(delay))))
        }
        members.append(("message", .string(description)))
        return .dictionary(OrderedDictionary(uniqueKeysWithValues: members))
    }

    /// Seconds as a report shows a wait: `0 s`, `0.25 s`, `2 s`.
    static func seconds(_ value: Double) -> String {
        "\(ParameterValue.format(toMilliseconds(value))) s"
    }

    /// Seconds rounded to the millisecond, as reports give waits.
    static func toMilliseconds(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }
}

/// What a ``RetryPolicy`` retried.
public enum RetryCause: Sendable, Hashable, CustomStringConvertible {
    /// A response with this status; `retryAfter` is the wait its `Retry-After` asked for, in
    /// seconds, before any cap.
    case status(Int, retryAfter: Double?)
    /// The connection could not be made (refused, unreachable, a name that did not resolve).
    case connectionRefused(String)
    /// The connection closed or was reset before the response was complete.
    case connectionReset(String)
    /// A timeout fired: no byte for the idle timeout, or no connection in time.
    case timedOut(TransportError.Timeout)

    /// The kind of cause as one word, for machine-readable reports: `status`,
    /// `connectionRefused`, `connectionReset`, `timedOut`.
    public var kind: String {
        switch self {
        case .status: "status"
        case .connectionRefused: "connectionRefused"
        case .connectionReset: "connectionReset"
        case .timedOut: "timedOut"
        }
    }

    public var description: String {
        switch self {
        case .status(let code, nil): "status \(code)"
        case .status(let code, let retryAfter?): "status \(code), Retry-After \(RetryReason.seconds(retryAfter))"
        case .connectionRefused(let detail): "cannot connect (\(detail))"
        case .connectionReset(let detail): "connection reset (\(detail))"
        case .timedOut(let timeout): "\(timeout.rawValue) timeout"
        }
    }
}
