import Foundation
import NIOCore
import Synchronization

/// Runs one task: the protocol work AsyncHTTPClient leaves to its user, hop by hop.
///
/// Before each request: the interceptors' adapters (a challenge's answer), cookies from the
/// jar, the cache policy (answer from the cache, or ask the server to revalidate), a range for a
/// resumed download. After each response head: cookies stored, then one decision about the body
/// that follows (a redirect's, a retried response's or a 304's is dropped; a download's goes to
/// its file). After a transport error: the interceptors' retriers are asked too.
struct TaskRunner {
    let task: SessionTask
    let transport: any Transport
    let options: TaskOptions
    let cookieJar: CookieJar
    let cache: ResponseCache
    let tokens: OAuth2TokenStore
    /// The clock of retry waits, the deadline and the metrics.
    let timing: Timing

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
        guard let response = result.response else { return result }
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
        let timing = timing
        let start = timing.now()
        var metrics = TaskMetrics()
        var request = task.originalRequest
        var redirects: [Redirect] = []
        var response: HTTPResponse?
        var data: [UInt8] = []
        var transportError: TransportError?
        var cacheOutcome: CacheOutcome?
        var interceptors = options.interceptorChain
        var retries: [RetryReason] = []
        var retryNote: String?
        var bearer = BearerState(origin: request.url)

        let download: DownloadFile?
        var resumeOffset: Int64 = 0
        var resumeValidator: String?
        if case .download(let path, let resuming) = task.kind {
            let file = DownloadFile(path: path)
            download = file
            if resuming {
                resumeOffset = file.partialSize()
                resumeValidator = resumeOffset > 0 ? file.savedValidator() : nil
            }
        } else {
            download = nil
        }
        let body = ReceivedBody(download: download, memoryLimit: options.maximumBodyBytes, stream: options.stream)
        var hop = Hop()
        let policy = request.properties.cachePolicy
        let handlesCookies = request.properties.httpShouldHandleCookies

        func finish(_ error: TransportError?) -> TaskResult {
            metrics.total = timing.now() - start
            var downloadResult: DownloadResult?
            if let download {
                let whole = transportError == nil && error == nil && hop.disposition.isFinal && (hop.alreadyComplete || response.map { (200..<300).contains($0.statusCode) } ?? false)
                downloadResult = DownloadResult(path: download.path, partialPath: download.partialPath, completed: whole,
                                                bytesWritten: body.target == .file ? body.written : 0, resumedFrom: hop.resumedFrom,
                                                restarted: hop.restarted, alreadyComplete: hop.alreadyComplete)
            }
            var result = TaskResult(request: request, response: response, data: data, redirects: redirects, transportError: error ?? transportError,
                                    metrics: metrics, cache: cacheOutcome, download: downloadResult)
            result.retries = retries
            result.retryNote = retryNote
            result.stream = body.streamSummary
            result.tokenRequests = bearer.records
            return result
        }

        /// Records a retry and waits for it; returns why the task ends instead: it was cancelled
        /// (at once, even mid-wait), or the wait would now pass the deadline (the body thrown
        /// away before it may have taken what the decision at the head left).
        func retrying(_ reason: RetryReason, after delay: Double) async -> TransportError? {
            if delay > 0, let left = remaining(), delay >= left {
                return TransportError(.timedOut(.deadline, seconds: options.deadline))
            }
            retries.append(reason)
            retryNote = nil
            // The response retried is not the task's answer: a cancel during the wait reports none.
            response = nil
            data = []
            transportError = nil
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

        /// What is left of the deadline, in seconds, or nil for none.
        func remaining() -> Double? {
            options.deadline.map { $0 - (timing.now() - start).inSeconds }
        }

        if let oauth2 = options.oauth2 {
            if let error = await bearer.obtain(oauth2, from: tokens, exchange: tokenExchange(deadline: remaining())) { return finish(error) }
        }

        while true {
            // MARK: Before the request
            var outgoing = request
            for index in interceptors.indices { interceptors[index].adapt(&outgoing) }
            bearer.adapt(&outgoing)
            if handlesCookies, let cookies = cookieJar.headerValue(for: outgoing.url) {
                let own = outgoing.headers["Cookie"]
                outgoing.headers.set(name: "Cookie", value: own.map { "\($0); \(cookies)" } ?? cookies)
            }

            var validating: ResponseCache.Entry?
            let userConditional = ["If-None-Match", "If-Modified-Since", "Range", "If-Range"].contains { request.headers.contains(name: $0) }
            if download == nil, !userConditional, policy.readsCache, let entry = cache.entry(for: outgoing) {
                let now = Date()
                let usable = policy == .returnCacheDataElseLoad || policy == .returnCacheDataDontLoad
                    || (policy == .useProtocolCachePolicy && entry.isFresh(now: now) && !CacheControl(request.headers).has("no-cache"))
                if usable {
                    cacheOutcome = .hit(age: entry.age(now: now))
                    task.emit(.cache(cacheOutcome!))
                    response = entry.response
                    data = entry.data
                    return finish(nil)
                }
                if !entry.validators.isEmpty {
                    for (name, value) in entry.validators { outgoing.headers.set(name: name, value: value) }
                    validating = entry
                    cacheOutcome = .revalidating
                    task.emit(.cache(.revalidating))
                }
            }
            if policy == .returnCacheDataDontLoad {
                return finish(TransportError(.notCached))
            }
            if resumeOffset > 0 {
                outgoing.headers.set(name: "Range", value: "bytes=\(resumeOffset)-")
                if let resumeValidator { outgoing.headers.set(name: "If-Range", value: resumeValidator) }
            }

            // MARK: The request
            metrics.requestCount += 1
            task.emit(.requestSent(outgoing))
            let decision = Mutex(Hop())
            let chain = Mutex(interceptors)
            let canRedirect = redirects.count < options.redirects.limit
            let sent = outgoing
            let retryCount = retries.count
            let deadline = options.deadline
            let offset = resumeOffset
            let isValidating = validating != nil
            let sentURL = outgoing.url
            let method = outgoing.method
            let task = self.task
            let cookieJar = self.cookieJar
            let refreshesOn401 = bearer.refreshesOn401(sentURL)
            do {
                let left = remaining()
                let route = try Self.route(to: sentURL, options.proxy)
                let hopOptions = TransportOptions(idleTimeout: request.properties.timeoutInterval, deadline: left,
                                                  uploadBytesPerSecond: options.uploadBytesPerSecond,
                                                  decompression: options.decompression,
                                                  connection: ConnectionOptions(proxy: route.server, forwardsToProxy: route.forwardsInAbsoluteForm,
                                                                               clientIdentity: options.clientIdentity,
                                                                               // `.http2` offers what `.automatic` offers: one client serves both.
                                                                               httpVersion: options.httpVersion == .http1_1 ? .http1_1 : .automatic,
                                                                               maximumHeaderBytes: options.maximumHeaderBytes),
                                                  stageGate: options.stageGate)
                try await options.stageGate?.wait(before: .connect)
                response = try await transport.send(outgoing, options: hopOptions) { event in
                    switch event {
                    case .requestHeadSent:
                        decision.withLock { $0.connect = $0.connect ?? (timing.now() - start) }
                    case .uploadProgress(let progress):
                        task.emit(.uploadProgress(progress))
                    case .requestSent:
                        break
                    case .responseHead(let head):
                        if handlesCookies { cookieJar.store(from: head, for: sentURL) }
                        let hop = try Self.decide(head, method: method, canRedirect: canRedirect, validating: isValidating,
                                                  body: body, resumeOffset: offset) {
                            if refreshesOn401, head.statusCode == 401 { return .retry(.authentication(scheme: "Bearer", realm: nil), after: 0) }
                            let asked = chain.withLock { Self.ask(&$0, RequestAttempt(request: sent, response: head, retryCount: retryCount)) }
                            return Self.fitting(asked, remaining: deadline.map { $0 - (timing.now() - start).inSeconds })
                        }
                        decision.withLock { state in
                            let connect = state.connect
                            state = hop
                            state.connect = connect
                            state.firstByte = timing.now() - start
                        }
                        task.emit(.responseHead(head))
                    case .bodyChunk(let buffer, var progress):
                        let before = try body.receive(buffer)
                        progress.completed += before
                        progress.expected = progress.expected.map { $0 + before }
                        task.emit(.downloadProgress(progress))
                    }
                }
            } catch let error as TransportError {
                if task.isCancelled {
                    transportError = TransportError(.cancelled)
                } else if case .timedOut(.deadline, _) = error.reason {
                    // The transport saw what was left of the deadline; report the deadline the user set.
                    transportError = TransportError(.timedOut(.deadline, seconds: options.deadline))
                } else {
                    transportError = error
                }
            } catch {
                transportError = TransportError(task.isCancelled ? .cancelled : .other("\(error)"))
            }
            hop = decision.withLock { $0 }
            interceptors = chain.withLock { $0 }
            metrics.connect = metrics.connect ?? hop.connect
            metrics.firstByte = metrics.firstByte ?? hop.firstByte
            do {
                try body.closeFile()
            } catch let error as TransportError {
                transportError = transportError ?? error
            } catch {}
            if let error = transportError, !task.isCancelled, error.isRetryable {
                var asked = Self.fitting(Self.ask(&interceptors, RequestAttempt(request: outgoing, error: error, retryCount: retries.count)), remaining: remaining())
                if case .retry(let reason, _) = asked, let download, body.target == .file, body.written > 0 {
                    asked = .doNotRetryBecause(Self.partialDownloadNote(reason, written: body.written, download: download))
                }
                switch asked {
                case .retry(let reason, let delay):
                    if let stop = await retrying(reason, after: delay) { return finish(stop) }
                    continue
                case .doNotRetryBecause(let note):
                    retryNote = note
                case .doNotRetry:
                    break
                }
            }
            guard transportError == nil, let current = response else {
                // A body stopped at a limit is not kept: it is what the limit keeps out of memory.
                let stoppedAtALimit = if case .limitExceeded = transportError?.reason { true } else { false }
                data = (body.target == .memory || body.target == .stream) && !stoppedAtALimit ? body.data : []
                return finish(nil)
            }

            // MARK: After the response
            switch hop.disposition {
            case .redirect:
                guard let next = URLSessionManager.redirect(from: request, response: current, hops: redirects.count, limit: options.redirects.limit) else {
                    data = []
                    return finish(nil)
                }
                redirects.append(next.hop)
                task.emit(.redirected(next.hop))
                request = next.request
                continue
            case .retry(let reason, let delay):
                if reason == .authentication(scheme: "Bearer", realm: nil), let oauth2 = options.oauth2 {
                    // The token was refused: refreshed (or obtained anew) once, and the request sent again.
                    if let error = await bearer.obtain(oauth2, from: tokens, exchange: tokenExchange(deadline: remaining()), rejecting: true) {
                        return finish(error)
                    }
                }
                if let stop = await retrying(reason, after: delay) { return finish(stop) }
                continue
            case .notModified:
                guard let validating else { return finish(nil) }
                let refreshed = cache.refresh(validating, with: current, for: request)
                response = refreshed.response
                data = refreshed.data
                cacheOutcome = .notModified
                task.emit(.cache(.notModified))
                return finish(nil)
            case .final:
                retryNote = hop.retryNote
                if body.target == .stream {
                    do {
                        try body.endStream()
                    } catch {
                        return finish(error as? TransportError ?? TransportError(.other("\(error)")))
                    }
                }
                data = body.target == .memory || body.target == .stream ? body.data : []
                if let download, body.target == .file || hop.alreadyComplete {
                    do {
                        // Content-Length counts the bytes on the wire: compare it only with a body that was not decoded.
                        let decoded = options.decompression != nil && ContentDecoder.decodes(current.headers["Content-Encoding"])
                        if let expected = current.expectedContentLength, body.target == .file, !decoded, body.written != expected {
                            let error = TransportError(.connectionClosed("the download stopped after \(body.written) of \(expected) bytes; \(download.partialPath) is kept for --continue"))
                            if case .retry(let reason, _) = Self.ask(&interceptors, RequestAttempt(request: outgoing, error: error, retryCount: retries.count)) {
                                retryNote = Self.partialDownloadNote(reason, written: body.written, download: download)
                            }
                            return finish(error)
                        }
                        try download.complete()
                    } catch let error as TransportError {
                        return finish(error)
                    } catch {
                        return finish(TransportError(.other("\(error)")))
                    }
                } else if download == nil, body.target != .stream, policy != .reloadIgnoringLocalAndRemoteCacheData,
                          cache.store(current, data: data, for: request) {
                    cacheOutcome = .stored
                    task.emit(.cache(.stored))
                }
                return finish(nil)
            }
        }
    }

    /// Decides, from a response head, what becomes of the hop and where its body goes.
    ///
    /// - Parameter retry: Asks the interceptors, for a response that is neither a redirect
    ///   followed nor a 304 that refreshes the cache.
    static func decide(
        _ head: HTTPResponse,
        method: String,
        canRedirect: Bool,
        validating: Bool,
        body: ReceivedBody,
        resumeOffset: Int64,
        retry: () -> RetryDecision
    ) throws -> Hop {
        var hop = Hop()
        let status = head.statusCode
        if canRedirect, [301, 302, 303, 307, 308].contains(status), let location = head.headers["Location"], !location.isEmpty {
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
        "\(reason) — not started: the download stopped after \(RequestPreview.byteCount(written)); \(download.partialPath) is kept for --continue"
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
