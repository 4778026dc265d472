import TerminalUI
import TincanCore
import TincanSessions

/// Sending: the checks before a request leaves, the new ``Exchange``, and the effect that asks
/// the runner to send it.
extension AppState {
    /// - Parameter inSlowMotion: Whether the task stops before each stage (alt+p); a plain
    ///   send ends a slow-motion send that had not reached the core.
    mutating func send(inSlowMotion: Bool = false) -> [Effect] {
        // A WebSocket that is open: the send key asks for the next message (AppState+WebSocket).
        if let exchange, exchange.phase == .sending, exchange.stream?.format == .webSocket {
            askForWebSocketMessage()
            return []
        }
        guard let (request, prepared) = readyToSend() else { return [] }
        var plan = prepared
        plan.slowMotion = inSlowMotion
        if !inSlowMotion { slowMotion = nil }
        let id = nextExchangeID
        nextExchangeID += 1
        var exchange = Exchange(id: id, request: request, startedAt: now)
        let session = editedSession
        let saved = session.requests[workspace.selected]
        exchange.saved = saved
        exchange.requestIndex = workspace.selected
        exchange.base = session.base
        exchange.template = try? variablesInEffect()
        exchange.responseSerializer = plan.options.responseSerializer
        // The run's sends all send this request; `assert: request:` is checked on it once a run.
        exchange.flow.flow = saved.flow
        exchange.flow.request = request
        exchange.flow.plan = plan
        if let template = exchange.template { exchange.requestChecks = ResponseEvaluation.requestChecks(saved, request: request, template: template) }
        self.exchange = exchange
        responseScroll = ScrollState()
        let delay = saved.flow.delay ?? 0
        if plan.webSocket != nil {
            status = StatusMessage("Opening the WebSocket \(Redaction.url(WebSocketURL.webSocketForm(of: request.url).string))… (ctrl+g closes it)")
            return dispatch(after: delay)
        }
        status = StatusMessage(delay > 0
            ? "Waiting \(ParameterValue.format(delay)) s (delay:) before sending \(request.method) \(Redaction.url(request.url.string))\(exchange.flow.runLabel)… (ctrl+g cancels)"
            : "Sending \(request.method) \(Redaction.url(request.url.string))\(exchange.flow.runLabel)…")
        return dispatch(after: delay)
    }

    /// The send key. A request that cannot be built because a file it names could not be read
    /// has those files read again first (the user may have just put it right), and is sent once
    /// the runner answers (``PreviewFiles/sendWaits``); any other is sent now.
    mutating func sendReadingFailedFilesAgain() -> [Effect] {
        guard case .error = preview, !isRebuildingLesson else { return send() }
        if previewFiles.sendWaits { return [] }
        guard let again = previewFiles.readFailuresAgain() else { return send() }
        previewFiles.sendWaits = true
        status = StatusMessage("Reading \(previewFiles.failed.map(\.shownPath).joined(separator: ", ")) again before sending…")
        return [again]
    }

    /// The request to send now and its plan: nil, with the reason in the status line, while
    /// another is being sent or when the body's edits do not apply or it cannot be sent.
    mutating func readyToSend() -> (HTTPRequest, SendPlan)? {
        if let exchange, exchange.phase == .sending {
            status = StatusMessage("A request is already being sent; ctrl+g cancels it.", .warning)
            return nil
        }
        if bodyIsDirty {
            guard applyBody() else { return nil }
            refreshPreview()
        }
        return preparedSend()
    }

    /// The request in the preview and how it is sent: the panes' response settings over the
    /// resolved request's, one reading of both. Nil, with the reason in the status line, when it
    /// cannot be sent.
    mutating func preparedSend() -> (HTTPRequest, SendPlan)? {
        let request: HTTPRequest
        switch preview {
        case let .request(built, _):
            request = built
        case let .reading(_, built?):
            // Its files' lengths are stand-ins until read: the runner takes them as it sends.
            request = built
        case let .reading(paths, nil):
            status = StatusMessage("Cannot send yet: reading \(paths.joined(separator: ", "))…", .warning)
            return nil
        case let .error(reason):
            status = StatusMessage("Cannot send: \(reason)", .error)
            return nil
        }
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
            return nil
        }
        // Before anything is sent: the body would have nowhere to go.
        if let download = options.download {
            do {
                try DownloadDestination.check(download.path)
            } catch {
                status = StatusMessage("Cannot send: \(error)", .error)
                return nil
            }
        }
        // A file's weaker trust applies only when the user let it (AppState+Trust).
        var plan = SendPlan(options: options, security: securityInForce(sending.security))
        plan.webSocket = sending.webSocket
        return (request, plan)
    }
}
