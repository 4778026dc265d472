/// The idle timeout's rule: a request fails when no byte has moved for the timeout, where a
/// slow-motion stop is not idleness (its clock starts again when the stop is let through).
enum IdleTimeout {
    /// When to look again, or nil when the request has been idle for the whole timeout now.
    /// - Parameters:
    ///   - now: The time now.
    ///   - lastActivity: When a byte last moved.
    ///   - paused: Whether a slow-motion stop holds the request now.
    ///   - resumedAt: When the last stop was let through, if one was.
    static func nextCheck(now: Duration, lastActivity: Duration, timeout: Duration, paused: Bool, resumedAt: Duration?) -> Duration? {
        if paused { return now + timeout }
        let until = max(lastActivity, resumedAt ?? lastActivity) + timeout
        return until > now ? until : nil
    }
}
