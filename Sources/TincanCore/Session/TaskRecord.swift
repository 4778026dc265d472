/// What a task has gathered so far, hop after hop: the makings of its ``TaskResult``.
struct TaskRecord {
    /// The request of the current hop, before adapters, cookies and validators.
    var request: HTTPRequest
    /// When the task started, on its ``Timing``.
    let start: Duration
    var redirects: [Redirect] = []
    var response: HTTPResponse?
    var data: [UInt8] = []
    var transportError: TransportError?
    var cacheOutcome: CacheOutcome?
    var retries: [RetryReason] = []
    var retryNote: String?
    var metrics = TaskMetrics()
    /// What the last response head decided.
    var hop = TaskRunner.Hop()

    init(request: HTTPRequest, start: Duration) {
        self.request = request
        self.start = start
    }

    /// What is left of `deadline` (seconds from the start), or nil for none.
    func remaining(_ deadline: Double?, _ timing: Timing) -> Double? {
        deadline.map { $0 - (timing.now() - start).inSeconds }
    }

    /// Takes in a hop that was sent: its response or error, its decision and its times.
    /// A hop that failed leaves the response as it was (a redirect's, which the report shows).
    mutating func absorb(_ sent: SentHop) {
        if let answer = sent.response { response = answer }
        transportError = sent.error
        hop = sent.hop
        metrics.requestCount += 1
        metrics.connect = metrics.connect ?? sent.hop.connect
        metrics.firstByte = metrics.firstByte ?? sent.hop.firstByte
    }

    /// The task's result, ending with `error` (or the last hop's).
    func result(error: TransportError?, timing: Timing, body: ReceivedBody, download: DownloadFile?) -> TaskResult {
        var metrics = metrics
        metrics.total = timing.now() - start
        var downloadResult: DownloadResult?
        if let download {
            let succeeded = response.map { (200..<300).contains($0.statusCode) } ?? false
            let whole = transportError == nil && error == nil && hop.disposition.isFinal && (hop.alreadyComplete || succeeded)
            downloadResult = DownloadResult(path: download.path, partialPath: download.partialPath, completed: whole,
                                            bytesWritten: body.target == .file ? body.written : 0, resumedFrom: hop.resumedFrom,
                                            restarted: hop.restarted, alreadyComplete: hop.alreadyComplete)
        }
        var result = TaskResult(request: request, response: response, data: data, redirects: redirects, transportError: error ?? transportError,
                                metrics: metrics, cache: cacheOutcome, download: downloadResult)
        result.retries = retries
        result.retryNote = retryNote
        result.stream = body.streamSummary
        return result
    }
}
