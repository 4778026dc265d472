import TerminalUI
import TincanCore
import TincanSessions

/// What a Checks-tab prompt's answer changes.
public enum CheckEdit: Sendable, Equatable {
    case addAssertion
    case editAssertion(Int)
    case addCapture
    case editCapture(Int)
}

/// The Checks tab: the selected request's assertions and captures as lines in the session's
/// words (``CheckLine``), edited through prompts, with the last send's verdicts beside them.
extension AppState {
    /// The selected request as the file will have it: its checks and settings, which the panes
    /// do not hold, are edited here.
    var selectedRequest: SavedRequest {
        workspace.loadedRequest ?? workspace.session.requests[workspace.selected]
    }

    /// Changes the selected request's own settings (checks, flow, HTTP version): in the
    /// session, and in the request the panes' edits are merged into, so neither undoes the other.
    mutating func editSelectedRequest(_ change: (inout SavedRequest) -> Void) {
        guard workspace.session.requests.indices.contains(workspace.selected) else { return }
        change(&workspace.session.requests[workspace.selected])
        if var loaded = workspace.loadedRequest {
            change(&loaded)
            workspace.loadedRequest = loaded
        }
    }

    /// Rows of the Checks tab: the assertions, then the captures.
    var checkRowCount: Int { selectedRequest.assertions.count + selectedRequest.captures.count }

    /// The row under the cursor: an assertion's index, or a capture's.
    private var selectedCheck: CheckEdit? {
        let request = selectedRequest
        let row = checkList.selected
        if request.assertions.indices.contains(row) { return .editAssertion(row) }
        let capture = row - request.assertions.count
        return request.captures.elements.indices.contains(capture) ? .editCapture(capture) : nil
    }

    mutating func performCheck(_ action: Action) {
        switch action {
        case .addCheck:
            promptCheck(.addAssertion, text: "")
        case .addCapture:
            promptCheck(.addCapture, text: "")
        case .editCheck:
            switch selectedCheck {
            case .editAssertion(let index)?: promptCheck(.editAssertion(index), text: CheckLine.text(of: selectedRequest.assertions[index]))
            case .editCapture(let index)?:
                let capture = selectedRequest.captures.elements[index]
                promptCheck(.editCapture(index), text: CheckLine.text(capture: capture.key, capture.value))
            default: promptCheck(.addAssertion, text: "")
            }
        case .removeCheck:
            switch selectedCheck {
            case .editAssertion(let index)?:
                let line = CheckLine.text(of: selectedRequest.assertions[index])
                editSelectedRequest { _ = $0.assertions.remove(at: index) }
                status = StatusMessage("Removed the assertion \(line).")
            case .editCapture(let index)?:
                var name = ""
                editSelectedRequest { name = $0.captures.remove(at: index).key }
                status = StatusMessage("Removed the capture \(name).")
            default:
                return
            }
            checkList.select(checkList.selected, count: checkRowCount)
        default:
            break
        }
    }

    /// Opens the prompt for a line of the Checks tab.
    mutating func promptCheck(_ edit: CheckEdit, text: String) {
        let (title, question) = switch edit {
        case .addAssertion, .editAssertion:
            ((edit == .addAssertion ? "Add" : "Edit") + " assertion", "What, check, value: body $.id equals 7 · status 2xx · headers Content-Type contains json")
        case .addCapture, .editCapture:
            ((edit == .addCapture ? "Add" : "Edit") + " capture", "Name: source, as capture: holds it: id: $.json.id · etag: {header: ETag}")
        }
        mode = .modal(.prompt(Prompt(.check(edit), title: title, question: question, text: text)))
    }

    /// Applies a Checks-tab prompt: the line read as the session reader reads the file.
    ///
    /// - Returns: Why the line was refused (the reader's words, at a column of the line).
    mutating func answerCheck(_ edit: CheckEdit, _ text: String) -> String? {
        do throws(CheckLineError) {
            switch edit {
            case .addAssertion, .editAssertion:
                let assertion = try CheckLine.assertion(parsing: text)
                var row = 0
                editSelectedRequest { request in
                    if case .editAssertion(let index) = edit, request.assertions.indices.contains(index) {
                        request.assertions[index] = assertion
                        row = index
                    } else {
                        request.assertions.append(assertion)
                        row = request.assertions.count - 1
                    }
                }
                checkList.select(row, count: checkRowCount)
                status = StatusMessage("Assertion: \(CheckLine.text(of: assertion)). It is checked on the next send, and saved with the session.")
            case .addCapture, .editCapture:
                let (name, source) = try CheckLine.capture(parsing: text)
                var refusal: String?
                var row = 0
                editSelectedRequest { request in
                    let replaced = if case .editCapture(let index) = edit, request.captures.elements.indices.contains(index) { index } else { nil as Int? }
                    if let existing = request.captures.index(forKey: name), existing != replaced {
                        refusal = "this request already captures \(name)"
                        return
                    }
                    if let replaced {
                        // Renamed or changed where it stood.
                        request.captures.remove(at: replaced)
                        _ = request.captures.updateValue(source, forKey: name, insertingAt: replaced)
                        row = replaced
                    } else {
                        request.captures[name] = source
                        row = request.captures.count - 1
                    }
                }
                if let refusal { return refusal }
                checkList.select(selectedRequest.assertions.count + row, count: checkRowCount)
                status = StatusMessage("Capture: \(name). Later requests can use {{\(name)}} once a send has taken it.")
            }
        } catch {
            return error.description
        }
        return nil
    }

    // MARK: - From the response

    /// `y` on a response value: copy its path, or add an assertion that it equals its value now.
    mutating func offerPathActions(_ path: String, value: ParameterValue?) {
        let line = value.map { CheckLine.equalsText(path: path, value: $0) } ?? "body \(CheckLine.argumentText(path)) exists true"
        mode = .modal(.picker(Picker(.responsePath(path: path, assertion: line), title: path,
                                     options: ["Copy the path", "Add an assertion on this path: \(line)"], selected: "")))
    }

    /// Carries out the choice made after `y`.
    mutating func choosePathAction(at index: Int, path: String, assertion: String) -> [Effect] {
        guard index == 1 else {
            status = StatusMessage("Copied \(path)", .success)
            return [.copyToClipboard(path)]
        }
        promptCheck(.addAssertion, text: assertion)
        return []
    }

    // MARK: - Verdicts

    /// The last send's verdict on an assertion of the selected request, when it was sent from it
    /// with the assertion as it is now.
    func verdict(ofAssertion index: Int) -> CheckResult? {
        guard let exchange, exchange.requestIndex == workspace.selected, exchange.result != nil else { return nil }
        return exchange.assertionVerdicts[CheckLine.text(of: selectedRequest.assertions[index])]
    }

    /// What the last send captured for a capture of the selected request: its value, or why it
    /// found nothing.
    func verdict(ofCapture name: String) -> Result<ParameterValue, CaptureVerdict>? {
        guard let exchange, exchange.requestIndex == workspace.selected, exchange.result != nil else { return nil }
        if let failure = exchange.captureFailures[name] { return .failure(CaptureVerdict(reason: failure)) }
        return workspace.captured[name].map { .success($0) }
    }
}

/// Why a capture found nothing on the last send.
public struct CaptureVerdict: Error, Sendable, Equatable {
    public var reason: String
}
