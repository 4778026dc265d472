import Synchronization

/// One request of a task, ready to send, with what its response head is judged by.
struct HopPlan: Sendable {
    /// The request as it goes out: adapted, with cookies, validators and range.
    let request: HTTPRequest
    let cookies: CookieHandler
    let redirects: RedirectHandler
    /// How many redirects the task has followed.
    let followed: Int
    /// How many times the task has been retried.
    let retryCount: Int
    /// Whether the request revalidates a cached response: a 304 refreshes it.
    let revalidating: Bool
    /// The first byte a resumed download asked for, or 0.
    let resumeOffset: Int64
    /// Whether a 401 renews the OAuth 2.0 token and sends the request again.
    let refreshesOn401: Bool
    /// When the task started, on its timing.
    let start: Duration
}

/// What sending one request came to.
struct SentHop: Sendable {
    /// The response, or nil when the hop failed.
    var response: HTTPResponse?
    var error: TransportError?
    /// What its response head decided, and its times.
    var hop: TaskRunner.Hop
}

extension TaskRunner {
    /// Sends one request through the transport. As its head arrives: cookies stored, then one
    /// decision (follow a redirect, refresh the cache, retry, or keep the response), which also
    /// says where the body goes (``decide(_:method:redirects:validating:body:resumeOffset:retry:)``);
    /// body chunks go to `body`.
    /// - Parameter interceptors: Asked as the head arrives, and kept with what they learned.
    func sendHop(_ plan: HopPlan, _ interceptors: inout [any RequestInterceptor], body: ReceivedBody) async -> SentHop {
        task.emit(.requestSent(plan.request))
        let decision = Mutex(Hop())
        let chain = Mutex(interceptors)
        let (task, timing, options) = (self.task, self.timing, self.options)
        let url = plan.request.url
        let remaining: @Sendable () -> Double? = { options.deadline.map { $0 - (timing.now() - plan.start).inSeconds } }
        var sent = SentHop(hop: Hop())
        do {
            let route = try Self.route(to: url, options.proxy)
            let hopOptions = TransportOptions(idleTimeout: plan.request.properties.timeoutInterval, deadline: remaining(),
                                              uploadBytesPerSecond: options.uploadBytesPerSecond,
                                              decompression: options.decompression,
                                              connection: ConnectionOptions(proxy: route.server, forwardsToProxy: route.forwardsInAbsoluteForm,
                                                                           clientIdentity: options.clientIdentity,
                                                                           // `.http2` offers what `.automatic` offers: one client serves both.
                                                                           httpVersion: options.httpVersion == .http1_1 ? .http1_1 : .automatic,
                                                                           maximumHeaderBytes: options.maximumHeaderBytes),
                                              stageGate: options.stageGate, timing: transportTiming)
            try await options.stageGate?.wait(before: .connect)
            sent.response = try await transport.send(plan.request, options: hopOptions) { event in
                switch event {
                case .requestHeadSent:
                    decision.withLock { $0.connect = $0.connect ?? (timing.now() - plan.start) }
                case .uploadProgress(let progress):
                    task.emit(.uploadProgress(progress))
                case .requestSent:
                    break
                case .responseHead(let head):
                    plan.cookies.store(from: head, for: url)
                    let hop = try Self.decide(head, method: plan.request.method, redirects: plan.redirects.follows(head, after: plan.followed),
                                              validating: plan.revalidating, body: body, resumeOffset: plan.resumeOffset) {
                        if plan.refreshesOn401, head.statusCode == 401 { return .retry(.authentication(scheme: "Bearer", realm: nil), after: 0) }
                        let asked = chain.withLock { Self.ask(&$0, RequestAttempt(request: plan.request, response: head, retryCount: plan.retryCount)) }
                        return Self.fitting(asked, remaining: remaining())
                    }
                    decision.withLock { state in
                        let connect = state.connect
                        state = hop
                        state.connect = connect
                        state.firstByte = timing.now() - plan.start
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
                sent.error = TransportError(.cancelled)
            } else if case .timedOut(.deadline, _) = error.reason {
                // The transport saw what was left of the deadline; report the deadline the user set.
                sent.error = TransportError(.timedOut(.deadline, seconds: options.deadline))
            } else {
                sent.error = error
            }
        } catch {
            sent.error = TransportError(task.isCancelled ? .cancelled : .other("\(error)"))
        }
        sent.hop = decision.withLock { $0 }
        interceptors = chain.withLock { $0 }
        do {
            try body.closeFile()
        } catch let error as TransportError {
            sent.error = sent.error ?? error
        } catch {}
        return sent
    }
}
