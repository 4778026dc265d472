import TincanCore
import TincanSessions

/// The Props tab's retries row: the session's `retry-policy:` limit (its other keys are kept).
extension AppState {
    /// The row's value: the session's policy, which the row edits, and the selected request's
    /// own when it replaces it.
    var retriesText: String {
        let session = workspace.session
        let shared = session.defaults.retryPolicy.map { "\($0.limit), from \(ParameterValue.format($0.delay ?? RetryPolicy.defaultDelay)) s" } ?? "none"
        guard session.requests.indices.contains(workspace.selected), let own = session.requests[workspace.selected].retryPolicy else { return shared }
        return "\(shared); this request: \(own.limit)"
    }

    /// Sets the session's retry limit from the prompt: empty for no policy.
    ///
    /// - Returns: Why the answer was refused: not a number from 0 to 100.
    mutating func answerRetries(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            workspace.session.defaults.retryPolicy = nil
            return nil
        }
        let limit: Int
        do {
            limit = try NumericRange.retries.named("retries").integer(parsing: trimmed)
        } catch {
            return "\(error)"
        }
        var policy = workspace.session.defaults.retryPolicy ?? SavedRetryPolicy(limit: limit)
        policy.limit = limit
        workspace.session.defaults.retryPolicy = policy
        return nil
    }
}
