import TerminalUI
import TincanCore
import TincanSessions

/// Sending: the checks before a request leaves, the new ``Exchange``, and the effect that asks
/// the runner to send it.
extension AppState {
    mutating func send() -> [Effect] {
        if let exchange, exchange.phase == .sending {
            status = StatusMessage("A request is already being sent; ctrl+g cancels it.", .warning)
            return []
        }
        if bodyIsDirty {
            guard applyBody() else { return [] }
            refreshPreview()
        }
        guard case let .request(request, _) = preview else {
            if case let .error(reason) = preview { status = StatusMessage("Cannot send: \(reason)", .error) }
            return []
        }
        // The panes' response settings over the resolved request's: one reading of both.
        var sending = resolved ?? ResolvedRequest(draft: RequestDraft(method: request.method, url: request.url.string))
        sending.contract.serializer = responseSerializer
        sending.contract.acceptStatus = acceptableStatusCodes.description
        sending.contract.removesNulls = removesNulls
        sending.contract.maxBody = maxBody
        if let uploadBytesPerSecond { sending.options.uploadBytesPerSecond = uploadBytesPerSecond }
        let options: TaskOptions
        do {
            options = try sending.taskOptions()
        } catch {
            status = StatusMessage("Cannot send: the \(error)", .error)
            return []
        }
        // Before anything is sent: the body would have nowhere to go.
        if let download = options.download {
            do {
                try DownloadDestination.check(download.path)
            } catch {
                status = StatusMessage("Cannot send: \(error)", .error)
                return []
            }
        }
        let id = nextExchangeID
        nextExchangeID += 1
        var exchange = Exchange(id: id, request: request, startedAt: now)
        let session = editedSession
        exchange.saved = session.requests[workspace.selected]
        exchange.base = session.base
        exchange.template = try? workspace.template()
        exchange.responseSerializer = options.responseSerializer
        self.exchange = exchange
        responseScroll = ScrollState()
        status = StatusMessage("Sending \(request.method) \(Redaction.url(request.url.string))…")
        return [.send(exchange: id, request: request, plan: SendPlan(options: options, security: sending.security))]
    }
}
