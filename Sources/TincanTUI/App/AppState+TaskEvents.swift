import TerminalUI
import TincanCore
import TincanSessions

/// Events from a send's task, folded into the current ``Exchange``, and what a completed send
/// changes around it: the status line, captures, history and the response views.
extension AppState {
    /// Applies an event of the current exchange's task.
    mutating func apply(_ event: TaskEvent, at time: Double) -> [Effect] {
        guard var current = exchange else { return [] }
        var effects: [Effect] = []
        switch event {
        case .resumed: current.milestones.append((time, "resumed"))
        case .requestSent: current.milestones.append((time, "request sent"))
        case let .uploadProgress(progress):
            if let note = Self.progressMilestone("upload", from: current.upload.progress, to: progress) { current.milestones.append((time, note)) }
            current.upload.record(progress, at: time)
        case let .responseHead(response): current.milestones.append((time, "response head: \(response.version) \(response.statusCode)"))
        case let .downloadProgress(progress):
            if let note = Self.progressMilestone("download", from: current.download.progress, to: progress) { current.milestones.append((time, note)) }
            current.download.record(progress, at: time)
        case let .redirected(redirect): current.milestones.append((time, "redirected (\(redirect.statusCode)) to \(redirect.to.string)"))
        case let .retried(reason):
            if case let .authentication(scheme, _) = reason { current.milestones.append((time, "retried with \(scheme) authentication")) }
        case let .cache(outcome): current.milestones.append((time, "cache: \(outcome)"))
        case let .completed(result):
            current.result = result
            let outcome = result.transportError.map { "failed: \($0)" }
                ?? "completed: \(result.response.map { "\($0.statusCode)" } ?? "no response"), \(RequestPreview.byteCount(Int64(result.data.count)))"
                + (result.serialization?.error == nil ? "" : ", validation failed")
            current.milestones.append((time, outcome))
            if current.phase == .sending { current.phase = .finished }
            let removesNulls = current.responseSerializer.map(NullRemoval.isOn(in:)) ?? false
            current.prettyBody = BodyFormatter.pretty(result, removesNulls: removesNulls)
            current.rawBody = BodyFormatter.raw(BodyFormatter.displayBytes(result))
            bodyList = ListState()
            search.current = nil
            if let query = search.query { search.matchCount = current.prettyBody.matchCount(query) }
            if let response = result.response, let serializer = current.responseSerializer, let serialization = result.serialization {
                current.validation = Explanation.validation(of: response, data: result.data, request: result.request, serializer: serializer, serialization: serialization)
            }
            status = Self.summary(result)
            if let saved = current.saved, let template = current.template, result.transportError == nil,
               !saved.assertions.isEmpty || !saved.captures.isEmpty {
                let evaluation = ResponseEvaluation(saved, result: result, template: template)
                current.checks = evaluation.checks
                for (name, value) in evaluation.captures { workspace.captured[name] = value }
                status = Self.summary(result, checks: evaluation.checks, captures: evaluation.captures.map(\.name))
            }
            responseView = .pretty
            let entry = historyEntry(for: current, result: result)
            history.append(entry)
            if recordsHistory { effects.append(.recordHistory(entry)) }
            keepSnapshot(of: current, result: result)
            BodyFormatter.releaseDecodedTree(of: &current)
        }
        exchange = current
        // Captured values change what later requests resolve to.
        if case .completed = event { refreshPreview() }
        return effects
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

    /// The status line after a send whose saved request has assertions or captures.
    private static func summary(_ result: TaskResult, checks: [CheckResult], captures: [String]) -> StatusMessage {
        let status = result.response.map { "\($0.statusCode)" } ?? "no response"
        let time = String(format: "%.1f ms", result.metrics.total.inSeconds * 1000)
        let captured = captures.isEmpty ? "" : " · captured \(captures.joined(separator: ", "))"
        if let failed = checks.first(where: { !$0.passed }) {
            let count = checks.count { !$0.passed }
            return StatusMessage("\(status) in \(time): \(count) of \(checks.count) checks failed; \(failed.name): \(failed.failure ?? "")\(captured)", .error)
        }
        return StatusMessage("\(status) in \(time): \(checks.count) check\(checks.count == 1 ? "" : "s") passed\(captured)", .success)
    }

    private static func summary(_ result: TaskResult) -> StatusMessage {
        if let error = result.transportError { return StatusMessage("Transport error: \(error)", .error) }
        guard let response = result.response else { return StatusMessage("No response.", .error) }
        let time = String(format: "%.1f ms", result.metrics.total.inSeconds * 1000)
        if let error = result.serialization?.error {
            return StatusMessage("\(response.statusCode) in \(time): \(error.chain.count == 1 ? "1 validation error" : "\(error.chain.count) validation errors (chained)")", .warning)
        }
        return StatusMessage("\(response.statusCode) \(HTTPResponse.reasonPhrase(forStatusCode: response.statusCode)) in \(time)", .success)
    }
}
