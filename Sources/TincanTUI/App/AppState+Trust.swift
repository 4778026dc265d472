import Foundation
import TincanCore
import TincanSessions

/// Whether the open session's weaker TLS trust settings apply (issue 36 §7).
public enum TrustState: Sendable, Equatable {
    /// The session, as opened, weakens nothing: what the user then sets is theirs.
    case notNeeded
    /// The question is open: until it is answered, sends use full verification.
    case asking
    /// The user let the file's settings apply (now, or before for this content).
    case applied
    /// The user chose full verification: the file's weakening settings are left out.
    case refused
}

/// A session file someone else wrote may turn certificate verification off (`security:
/// insecure: true`), accept TLS 1.0 or trust its own authorities. The first time such a file is
/// opened (or once it has changed) the TUI asks whether to apply that; the answer is remembered
/// per file and per content (``SessionTrust``, in XDG state), and while weaker trust applies the
/// title bar carries a mark and the Explain view a line for each weakening.
extension AppState {
    /// The title of the question, which the picker's keys know it by.
    static let trustOptions = ["Apply them for this file", "Open with full verification (leave them out)"]

    /// What weakens trust for the sends of `session` (the edited session), with where it is set:
    /// nothing while the question is open or after the user chose full verification.
    func weakenings(in session: Session) -> [(source: String, weakening: TrustWeakening)] {
        switch workspace.trust {
        case .asking, .refused: []
        case .notNeeded, .applied: session.defaults.security.weakenings
        }
    }

    /// The security settings a send uses: the session's, less what weakens trust unless the
    /// user let it apply.
    func securityInForce(_ settings: SecuritySettings) -> SecuritySettings {
        switch workspace.trust {
        case .asking, .refused: settings.withoutWeakenings
        case .notNeeded, .applied: settings
        }
    }

    /// Decides, for the session just opened, whether its weaker trust applies: nothing to decide
    /// when it weakens nothing; the answer remembered for this file as it is; else the question.
    mutating func settleTrust() {
        decideTrust()
        // Files outside its folder are said too (replay says each in a sentence), first, as the
        // status line is cut at the screen's edge.
        let outside = workspace.filesOutside
        guard !outside.isEmpty else { return }
        let read = outside.filter { !$0.reference.writes }.map(\.shownPath)
        let written = outside.filter(\.reference.writes).map(\.shownPath)
        let files = "⚠ Outside its folder, this file " + [read.isEmpty ? nil : "reads " + read.joined(separator: ", "),
                                                             written.isEmpty ? nil : "writes " + written.joined(separator: ", ")]
            .compactMap { $0 }.joined(separator: " and ") + "."
        status = StatusMessage([files, status?.text].compactMap { $0 }.joined(separator: " "), .warning)
    }

    private mutating func decideTrust() {
        let weakenings = workspace.session.defaults.security.weakenings
        guard !weakenings.isEmpty, let path = workspace.path, let digest = workspace.digest else {
            workspace.trust = weakenings.isEmpty ? .notNeeded : .asking
            if !weakenings.isEmpty { askTrust(weakenings, path: workspace.path ?? "", digest: nil) }
            return
        }
        switch trustAnswers.answer(for: path, digest: digest) {
        case .apply?:
            workspace.trust = .applied
            status = StatusMessage("⚠ \((path as NSString).lastPathComponent) weakens TLS trust, as you allowed: " + weakenings.map(\.source).joined(separator: ", "), .warning)
        case .refuse?:
            workspace.trust = .refused
            status = StatusMessage("\((path as NSString).lastPathComponent): full verification, as you chose; its " + weakenings.map(\.source).joined(separator: ", ") + " is left out.", .warning)
        case nil:
            workspace.trust = .asking
            askTrust(weakenings, path: path, digest: digest)
        }
    }

    private mutating func askTrust(_ weakenings: [(source: String, weakening: TrustWeakening)], path: String, digest: String?) {
        let name = path.isEmpty ? "This session" : (path as NSString).lastPathComponent
        mode = .modal(.picker(Picker(.trust(path: path, digest: digest), title: "\(name) weakens TLS trust: " + weakenings.map(\.source).joined(separator: ", "),
                                     options: Self.trustOptions, selected: Self.trustOptions[1])))
        status = StatusMessage("⚠ " + weakenings.map { "\($0.source): \($0.weakening)" }.joined(separator: "; ") + ". Until you answer, sends use full verification.", .warning)
    }

    /// Carries out the answer to the question, and has it remembered for this file as it is.
    mutating func chooseTrust(at index: Int, path: String, digest: String?) -> [Effect] {
        let applies = index == 0
        workspace.trust = applies ? .applied : .refused
        refreshPreview()
        let sources = workspace.session.defaults.security.weakenings.map(\.source).joined(separator: ", ")
        status = applies
            ? StatusMessage("⚠ Weaker TLS trust applies to this file's sends: \(sources).", .warning)
            : StatusMessage("Full verification: the file's \(sources) is left out.", .success)
        guard let digest, let trustPath else { return [] }
        let answer: SessionTrust.Answer = applies ? .apply : .refuse
        trustAnswers.remember(answer, digest: digest, for: path)
        return [.recordTrust(answer, digest: digest, file: path, path: trustPath)]
    }

    /// After a save: the file as written carries the answer in force (the user wrote it), so it
    /// is not asked about again; a file saved while the question is open stays unanswered.
    /// The file's digest is the save's answer's, already in the workspace.
    mutating func rememberTrustAfterSave(_ path: String) -> [Effect] {
        let answer: SessionTrust.Answer
        switch workspace.trust {
        case .asking: return []
        case .refused: answer = .refuse
        case .notNeeded, .applied:
            guard !workspace.session.defaults.security.weakenings.isEmpty else { return [] }
            workspace.trust = .applied
            answer = .apply
        }
        guard let digest = workspace.digest, let trustPath else { return [] }
        trustAnswers.remember(answer, digest: digest, for: path)
        return [.recordTrust(answer, digest: digest, file: path, path: trustPath)]
    }
}
