import TincanCore
import TincanSessions

/// Folding a send's task events into its exchange: the timeline, the progress meters, and once
/// it completes, the result laid out for the response views, its validation and the saved
/// request's checks.
extension Exchange {
    /// Folds one event of the exchange's task into it.
    ///
    /// - Parameters:
    ///   - event: The event, in the order the task posted it.
    ///   - time: When it arrived, in seconds since the app started (the timeline's clock).
    /// - Returns: The saved request's assertions and captures evaluated on the response, when
    ///   this event completed the send with a response and the request has any; else nil. What
    ///   it captured is for the caller to keep, since captures outlive the exchange.
    @discardableResult
    public mutating func fold(_ event: TaskEvent, at time: Double) -> ResponseEvaluation? {
        switch event {
        case .resumed: milestones.append((time, "resumed"))
        case .requestSent: milestones.append((time, "request sent"))
        case let .uploadProgress(progress):
            if let note = Self.progressMilestone("upload", from: upload.progress, to: progress) { milestones.append((time, note)) }
            upload.record(progress, at: time)
        case let .responseHead(response): milestones.append((time, "response head: \(response.version) \(response.statusCode)"))
        case let .downloadProgress(progress):
            if let note = Self.progressMilestone("download", from: download.progress, to: progress) { milestones.append((time, note)) }
            download.record(progress, at: time)
        case let .redirected(redirect): milestones.append((time, "redirected (\(redirect.statusCode)) to \(redirect.to.string)"))
        case let .retried(reason): milestones.append((time, reason.description))
        case let .cache(outcome): milestones.append((time, "cache: \(outcome)"))
        case let .bodyReceived(result):
            milestones.append((time, "body received: \(RequestPreview.byteCount(Int64(result.data.count))); validating and decoding"))
            layOutEarly(result)
        case let .completed(result):
            if let note = result.retryNote { milestones.append((time, note)) }
            return complete(with: result, at: time)
        }
        return nil
    }

    /// Takes the result: the timeline's last note, the body documents, the validation and the
    /// checks; then drops a large body's decoded tree, which only the checks needed.
    private mutating func complete(with result: TaskResult, at time: Double) -> ResponseEvaluation? {
        self.result = result
        let outcome = result.transportError.map { "failed: \($0)" }
            ?? "completed: \(result.response.map { "\($0.statusCode)" } ?? "no response"), \(RequestPreview.byteCount(Int64(result.data.count)))"
            + (result.serialization?.error == nil ? "" : ", validation failed")
        milestones.append((time, outcome))
        // A cancelled send stays cancelled when its task's last event arrives.
        if phase == .sending { phase = .finished }
        let removesNulls = responseSerializer.map(NullRemoval.isOn(in:)) ?? false
        // The bytes laid out while they were decoded are the ones the views show now, unless
        // decoding made them something else than the JSON they were outlined as.
        let decodedJSON = if case .json? = result.serialization?.body { true } else { false }
        keptEarlyLayout = decodedJSON && prettyBody.outlinesJSON && decoding?.data.count == result.data.count
        if keptEarlyLayout {
            prettyBody.marksRemovedNulls(removesNulls)
        } else {
            prettyBody = BodyFormatter.pretty(result, removesNulls: removesNulls)
            rawBody = BodyFormatter.raw(BodyFormatter.displayBytes(result))
        }
        decoding = nil
        if let response = result.response, let responseSerializer, let serialization = result.serialization {
            validation = Explanation.validation(of: response, data: result.data, request: result.request, serializer: responseSerializer, serialization: serialization)
        }
        var evaluation: ResponseEvaluation?
        if let saved, let template, result.transportError == nil || saved.assertions.contains(where: \.isTransportErrorCheck),
           !saved.assertions.isEmpty || !saved.captures.isEmpty {
            let evaluated = ResponseEvaluation(saved, result: result, template: template)
            checks = evaluated.checks
            evaluation = evaluated
            keepVerdicts(of: saved, evaluated)
        }
        BodyFormatter.releaseDecodedTree(of: &self)
        return evaluation
    }

    /// Lays a large body out as soon as it has arrived, while the serializer decodes it: a
    /// JSON body is outlined from its bytes, as the Pretty view shows it once decoded.
    private mutating func layOutEarly(_ result: TaskResult) {
        decoding = result
        let bytes = BodyFormatter.displayBytes(result)
        rawBody = BodyFormatter.raw(bytes)
        // Outlined only when the serializer will decode it as JSON, so the view does not change
        // kind when the decoding ends.
        let json = result.response.map { BodyFormatter.decodesJSON($0, with: responseSerializer) } ?? false
        prettyBody = json ? JSONOutline(bytes).map { BodyDocument(.json($0)) } ?? rawBody : rawBody
    }

    /// Files each assertion's verdict under its line, and why captures found nothing.
    private mutating func keepVerdicts(of saved: SavedRequest, _ evaluation: ResponseEvaluation) {
        assertionVerdicts = [:]
        let verdicts = ResponseEvaluation.byAssertion(saved.assertions, requestChecks: requestChecks, response: evaluation.byAssertion)
        for (assertion, verdict) in zip(saved.assertions, verdicts) {
            if let verdict { assertionVerdicts[CheckLine.text(of: assertion)] = verdict }
        }
        captureFailures = evaluation.captureFailures
    }

    /// A timeline note when a transfer first moves or crosses a quarter of its size.
    static func progressMilestone(_ direction: String, from previous: TransferProgress?, to progress: TransferProgress) -> String? {
        let size = RequestPreview.shortSize(Double(progress.completed))
        guard let expected = progress.expected, expected > 0 else {
            return previous == nil && progress.completed > 0 ? "\(direction) started (length unknown)" : nil
        }
        func quarter(_ bytes: Int64) -> Int64 { min(4, bytes * 4 / expected) }
        let before = previous.map { quarter($0.completed) } ?? -1
        let now = quarter(progress.completed)
        guard now > before, now > 0 || before < 0 else { return nil }
        if now == 0 { return "\(direction) started: \(RequestPreview.shortSize(Double(expected))) expected" }
        return "\(direction) \(now * 25)% (\(size) of \(RequestPreview.shortSize(Double(expected))))"
    }
}
