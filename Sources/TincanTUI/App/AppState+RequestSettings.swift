import TerminalUI
import TincanCore
import TincanSessions

/// A Props row that edits the selected request's own setting through a prompt.
public enum RequestSettingRow: Sendable, Equatable {
    /// `response: accept-type:`.
    case acceptTypes
    /// `max-redirects:`.
    case maxRedirects
    /// `max-time:`: the whole exchange's deadline.
    case maxTime
    /// `retry:`: sends while the checks fail.
    case retry
    /// `retry-interval:`.
    case retryInterval
    /// `delay:`.
    case delay
    /// `repeat:`.
    case repeatCount
}

/// The Props tab's rows for the selected request's own settings: the accepted content types,
/// redirects, the HTTP version, the deadline and the flow keys (`retry:`, `retry-interval:`, `delay:`,
/// `repeat:`). Each is read with the session reader's range, so a value the file would refuse
/// is refused here with the same words.
extension AppState {
    /// Opens the prompt or picker for a request setting, or flips it.
    mutating func changeRequestSetting(_ row: PropertyRow) {
        let request = selectedRequest
        let flow = request.flow
        switch row {
        case .acceptTypes:
            promptRequestSetting(.acceptTypes, "Accepted content types", "Types, comma-separated (application/json, text/*); empty for the serializer's own",
                                 request.response.acceptTypes?.joined(separator: ", ") ?? "")
        case .followRedirects:
            let follows = !(flow.followRedirects ?? true)
            editSelectedRequest { request in
                request.flow.followRedirects = follows
                // A request that follows none takes no maximum (the reader refuses both).
                if !follows, (request.flow.maxRedirects ?? 0) > 0 { request.flow.maxRedirects = nil }
            }
            status = StatusMessage(follows ? "Redirects are followed (up to \(flow.maxRedirects ?? 10))." : "Redirects are not followed: a 3xx comes back as it is, to assert on.")
        case .maxRedirects:
            promptRequestSetting(.maxRedirects, "Most redirects followed", "0 to 1000; empty for 10", flow.maxRedirects.map(String.init) ?? "")
        case .httpVersion:
            mode = .modal(.picker(Picker(.httpVersion, title: "HTTP version (this request)", options: HTTPVersionPreference.allCases.map(\.rawValue),
                                         selected: (request.httpVersion ?? workspace.session.defaults.httpVersion ?? .automatic).rawValue)))
        case .maxTime:
            promptRequestSetting(.maxTime, "Deadline of the whole exchange", "500ms, 2s or seconds, 0.001 to 2147483 (max-time:); empty for none", request.maxTime.map(Assertion.durationText) ?? "")
        case .pollRetry:
            promptRequestSetting(.retry, "Retry while the checks fail", "Sends after the first, 0 to 10000 (retry:); empty for none", flow.retry.map(String.init) ?? "")
        case .retryInterval:
            promptRequestSetting(.retryInterval, "Retry interval", "500ms, 2s or seconds, 0 to 86400; empty for 1 s", flow.retryInterval.map(Assertion.durationText) ?? "")
        case .delay:
            promptRequestSetting(.delay, "Delay before sending", "500ms, 2s or seconds, 0 to 86400; empty for none", flow.delay.map(Assertion.durationText) ?? "")
        case .repeatCount:
            promptRequestSetting(.repeatCount, "Repeat", "Runs, 1 to 100000 (repeat:); empty for one", flow.repeatCount.map(String.init) ?? "")
        default:
            break
        }
    }

    private mutating func promptRequestSetting(_ row: RequestSettingRow, _ title: String, _ question: String, _ text: String) {
        mode = .modal(.prompt(Prompt(.requestSetting(row), title: title + " (this request)", question: question, text: text)))
    }

    /// Sets a request setting from its prompt; empty text removes it.
    ///
    /// - Returns: Why the answer was refused: the session reader's words for the value.
    mutating func answerRequestSetting(_ row: RequestSettingRow, _ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        do {
            switch row {
            case .acceptTypes:
                let types = trimmed.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
                editSelectedRequest { $0.response.acceptTypes = types.isEmpty ? nil : types }
            case .maxRedirects:
                let maximum = trimmed.isEmpty ? nil : try NumericRange.redirects.integer(parsing: trimmed)
                if let maximum, maximum > 0, selectedRequest.flow.followRedirects == false {
                    return "this request does not follow redirects (follow redirects: no), so it follows none; turn that on first"
                }
                editSelectedRequest { $0.flow.maxRedirects = maximum }
            case .maxTime:
                let deadline = trimmed.isEmpty ? nil : try NumericRange.maxTime.value(parsing: trimmed)
                editSelectedRequest { $0.maxTime = deadline }
            case .retry:
                let retry = trimmed.isEmpty ? nil : try NumericRange.pollingRetries.integer(parsing: trimmed)
                editSelectedRequest { $0.flow.retry = retry }
            case .retryInterval:
                let interval = trimmed.isEmpty ? nil : try NumericRange.pause.named("retry-interval").value(parsing: trimmed)
                editSelectedRequest { $0.flow.retryInterval = interval }
            case .delay:
                let delay = trimmed.isEmpty ? nil : try NumericRange.pause.value(parsing: trimmed)
                editSelectedRequest { $0.flow.delay = delay }
            case .repeatCount:
                let runs = trimmed.isEmpty ? nil : try NumericRange.repeats.integer(parsing: trimmed)
                editSelectedRequest { $0.flow.repeatCount = runs }
            }
        } catch {
            return "\(error)"
        }
        return nil
    }

    /// Sets the selected request's `http-version:` from the picker; the session's default
    /// (or auto) is written as no key.
    mutating func chooseHTTPVersion(_ option: String) {
        guard let version = HTTPVersionPreference(rawValue: option) else { return }
        let inherited = workspace.session.defaults.httpVersion ?? .automatic
        editSelectedRequest { $0.httpVersion = version == inherited ? nil : version }
    }

    /// Resets a request setting to what the session gives.
    mutating func resetRequestSetting(_ row: PropertyRow) {
        editSelectedRequest { request in
            switch row {
            case .acceptTypes: request.response.acceptTypes = nil
            case .followRedirects: request.flow.followRedirects = nil
            case .maxRedirects: request.flow.maxRedirects = nil
            case .httpVersion: request.httpVersion = nil
            case .maxTime: request.maxTime = nil
            case .pollRetry: request.flow.retry = nil
            case .retryInterval: request.flow.retryInterval = nil
            case .delay: request.flow.delay = nil
            case .repeatCount: request.flow.repeatCount = nil
            default: break
            }
        }
    }

    /// A request setting's value as the row shows it.
    func requestSettingText(_ row: PropertyRow) -> String {
        let request = selectedRequest
        let flow = request.flow
        switch row {
        case .acceptTypes:
            return workspace.session.defaults.response.merged(with: request.response).acceptTypes.map { $0.isEmpty ? "none" : $0.joined(separator: ", ") } ?? "the serializer's"
        case .followRedirects: return flow.followRedirects ?? true ? "yes" : "no"
        case .maxRedirects: return flow.followRedirects == false ? "0 (not followed)" : String(flow.maxRedirects ?? 10)
        case .httpVersion: return (request.httpVersion ?? workspace.session.defaults.httpVersion ?? .automatic).rawValue
        case .maxTime: return request.maxTime.map { ParameterValue.format($0) + " s" } ?? "none (the idle timeout only)"
        case .pollRetry: return flow.retry.map { "\($0), every \(ParameterValue.format(flow.pauseBeforeResend)) s" } ?? "no"
        case .retryInterval: return ParameterValue.format(flow.pauseBeforeResend) + " s"
        case .delay: return flow.delay.map { ParameterValue.format($0) + " s" } ?? "none"
        case .repeatCount: return flow.repeatCount.map { "\($0) runs" } ?? "once"
        default: return ""
        }
    }

    /// Whether the selected request sets it itself.
    func requestSettingIsChanged(_ row: PropertyRow) -> Bool {
        let request = selectedRequest
        switch row {
        case .acceptTypes: return request.response.acceptTypes != nil
        case .followRedirects: return request.flow.followRedirects != nil
        case .maxRedirects: return request.flow.maxRedirects != nil
        case .httpVersion: return request.httpVersion != nil
        case .pollRetry: return request.flow.retry != nil
        case .retryInterval: return request.flow.retryInterval != nil
        case .delay: return request.flow.delay != nil
        case .repeatCount: return request.flow.repeatCount != nil
        default: return false
        }
    }
}
