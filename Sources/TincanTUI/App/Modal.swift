import Foundation
import TerminalUI
import TincanCore
import TincanSessions

/// A modal over the screen: it gets every key until it closes.
public enum Modal: Sendable, Equatable {
    /// The help screen: every binding, by scope.
    case help(Dialog)
    /// A question with a text field; `purpose` says what its answer changes.
    case prompt(Prompt)
    /// A list to choose from.
    case picker(Picker)
    /// A message to read (such as a theme file that did not load).
    case message(Dialog)
}

/// A text prompt.
public struct Prompt: Sendable, Equatable {
    /// What the answer is for.
    public enum Purpose: Sendable, Equatable {
        case addHeader
        case editHeader(Int)
        case addParameter
        case editValue
        case renameParameter
        case timeout
        case acceptableStatusCodes
        case uploadLimit
        case maxBody
        /// The session's cookie file (issue 18 §6).
        case cookieFile
        case proxy
        case noProxy
        case clientCertificate
        case clientKey
        /// The session's retry limit.
        case retries
        case saveAs
        case openSession
        case renameRequest
        /// Where to save the response body.
        case saveBody
        /// The body path that narrows the JSON outline.
        case bodyFilter
        /// The Content-Type of a text body, then its file, an upload's file and rate.
        case bodyContentType, bodyFile, uploadFile, uploadRate
        /// The query fields.
        case addQuery
        case editQuery(Int)
        /// A line of the Checks tab.
        case check(CheckEdit)
        /// A request setting of the Props tab (`retry:`, `delay:`, `accept-type:`…).
        case requestSetting(RequestSettingRow)
        /// The next message of the open WebSocket request.
        case webSocketMessage
    }

    public var purpose: Purpose
    public var dialog: Dialog
    /// Why the last answer was refused, shown under the field.
    public var error: String?

    /// The dialog as drawn: the question, then the refusal if there is one (a refusal of several
    /// lines is indented under its first).
    public var displayDialog: Dialog {
        var shown = dialog
        for (index, line) in (error?.split(separator: "\n") ?? []).enumerated() {
            shown.lines.append([Span((index == 0 ? "✗ " : "  ") + line)])
        }
        return shown
    }

    /// Creates a prompt with a question and the field's starting text.
    ///
    /// - Parameter isSecret: Whether the field shows dots for what is typed (a password).
    public init(_ purpose: Purpose, title: String, question: String, text: String = "", isSecret: Bool = false) {
        self.purpose = purpose
        var field = TextField(text)
        field.isSecret = isSecret
        dialog = Dialog(title: title, lines: [[Span(question)]], field: field, hint: "enter ok · esc cancel")
    }
}

/// A list to choose one value from.
public struct Picker: Sendable, Equatable {
    /// What the choice sets.
    public enum Purpose: Sendable, Equatable {
        case method, serializer, cachePolicy, networkServiceType, responseSerializer
        /// What the Body tab holds: the parameters, or a body sent as it is.
        case bodyKind
        /// The Auth tab's scheme.
        case authType
        /// What the copy menu copies the request as: curl, or a language of ``CodeExport``.
        case copyFormat
        /// The Auth tab's OAuth 2.0 grant and client authentication.
        case oauth2Grant, oauth2ClientAuth
        /// The type of a parameter being added under the key given (`user[address][city]`).
        case parameterType(key: String)
        case environment
        /// The selected request's `http-version:`.
        case httpVersion
        /// What to do with the response value at a body path (`y`): copy the path, or add
        /// an assertion (its line given).
        case responsePath(path: String, assertion: String)
        /// History entries, newest first.
        case history
        /// This run's sends, newest first: the first of two to compare, then the second.
        case compareFirst
        case compareSecond(first: Int)
        /// The file to save has comments the writer would drop.
        case commentConflict(path: String)
        /// Save-as names a file that exists.
        case confirmOverwrite(path: String)
        /// The cookie jar as listed; `revealed` the cookie whose value shows.
        case cookieJar([Cookie], revealed: Int?, at: Date)
        /// What to do with the cookie at an index of the list.
        case cookieAction(Int, [Cookie], revealed: Int?, at: Date)
        /// The response cache as listed.
        case responseCache([CacheEntrySummary], at: Date)
        /// What to do with the cached response at an index of the list.
        case cacheAction(Int, [CacheEntrySummary], at: Date)
        /// Saving the response body names a file that exists.
        case confirmBodyOverwrite(path: String)
        /// The session has unsaved changes; what to do after the choice.
        case unsaved(UnsavedFollowUp)
        /// The last run left unsaved changes to this session: the session as they left it.
        case recoverDraft(Session, written: Date)
        /// The session file weakens TLS trust: apply that, or use full verification.
        case trust(path: String, digest: String?)
    }

    /// What waits on an answer about unsaved changes.
    public enum UnsavedFollowUp: Sendable, Equatable {
        case quit
        case open(String)
    }

    public var purpose: Purpose
    public var title: String
    public var options: [String]
    public var list: ListState

    /// Creates a picker with the current value selected.
    public init(_ purpose: Purpose, title: String, options: [String], selected: String) {
        self.purpose = purpose
        self.title = title
        self.options = options
        list = ListState(selected: options.firstIndex(of: selected) ?? 0)
    }
}
