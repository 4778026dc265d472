import TerminalUI
import TincanCore
import TincanSessions

/// Secrets on the screen (issue 34 §5): credentials, tokens, cookies and URL passwords show as
/// dots in every view (the tabs, the preview, Explain, Received, the response's headers and body
/// where a server echoes them) until `v` shows them, everywhere at once; copying as curl keeps
/// them. What is hidden is the request's own secrets (``RequestSecrets``, the rules `send
/// --explain` and the history follow) and any secret-named response header.
extension AppState {
    /// The secrets to hide now: the request in the preview's and the last send's; none once `v`
    /// showed them.
    var hiddenSecrets: RequestSecrets {
        guard !revealsSecrets else { return .none }
        guard let sent = exchange?.secrets else { return previewSecrets }
        return previewSecrets.merging(sent)
    }

    /// Lines with every secret hidden, token by token.
    func hidingSecrets(in lines: [TokenLine]) -> [TokenLine] {
        let secrets = hiddenSecrets
        guard !secrets.isEmpty else { return lines }
        return lines.map { line in line.map { Token($0.element, secrets.hiding(in: $0.text)) } }
    }

    /// One line with every secret hidden.
    func hidingSecrets(in line: TokenLine) -> TokenLine {
        let secrets = hiddenSecrets
        guard !secrets.isEmpty else { return line }
        return line.map { Token($0.element, secrets.hiding(in: $0.text)) }
    }

    /// A response header's value as shown: hidden when its name names a secret (`Set-Cookie`).
    func shownHeaderValue(name: String, value: String) -> String {
        revealsSecrets ? value : hiddenSecrets.hiding(in: Redaction.headerValue(name: name, value: value))
    }

    /// Shows secrets as they are in every view, or as dots again.
    mutating func toggleSecrets() {
        revealsSecrets.toggle()
        refreshPreview()
        status = StatusMessage(revealsSecrets
            ? "Secrets are shown in every view; v hides them (copy as curl keeps them either way)."
            : "Secrets are hidden in every view; v shows them.")
    }
}
