import Foundation
import TincanCore
import TincanSessions

/// `tincan send --explain`: the Explain view's text instead of a send, as plain text or, with
/// `--format markdown`, as Markdown for handouts (with the wire preview in a fenced block).
extension SendCommand {
    /// Writes the explanation of `request`, built from `draft`, with the Connection step the
    /// options give; secrets hidden unless `--show-secrets`.
    func writeExplanation(of draft: RequestDraft, request: HTTPRequest, httpVersion: HTTPVersionPreference, proxy: ProxySettings,
                          clientIdentity: ClientIdentity?, retryPolicy: RetryPolicy?, to output: inout StandardOutput) throws {
        var options = TaskOptions()
        options.proxy = proxy
        options.clientIdentity = clientIdentity
        options.httpVersion = httpVersion
        options.retryPolicy = retryPolicy
        var explanation = try draft.explain(request, cookieFile: connection.cookies.cookieJar, httpVersion: httpVersion)
        // What the TLS options weaken, named by the option that says it.
        let weakenings = try tls.makeSecurityPolicy().weakenings.map { weakening -> (source: String, weakening: TrustWeakening) in
            switch weakening {
            case .verificationOff, .hostNameUnchecked: ("--insecure", weakening)
            case .deprecatedTLS(let version): ("--tls-min \(version.rawValue)", weakening)
            case .caFile(let path): ("--ca-file \(path)", weakening)
            }
        }
        if let oauth2 = try authentication.oauth2Authorization {
            explanation.steps.append(Explanation.oauth2(oauth2, for: request.url) { Redaction.oauth2Request($0, showingSecrets: self.output.showSecrets) })
        }
        explanation.steps.append(Explanation.connection(to: request.url, options: options, weakenings: weakenings))
        let hide = self.output.showSecrets ? .none : RequestSecrets(of: request, typedURL: draft.url)
        explanation = hide.hiding(in: explanation)
        switch self.output.format {
        case .markdown:
            let preview = hide.hiding(in: try RequestPreview.text(request, httpVersion: httpVersion))
            // The URL as a code span: its `_` and `*` are not emphasis.
            try output.write("# \(request.method) `\(hide.hiding(in: request.url.string))`\n\n" + explanation.markdown(wirePreview: preview))
        case .text, .json:
            try output.write(explanation.text())
        }
        try output.flush()
    }
}
