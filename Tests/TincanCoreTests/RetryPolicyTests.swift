import Foundation
import Testing
@testable import TincanCore

/// The policy's decisions, one behaviour each, with a fixed jitter and clock.
@Suite("Retry policy")
struct RetryPolicyTests {
    static let url = URLReference(parsing: "http://127.0.0.1:8080/items")

    static func attempt(_ method: String = "GET", status: Int? = nil, headers: HTTPHeaders = [:], error: TransportError.Reason? = nil, body: RequestBody = .none) -> RequestAttempt {
        var request = HTTPRequest(method: method, url: url)
        request.body = body
        return RequestAttempt(request: request, response: status.map { HTTPResponse(url: url, statusCode: $0, headers: headers) }, error: error.map(TransportError.init))
    }

    /// A policy whose jitter is `random` (0 gives the lower bound, just under 1 the upper).
    static func policy(limit: Int = 3, delay: Double = 1, maximumDelay: Double = 30, random: Double = 1) -> RetryPolicy {
        RetryPolicy(limit: limit, delay: delay, maximumDelay: maximumDelay, random: { random }, now: { Date(timeIntervalSince1970: 1_000_000) })
    }

    @Test("the idempotent methods are retried on a 503; POST and PATCH are not, and the note says why")
    func methods() {
        for method in ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"] {
            var policy = Self.policy()
            guard case .retry(.transient(.status(503, nil), attempt: 1, _), _) = policy.retry(Self.attempt(method, status: 503)) else {
                Issue.record("\(method) was not retried")
                continue
            }
        }
        for method in ["POST", "PATCH"] {
            var policy = Self.policy()
            guard case .doNotRetryBecause(let note) = policy.retry(Self.attempt(method, status: 503)) else {
                Issue.record("\(method) was retried")
                continue
            }
            #expect(note.contains("\(method) is not one of the retried methods"))
        }
        var listed = RetryPolicy(limit: 1, methods: ["post"], random: { 0 })
        #expect(listed.retry(Self.attempt("POST", status: 503)) != .doNotRetry, "a method the policy lists is retried, whatever its case")
    }

    @Test("the default statuses are retried and the others are not")
    func statuses() {
        for status in [408, 429, 500, 502, 503, 504] {
            var policy = Self.policy()
            #expect(policy.retry(Self.attempt(status: status)) != .doNotRetry, "\(status)")
        }
        for status in [200, 201, 301, 400, 401, 404, 501] {
            var policy = Self.policy()
            #expect(policy.retry(Self.attempt(status: status)) == .doNotRetry, "\(status)")
        }
        var custom = RetryPolicy(limit: 1, statuses: [418], random: { 0 })
        #expect(custom.retry(Self.attempt(status: 503)) == .doNotRetry)
        #expect(custom.retry(Self.attempt(status: 418)) != .doNotRetry)
    }

    @Test("a refused, reset or timed-out connection is retried; a TLS failure, a cancel and the deadline are not")
    func errors() {
        let retried: [(TransportError.Reason, RetryCause)] = [
            (.cannotConnect("127.0.0.1:9: Connection refused"), .connectionRefused("127.0.0.1:9: Connection refused")),
            (.connectionClosed("reset by peer"), .connectionReset("reset by peer")),
            (.timedOut(.idle, seconds: 1), .timedOut(.idle)),
            (.timedOut(.connect, seconds: nil), .timedOut(.connect)),
        ]
        for (reason, cause) in retried {
            var policy = Self.policy()
            guard case .retry(.transient(let seen, attempt: 1, _), _) = policy.retry(Self.attempt(error: reason)) else {
                Issue.record("\(reason) was not retried")
                continue
            }
            #expect(seen == cause)
        }
        for reason: TransportError.Reason in [.tls("expired"), .cancelled, .timedOut(.deadline, seconds: 1), .invalidRequest("x")] {
            var policy = Self.policy()
            #expect(policy.retry(Self.attempt(error: reason)) == .doNotRetry, "\(reason)")
        }
        var onlyTimeouts = RetryPolicy(limit: 1, errors: [.timedOut], random: { 0 })
        #expect(onlyTimeouts.retry(Self.attempt(error: .cannotConnect("refused"))) == .doNotRetry)
    }

    @Test("the backoff doubles from the delay and stops at the maximum")
    func backoffGrowsAndIsCapped() {
        let policy = Self.policy(delay: 0.5, maximumDelay: 3)
        #expect((1...5).map(policy.backoff(before:)) == [0.5, 1, 2, 3, 3])
        // A hundred doublings is a huge Double, capped like any other, never a trap.
        #expect(policy.backoff(before: 100) == 3)
    }

    @Test("jitter keeps each wait within the upper half of its backoff")
    func jitterBounds() {
        let low = Self.policy(delay: 2, random: 0)
        let high = Self.policy(delay: 2, random: 0.999_999)
        let middle = Self.policy(delay: 2, random: 0.5)
        for retry in 1...4 {
            let backoff = low.backoff(before: retry)
            #expect(low.wait(before: retry) == backoff / 2)
            #expect(middle.wait(before: retry) == backoff * 0.75)
            #expect(high.wait(before: retry) <= backoff)
            #expect(high.wait(before: retry) > backoff * 0.999)
        }
        // Whatever the generator gives, the wait stays inside the bounds.
        let wild = Self.policy(delay: 2, random: 7)
        #expect(wild.wait(before: 1) == 2)
    }

    @Test("the decision carries the jittered wait, and each retry counts")
    func decisionsCarryTheWait() {
        var policy = Self.policy(delay: 1, random: 0)
        var waits: [Double] = []
        for _ in 0..<3 {
            guard case .retry(.transient(_, let attempt, let delay), let after) = policy.retry(Self.attempt(status: 503)) else { return #expect(Bool(false)) }
            #expect(after == delay)
            #expect(attempt == waits.count + 1)
            waits.append(after)
        }
        #expect(waits == [0.5, 1, 2])
    }

    @Test("Retry-After in seconds replaces the backoff and is capped at the maximum delay")
    func retryAfterSeconds() {
        var policy = Self.policy(delay: 1, maximumDelay: 10, random: 0)
        #expect(policy.retry(Self.attempt(status: 429, headers: ["Retry-After": "4"])) == .retry(.transient(.status(429, retryAfter: 4), attempt: 1, delay: 4), after: 4))
        var stalled = Self.policy(maximumDelay: 10)
        #expect(stalled.retry(Self.attempt(status: 503, headers: ["Retry-After": "86400"])) == .retry(.transient(.status(503, retryAfter: 86_400), attempt: 1, delay: 10), after: 10))
        // A number past any clock stays finite, for reports.
        #expect(RetryPolicy.retryAfter(String(repeating: "9", count: 400), now: Date()) == 1e9)
    }

    @Test("Retry-After as an HTTP date waits until then; a date past is no wait, and nonsense is ignored")
    func retryAfterDate() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let later = HTTPDate.format(now.addingTimeInterval(7))
        #expect(RetryPolicy.retryAfter(later, now: now) == 7)
        #expect(RetryPolicy.retryAfter(HTTPDate.format(now.addingTimeInterval(-60)), now: now) == 0)
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfter("-5", now: now) == nil)
        #expect(RetryPolicy.retryAfter(nil, now: now) == nil)
        var policy = Self.policy(random: 0)
        #expect(policy.retry(Self.attempt(status: 503, headers: ["Retry-After": later])) == .retry(.transient(.status(503, retryAfter: 7), attempt: 1, delay: 7), after: 7))
    }

    @Test("the limit stops the retries, and the note says so")
    func limit() {
        var policy = Self.policy(limit: 2)
        #expect(policy.retry(Self.attempt(status: 503)) != .doNotRetry)
        #expect(policy.retry(Self.attempt(status: 503)) != .doNotRetry)
        #expect(policy.retry(Self.attempt(status: 503)) == .doNotRetryBecause("status 503: gave up after 2 retries"))
        var never = Self.policy(limit: 0)
        #expect(never.retry(Self.attempt(status: 503)) == .doNotRetry)
    }

    @Test("a multipart body with a stream part is not sent again; bytes and files are")
    func replayableBodies() throws {
        var form = MultipartFormData(boundary: "b")
        form.append(stream: { InputStream(data: Data("x".utf8)) }, length: 1, name: "f", fileName: "f.txt", mimeType: "text/plain")
        #expect(!RequestBody.multipart(form).isReplayable)
        #expect(RequestBody.bytes([1, 2]).isReplayable)
        #expect(RequestBody.file(path: "/etc/hostname", length: 1).isReplayable)
        var policy = Self.policy()
        guard case .doNotRetryBecause(let note) = policy.retry(Self.attempt("PUT", status: 503, body: .multipart(form))) else {
            return #expect(Bool(false), "a stream body was retried")
        }
        #expect(note.contains("cannot be read twice"))
    }

    @Test("the Explain view's Connection step says how the task's policy retries, and nothing without one")
    func explained() {
        var options = TaskOptions()
        let url = Self.url
        #expect(!Explanation.connection(to: url, options: options).lines.contains { $0.text.contains("retr") })
        options.retryPolicy = RetryPolicy(limit: 2, delay: 0.25, maximumDelay: 10, methods: ["GET"], statuses: [503])
        let lines = Explanation.connection(to: url, options: options).lines.map(\.text)
        #expect(lines.contains("Up to 2 retries of GET: status 503, or a connection refused, reset or timed out; the first after 0.25 s, each next twice as long (at most 10 s, jittered); a Retry-After is honoured up to 10 s."), "\(lines)")
    }

    @Test("reasons read as the report shows them")
    func reasonWords() {
        #expect(RetryReason.transient(.status(503, retryAfter: nil), attempt: 1, delay: 0.5).description == "retry 1 after 0.5 s: status 503")
        #expect(RetryReason.transient(.connectionRefused("127.0.0.1:9"), attempt: 2, delay: 1.23456).description == "retry 2 after 1.235 s: cannot connect (127.0.0.1:9)")
        #expect(RetryReason.authentication(scheme: "Digest", realm: "r").description == "retried with Digest authentication")
        let value = RetryReason.transient(.status(429, retryAfter: 2), attempt: 1, delay: 2).reportValue
        #expect(value.dictionaryValue?["kind"] == "status")
        #expect(value.dictionaryValue?["status"] == .integer(429))
        #expect(value.dictionaryValue?["delaySeconds"] == .double(2))
    }
}
