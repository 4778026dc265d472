import TerminalUI
import TincanCore
import TincanSessions

/// Events from a send's task: the current ``Exchange`` folds them in (``Exchange/fold(_:at:)``);
/// here is what a completed send changes around it: the status line, captures, history and the
/// response views.
extension AppState {
    /// Applies an event of the current exchange's task: the exchange folds it in, and a
    /// completed send resets the body views, sets the status line, keeps its captures and
    /// records it in the history.
    mutating func apply(_ event: TaskEvent, at time: Double) -> [Effect] {
        guard var current = exchange else { return [] }
        let evaluation = current.fold(event, at: time)
        exchange = current
        if case .bodyReceived = event {
            // The new body is shown from its top, as a completed one is.
            resetBodyViews(of: current)
            return []
        }
        guard case let .completed(result) = event else { return [] }
        if !current.keptEarlyLayout { resetBodyViews(of: current) }
        if current.introspection { return receivedSchema(result) }
        let failed: Bool
        if let evaluation {
            for (name, value) in evaluation.captures { workspace.captured[name] = value }
            status = Self.summary(result, checks: current.requestChecks + evaluation.checks, captures: evaluation.captures.map(\.name))
            failed = !evaluation.passed || !current.requestChecks.allSatisfy(\.passed)
        } else {
            status = Self.summary(result)
            failed = result.transportError != nil || result.serialization?.error != nil
        }
        if current.flow.flow.runs > 1, let text = status?.text { status?.text = "[\(current.flow.run)/\(current.flow.flow.runs)] " + text }
        var effects: [Effect] = []
        let entry = historyEntry(for: current, result: result, at: time)
        history.append(entry)
        if recordsHistory { effects.append(.recordHistory(entry)) }
        keepSnapshot(of: current, result: result)
        // Captured values change what later requests resolve to.
        refreshPreview()
        effects += judgeLessonSend(current, result: result)
        let flow = continueFlow(failed: failed)
        return effects + (flow.isEmpty && isRebuildingLesson ? continueLessonRebuild() : flow)
    }

    /// Puts the response's views at the top of the Pretty view of `exchange`'s new body, with the
    /// search's count taken again.
    private mutating func resetBodyViews(of exchange: Exchange) {
        response.showNewBody(exchange.prettyBody, streamRows: exchange.stream != nil ? exchange.streamBody.rowCount : nil)
    }

    /// The status line after a send whose saved request has assertions or captures.
    private static func summary(_ result: TaskResult, checks: [CheckResult], captures: [String]) -> StatusMessage {
        let status = result.response.map { "\(String($0.statusCode))" } ?? result.transportError.map { "Failed (\($0))" } ?? "no response"
        let time = DecimalText.fixed(result.metrics.total.inSeconds * 1000, decimals: 1) + " ms"
        let captured = captures.isEmpty ? "" : " · captured \(captures.joined(separator: ", "))"
        if let failed = checks.first(where: { !$0.passed }) {
            let count = checks.count { !$0.passed }
            return StatusMessage("\(status) in \(time): \(count) of \(checks.count) checks failed; \(failed.name): \(failed.failure ?? "")\(captured)", .error)
        }
        return StatusMessage("\(status) in \(time): \(checks.count) check\(checks.count == 1 ? "" : "s") passed\(captured)", .success)
    }

    private static func summary(_ result: TaskResult) -> StatusMessage {
        if let error = result.transportError, error.reason == .cancelled {
            return StatusMessage("Cancelled\(result.data.isEmpty ? "" : " after \(RequestPreview.byteCount(Int64(result.data.count))) of the body") (what arrived is below).", .warning)
        }
        if let error = result.transportError { return StatusMessage("Transport error: \(error)", .error) }
        guard let response = result.response else { return StatusMessage("No response.", .error) }
        let time = DecimalText.fixed(result.metrics.total.inSeconds * 1000, decimals: 1) + " ms"
        if let error = result.serialization?.error {
            return StatusMessage("\(response.statusCode) in \(time): \(error.chain.count == 1 ? "1 validation error" : "\(error.chain.count) validation errors (chained)")", .warning)
        }
        return StatusMessage("\(response.statusCode) \(HTTPResponse.reasonPhrase(forStatusCode: response.statusCode)) in \(time)", .success)
    }
}
