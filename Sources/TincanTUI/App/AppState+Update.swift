import TerminalUI
import TincanCore
import TincanSessions

/// The one entry point of change: each message goes to the concept that handles it (keys and
/// the mouse in `AppState+Input` and `AppState+Mouse`, task events in `AppState+TaskEvents`).
extension AppState {
    /// Applies a message: the only way the state changes.
    ///
    /// - Returns: The effects to run (sending, the editor, suspending, quitting).
    public mutating func update(_ message: Message) -> [Effect] {
        var effects: [Effect] = []
        // Only input and the editor change the request; core events and ticks (many a second
        // while a body streams) leave the preview as it is.
        var requestMayChange = false
        switch message {
        case let .input(event):
            effects = handle(event)
            requestMayChange = true
        case let .task(id, event, time):
            now = max(now, time)
            guard exchange?.id == id else { break }
            effects = apply(event, at: time)
            slowMotionNote(event, exchange: id, at: time)
        case let .stageWaiting(id, stage, time):
            now = max(now, time)
            slowMotionStopped(id, before: stage)
        case let .streamed(id, delivery, time):
            now = max(now, time)
            guard exchange?.id == id else { break }
            // The newest event is followed while the selection is on the last row.
            let rows = exchange?.streamBody.rowCount ?? 0
            let following = bodyDocument.map { _ in bodyList.selected >= rows - 1 } ?? true
            exchange?.fold(delivery, at: time)
            if following, responseView == .pretty, let count = exchange?.streamBody.rowCount, count > 0 {
                bodyList.select(count - 1, count: count)
            }
        case let .webSocketFrame(id, frame, time):
            now = max(now, time)
            guard exchange?.id == id else { break }
            let rows = exchange?.streamBody.rowCount ?? 0
            let following = bodyDocument.map { _ in bodyList.selected >= rows - 1 } ?? true
            if exchange?.stream == nil { status = StatusMessage("WebSocket open: ctrl+r sends a message, ctrl+g closes it.") }
            exchange?.fold(frame, at: time)
            if following, responseView == .pretty, let count = exchange?.streamBody.rowCount, count > 0 {
                bodyList.select(count - 1, count: count)
            }
        case let .sendFailed(id, reason, time):
            now = max(now, time)
            guard exchange?.id == id else { break }
            exchange?.phase = .finished
            status = StatusMessage("Not sent: \(reason)", .error)
            if isRebuildingLesson { effects = continueLessonRebuild() }
        case let .oauth2Prompt(id, text):
            guard exchange?.id == id else { break }
            status = StatusMessage(text)
        case let .tick(time):
            now = max(now, time)
            effects = sendPendingIfDue()
            if lesson?.rebuild != nil { effects += continueLessonRebuild() }
        case let .editorFinished(text):
            requestMayChange = true
            if requestTab != .body { loadBodyEditor() }
            body.text = text
            bodyIsDirty = true
            requestTab = .body
            focus = .body
            applyBody()
        case let .editorFailed(reason):
            status = StatusMessage("$EDITOR did not run: \(reason)", .error)
        case let .storesListed(listing):
            showStores(listing)
        case let .viewerFinished(command):
            status = StatusMessage("Back from \(command).")
        case let .viewerFailed(reason):
            status = StatusMessage("The body was not shown: \(reason)", .error)
        case let .historyFailed(reason):
            recordsHistory = false
            status = StatusMessage("History is off for this run: \(reason)", .warning)
        case let .trustNotRemembered(reason):
            status = StatusMessage("The answer is not remembered: \(reason)", .warning)
        case let .lessonProgressFailed(reason):
            lesson?.context.progressProblem = reason
            status = StatusMessage("Progress is not saved this time: \(reason)", .warning)
        case let .lessonReportFailed(reason):
            status = StatusMessage("Progress not sent to the classroom: \(reason)", .warning)
        case let .cookieFileFailed(reason):
            status = StatusMessage("Cookies: \(reason)", .warning)
        case let .draftFailed(reason):
            status = StatusMessage(reason, .warning)
        case let .themeNotSaved(reason):
            status = StatusMessage("Theme: \(theme.name), for this run only: \(reason)", .warning)
        case .quit:
            shouldQuit = true
        case let .receivedFetched(id, outcome):
            receivedFetched(id, outcome)
            effects += lessonReceivedFetched(id, outcome)
        // File work, answered by the runner: each goes back to what asked for it, as input would.
        case let .sessionSaved(path, outcome):
            requestMayChange = true
            effects = sessionSaved(outcome, at: path)
        case let .sessionOpened(path, outcome, discardingChanges, asker):
            requestMayChange = true
            sessionOpened(outcome, at: path, discardingChanges: discardingChanges, asker: asker)
        case let .bodySaved(path, outcome, asker):
            bodySaved(outcome, at: path, asker: asker)
        case let .fileValuesRead(line, outcome):
            requestMayChange = true
            effects = fileValuesRead(outcome, line: line)
        case let .curlImported(outcome):
            requestMayChange = true
            curlImported(outcome)
        case let .cookieFileChecked(value, failure, asker):
            requestMayChange = true
            cookieFileChecked(value, failure: failure, asker: asker)
        case let .previewFilesRead(answers):
            previewFiles.take(answers)
            refreshPreview()
            effects += refreshLessonGoals()
            if previewFiles.sendWaits {
                previewFiles.sendWaits = false
                effects += send()
            }
        }
        if requestMayChange {
            refreshPreview()
            effects += refreshLessonGoals()
        }
        // Each change has the runner look at the files the request names (read only when changed);
        // an answer's own rebuild asks only for files it made the request name.
        var afterAnswer = false
        if case .previewFilesRead = message { afterAnswer = true }
        if let check = previewFiles.checkEffect(afterAnswer: afterAnswer) { effects.append(check) }
        effects += queuedEffects
        queuedEffects = []
        return effects + fetchReceivedIfNeeded()
    }
}
