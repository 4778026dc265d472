import Foundation
import NIOCore
import Synchronization

/// Runs one task: the protocol work AsyncHTTPClient leaves to its user, hop by hop.
///
/// Each concern is its own part, as in Alamofire: the interceptors adapt each request and decide
/// retries (``RequestInterceptor``), ``CookieHandler`` adds and stores cookies, ``CacheHandler``
/// answers from the cache or revalidates, ``DownloadResume`` asks for the rest of a partial
/// file, ``RedirectHandler`` follows redirects, and ``sendHop(_:_:)`` sends one request and
/// decides, from its response head, what becomes of the body that follows (a redirect's, a
/// retried response's or a 304's is dropped; a download's goes to its file). ``runHops()`` is the
/// loop that composes them.
struct TaskRunner {
    let task: SessionTask
    let transport: any Transport
    let options: TaskOptions
    let cookieJar: CookieJar
    let cache: ResponseCache
    let tokens: OAuth2TokenStore
    /// The clock of retry waits, the deadline and the metrics.
    let timing: Timing
    /// The clock of the transport's idle timeout and upload pacing.
    let transportTiming: Timing

    /// What the response head decided, for the loop to act on once the body has arrived.
    enum Disposition: Sendable {
        case redirect
        /// An interceptor sends the request again after `delay` seconds.
        case retry(RetryReason, delay: Double)
        case notModified
        case final
    }

    struct Hop: Sendable {
        var disposition = Disposition.final
        /// Why an interceptor did not retry this response, when it says.
        var retryNote: String?
        var resumedFrom: Int64?
        var restarted = false
        var alreadyComplete = false
        var connect: Duration?
        var firstByte: Duration?
    }

    func run() async -> TaskResult {
        var result = await runHops()
        guard let response = result.response, result.isSerializable else { return result }
        if result.transportError == nil, result.data.count > TaskEvent.earlyBodyBytes { task.emit(.bodyReceived(result)) }
        if let gate = options.stageGate, result.transportError == nil {
            // Slow motion: validation and decoding each wait for their turn. The serializer does
            // both in one call, so the first pass only shows that validation is its own step.
            do {
                try await gate.wait(before: .validate)
                _ = options.responseSerializer.validate(response, data: result.data, request: result.request)
                try await gate.wait(before: .decode)
            } catch {
                result.transportError = error
                return result
            }
        }
        result.serialization = options.responseSerializer.serialize(response, data: result.data, request: result.request)
        return result
    }

    /// Runs the hops; the result's serialization is left to ``run()``.
    private func runHops() async -> TaskResult {
        let original = task.originalRequest
        var record = TaskRecord(request: original, start: timing.now())
        var interceptors = options.interceptorChain
        var bearer = BearerState(origin: original.url)
        let resume: DownloadResume?
        if case .download(let path, let resuming) = task.kind {
            resume = DownloadResume(DownloadFile(path: path), resuming: resuming)
        } else {
            resume = nil
        }
        let body = ReceivedBody(download: resume?.file, memoryLimit: options.maximumBodyBytes, stream: options.stream)
        let properties = original.properties
        let cookies = CookieHandler(jar: cookieJar, isEnabled: properties.httpShouldHandleCookies, date: timing.date)
        let cache = CacheHandler(cache: cache, policy: properties.cachePolicy, isEnabled: resume == nil, date: timing.date)
        let redirects = RedirectHandler(limit: options.redirects.limit)

        func finish(_ error: TransportError?) -> TaskResult {
            var result = record.result(error: error, timing: timing, body: body, download: resume?.file)
            result.tokenRequests = bearer.records
            return result
        }

        if let oauth2 = options.oauth2 {
            if let error = await bearer.obtain(oauth2, from: tokens, exchange: tokenExchange(deadline: record.remaining(options.deadline, timing))) { return finish(error) }
        }

        while true {
            // MARK: Before the request
            var outgoing = record.request
            for index in interceptors.indices { interceptors[index].adapt(&outgoing) }
            bearer.adapt(&outgoing)
            cookies.attach(to: &outgoing)
            var validating: ResponseCache.Entry?
            switch cache.lookup(&outgoing, original: record.request) {
            case .answer(let entry, let age):
                record.cacheOutcome = .hit(age: age)
                task.emit(.cache(.hit(age: age)))
                record.response = entry.response
                record.data = entry.data
                return finish(nil)
            case .revalidate(let entry):
                validating = entry
                record.cacheOutcome = .revalidating
                task.emit(.cache(.revalidating))
            case .notCached:
                return finish(TransportError(.notCached))
            case .load:
                break
            }
            resume?.adapt(&outgoing)

            // MARK: The request
            let plan = HopPlan(request: outgoing, cookies: cookies, redirects: redirects, followed: record.redirects.count,
                               retryCount: record.retries.count, revalidating: validating != nil, resumeOffset: resume?.offset ?? 0,
                               refreshesOn401: bearer.refreshesOn401(outgoing.url), start: record.start)
            let sent = await sendHop(plan, &interceptors, body: body)
            record.absorb(sent)
            if let error = record.transportError, !task.isCancelled, error.isRetryable {
                switch afterError(error, of: outgoing, &interceptors, record, body: body, resume: resume) {
                case .retry(let reason, let delay):
                    if let stop = await retrying(reason, after: delay, &record) { return finish(stop) }
                    continue
                case .doNotRetryBecause(let note):
                    record.retryNote = note
                case .doNotRetry:
                    break
                }
            }
            guard record.transportError == nil, let current = record.response else {
                // A body stopped at a limit is not kept: it is what the limit keeps out of memory.
                let stoppedAtALimit = if case .limitExceeded = record.transportError?.reason { true } else { false }
                record.data = (body.target == .memory || body.target == .stream) && !stoppedAtALimit ? body.data : []
                return finish(nil)
            }

            // MARK: After the response
            switch record.hop.disposition {
            case .redirect:
                guard let next = redirects.next(from: record.request, response: current, after: record.redirects.count) else {
                    record.data = []
                    return finish(nil)
                }
                record.redirects.append(next.hop)
                task.emit(.redirected(next.hop))
                record.request = next.request
                continue
            case .retry(let reason, let delay):
                if reason == .authentication(scheme: "Bearer", realm: nil), let oauth2 = options.oauth2 {
                    // The token was refused: refreshed (or obtained anew) once, and the request sent again.
                    let exchange = tokenExchange(deadline: record.remaining(options.deadline, timing))
                    if let error = await bearer.obtain(oauth2, from: tokens, exchange: exchange, rejecting: true) { return finish(error) }
                }
                if let stop = await retrying(reason, after: delay, &record) { return finish(stop) }
                continue
            case .notModified:
                guard let validating else { return finish(nil) }
                let refreshed = cache.refresh(validating, with: current, for: record.request)
                record.response = refreshed.response
                record.data = refreshed.data
                record.cacheOutcome = .notModified
                task.emit(.cache(.notModified))
                return finish(nil)
            case .final:
                return finish(keep(current, sent: outgoing, &record, &interceptors, body: body, cache: cache, resume: resume))
            }
        }
    }

    /// What the interceptors decide after a transport error; a download that has written bytes
    /// is not started again, since a new request from the first byte would overwrite them.
    private func afterError(_ error: TransportError, of sent: HTTPRequest, _ interceptors: inout [any RequestInterceptor], _ record: TaskRecord,
                            body: ReceivedBody, resume: DownloadResume?) -> RetryDecision {
        let asked = Self.fitting(Self.ask(&interceptors, RequestAttempt(request: sent, error: error, retryCount: record.retries.count)),
                                 remaining: record.remaining(options.deadline, timing))
        if case .retry(let reason, _) = asked, let resume, body.target == .file, body.written > 0 {
            return .doNotRetryBecause(Self.partialDownloadNote(reason, written: body.written, download: resume.file))
        }
        return asked
    }

    /// Keeps the final response: its body ended (a stream's last event), then moved into place
    /// (a download) or offered to the cache. Returns the error the task ends with, if any.
    private func keep(_ current: HTTPResponse, sent: HTTPRequest, _ record: inout TaskRecord, _ interceptors: inout [any RequestInterceptor],
                      body: ReceivedBody, cache: CacheHandler, resume: DownloadResume?) -> TransportError? {
        record.retryNote = record.hop.retryNote
        if body.target == .stream {
            do {
                try body.endStream()
            } catch {
                return error as? TransportError ?? TransportError(.other("\(error)"))
            }
        }
        record.data = body.target == .memory || body.target == .stream ? body.data : []
        if let resume, body.target == .file || record.hop.alreadyComplete {
            // Content-Length counts the bytes on the wire: compare it only with a body that was not decoded.
            let decoded = options.decompression != nil && ContentDecoder.decodes(current.headers["Content-Encoding"])
            do throws(TransportError) {
                try resume.complete(current, written: body.target == .file ? body.written : nil, decoded: decoded)
            } catch {
                if case .connectionClosed = error.reason,
                   case .retry(let reason, _) = Self.ask(&interceptors, RequestAttempt(request: sent, error: error, retryCount: record.retries.count)) {
                    record.retryNote = Self.partialDownloadNote(reason, written: body.written, download: resume.file)
                }
                return error
            }
        } else if body.target != .stream, cache.store(current, data: record.data, for: record.request) {
            record.cacheOutcome = .stored
            task.emit(.cache(.stored))
        }
        return nil
    }

    /// Records a retry and waits for it; returns why the task ends instead: it was cancelled
    /// (at once, even mid-wait), or the wait would now pass the deadline (the body thrown
    /// away before it may have taken what the decision at the head left).
    private func retrying(_ reason: RetryReason, after delay: Double, _ record: inout TaskRecord) async -> TransportError? {
        if delay > 0, let left = record.remaining(options.deadline, timing), delay >= left {
            return TransportError(.timedOut(.deadline, seconds: options.deadline))
        }
        record.retries.append(reason)
        record.retryNote = nil
        // The response retried is not the task's answer: a cancel during the wait reports none.
        record.response = nil
        record.data = []
        record.transportError = nil
        task.emit(.retried(reason))
        if delay > 0 {
            do {
                try await timing.sleep(.seconds(delay))
            } catch {
                return TransportError(.cancelled)
            }
        }
        return task.isCancelled || Task.isCancelled ? TransportError(.cancelled) : nil
    }

    /// Decides, from a response head, what becomes of the hop and where its body goes.
    ///
    /// - Parameters:
    ///   - redirects: Whether the response is a redirect the task follows.
    ///   - retry: Asks the interceptors, for a response that is neither a redirect
    ///     followed nor a 304 that refreshes the cache.
    static func decide(
        _ head: HTTPResponse,
        method: String,
        redirects: Bool,
        validating: Bool,
        body: ReceivedBody,
        resumeOffset: Int64,
        retry: () -> RetryDecision
    ) throws -> Hop {
        var hop = Hop()
        let status = head.statusCode
        if redirects {
            hop.disposition = .redirect
        } else if status == 304, validating {
            hop.disposition = .notModified
        } else {
            switch retry() {
            case .retry(let reason, let delay): hop.disposition = .retry(reason, delay: delay)
            case .doNotRetryBecause(let note): hop.retryNote = note
            case .doNotRetry: break
            }
        }
        guard case .final = hop.disposition else {
            try body.begin(.discard, expectedLength: nil)
            return hop
        }
        // HEAD, 204 and 304 responses have no body, whatever their Content-Length says.
        let hasBody = method != "HEAD" && ![204, 304].contains(status) && !(100..<200).contains(status)
        if hasBody, body.download == nil, let format = body.stream?.format(forMimeType: head.mimeType) {
            try body.beginStream(head, format: format)
            return hop
        }
        guard let download = body.download, hasBody else {
            try body.begin(.memory, expectedLength: hasBody ? head.expectedContentLength : nil)
            return hop
        }
        switch status {
        case 206 where resumeOffset > 0:
            guard let first = DownloadFile.contentRangeStart(head), first == resumeOffset else {
                let range = head.headers["Content-Range"] ?? "no Content-Range"
                throw TransportError(.badResponse("asked to resume at byte \(resumeOffset), the server sent \(range); \(download.partialPath) is left as it was"))
            }
            hop.resumedFrom = resumeOffset
            try body.begin(.file, expectedLength: nil, offset: resumeOffset)
        case 416 where resumeOffset > 0 && DownloadFile.contentRangeLength(head) == resumeOffset:
            // The partial file already holds every byte.
            hop.alreadyComplete = true
            try body.begin(.discard, expectedLength: nil)
        case 200..<300:
            hop.restarted = resumeOffset > 0
            try download.saveValidator(from: head)
            try body.begin(.file, expectedLength: nil, offset: 0)
        default:
            // An error's body is shown, never written over the partial file.
            try body.begin(.memory, expectedLength: head.expectedContentLength)
        }
        return hop
    }

    static func sameOrigin(_ lhs: URLReference, _ rhs: URLReference) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased() && lhs.effectivePort == rhs.effectivePort
    }
}

extension TaskRunner {
    /// Asks the retriers in order: the first that retries, or says why it does not, decides.
    static func ask(_ chain: inout [any RequestInterceptor], _ attempt: RequestAttempt) -> RetryDecision {
        for index in chain.indices {
            let decision = chain[index].retry(attempt)
            if decision != .doNotRetry { return decision }
        }
        return .doNotRetry
    }

    /// Why a retry of a download that stopped part way is not started: the bytes it has are
    /// kept for a resume, which a new request from the first byte would overwrite.
    static func partialDownloadNote(_ reason: RetryReason, written: Int64, download: DownloadFile) -> String {
        "\(reason) — not started: the download stopped after \(RequestPreview.byteCount(written)); \(download.keptNote)"
    }

    /// The decision, unless its wait would pass the deadline, which a retry wait never outlives:
    /// then the attempt stands, and the note says why.
    static func fitting(_ decision: RetryDecision, remaining: Double?) -> RetryDecision {
        guard case .retry(let reason, let delay) = decision, let remaining, delay >= remaining else { return decision }
        return .doNotRetryBecause("\(reason) — not started: the wait would pass the deadline (\(RetryReason.seconds(max(0, remaining))) left)")
    }
}

extension TransportError {
    /// Whether a retrier may be asked about this error: not a cancel, not the task's own
    /// deadline, not a limit that keeps the response out.
    var isRetryable: Bool {
        switch reason {
        case .cancelled, .timedOut(.deadline, _), .limitExceeded, .fileWrite, .notCached, .authorization: false
        default: true
        }
    }
}

extension TaskRunner.Disposition {
    var isFinal: Bool {
        if case .final = self { return true }
        return false
    }
}

extension CachePolicy {
    /// Whether requests under this policy look in the cache at all.
    var readsCache: Bool {
        switch self {
        case .useProtocolCachePolicy, .returnCacheDataElseLoad, .returnCacheDataDontLoad, .reloadRevalidatingCacheData: true
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData: false
        }
    }
}

extension TaskRunner {
    /// The route to `url`; a proxy variable that cannot be read fails the hop as a proxy error.
    static func route(to url: URLReference, _ settings: ProxySettings) throws(TransportError) -> ProxyRoute {
        do {
            return try settings.route(to: url)
        } catch {
            throw TransportError(.proxy("\(error)"))
        }
    }
}
