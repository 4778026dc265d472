import Foundation
import TincanCore
import TincanDemoServer
import TincanSessions

/// `tincan learn LESSON --handout FILE.md`: a lesson as Markdown for a workshop's handout (issue 37
/// §5). Each step's text, its goals as boxes to tick, its request as it starts (on the wire, and
/// why it looks that way: each part of the Explain view once, the first time it says something),
/// and what the demo server answered to it; secrets hidden.
///
/// The student's version holds no answers: the hints stay in the TUI. The teacher's version
/// (`--teacher`) adds, under each step, the solution's request, what the server answered to it,
/// and the hints.
///
/// Two runs write the same bytes: the servers' per-run ports and folders are shown as the
/// lesson names them (`127.0.0.1:8080`, `{{server-cert}}`), dates as a placeholder, and a body
/// that is not text as its size and first bytes in hex.
struct LessonHandout {
    var lesson: LessonSource
    /// The lesson's solution, for the teacher's version; nil for the student's.
    var solution: Session?
    /// The most of a text body a handout shows.
    static let bodyExcerptBytes = 2048
    /// The most bytes of a binary body shown in hex.
    static let hexExcerptBytes = 16
    /// How the servers' addresses are shown: as `tincan serve` and the lessons' defaults give them.
    static let shownPlainAddress = "127.0.0.1:8080"
    static let shownSecureAddress = "127.0.0.1:8443"

    /// The handout, with each step's request (and the solution's, for a teacher) sent to `servers`.
    ///
    /// - Throws: What stops the lesson (or its solution) from running.
    func markdown(servers: DemoServers) async throws -> String {
        let session = lesson.session
        guard let steps = session.lesson?.steps, let title = session.lesson?.title else { return "" }
        let variables = servers.lessonVariables.merging(lesson.variables) { $1 }
        let report = try await LessonCheck.run(session, path: lesson.path, variables: variables, demo: servers.addresses, keepsResponses: true)
        var answers: LessonReport?
        if let solution { answers = try await LessonCheck.run(solution, path: lesson.path, variables: variables, demo: servers.addresses, keepsResponses: true) }
        var explained = Explained()
        var out = "# \(Explanation.escaped(title))\n\n"
        if let summary = session.lesson?.summary { out += "\(summary)\n\n" }
        out += "_A Tincan lesson: `tincan learn \(lesson.builtinName.map(LessonListing.shortName) ?? lesson.path)` opens it, and each step's goals tick as the request is edited and sent. "
            + "Addresses are shown as `tincan serve` gives them (`\(Self.shownPlainAddress)`); yours differ._\n"
        if solution != nil { out += "\n_The teacher's version: under each step, the answer (the request as the solution writes it, and what the server answered to it) and the hints._\n" }
        for (index, step) in steps.enumerated() {
            out += "\n## Step \(index + 1): \(Explanation.escaped(step.title))\n\n"
            if !step.text.isEmpty { out += step.text.trimmingWhitespaceAndNewlines() + "\n\n" }
            out += "**Goals**\n\n"
            for goal in report.steps[index].goals { out += "- [ ] \(Explanation.markdownInline(goal.title))\n" }
            out += "\n### The request, as the step starts\n\n" + request(step.requestIndex, in: session, template: try template(of: session, servers: servers), explained: &explained)
            out += "\n### What the server answered\n\n" + response(report.steps[index].result)
            if let solution, let answers {
                out += "\n### The answer\n\n" + answer(step, of: solution, result: answers.steps[index])
                if !step.hints.isEmpty { out += "\n**Hints**\n\n" + step.hints.enumerated().map { "\($0 + 1). \($1)\n" }.joined() }
            } else if !step.hints.isEmpty {
                out += "\n_\(step.hints.count == 1 ? "A hint is" : "\(step.hints.count) hints are") in the TUI: alt+t shows the next._\n"
            }
        }
        return stable(out, servers: servers)
    }

    private func template(of session: Session, servers: DemoServers) throws -> Template {
        var template = try session.template(environment: nil, overrides: servers.lessonVariables.merging(lesson.variables) { $1 })
        template.demo = servers.addresses
        return template
    }

    /// The parts of the Explain view already shown, so that each is shown once.
    private struct Explained {
        var seen: Set<String> = []

        /// `explanation` without the steps already shown, and the titles of those left out.
        mutating func unseen(_ explanation: Explanation) -> (Explanation, [String]) {
            var kept = explanation
            var left: [String] = []
            kept.steps = explanation.steps.filter { step in
                var single = explanation
                single.steps = [step]
                let key = single.markdown()
                guard seen.insert(key).inserted else {
                    left.append(step.title)
                    return false
                }
                return true
            }
            return (kept, left)
        }
    }

    /// A request as a step starts it (or as the solution writes it): on the wire, and why.
    private func request(_ index: Int, in session: Session, template: Template, explained: inout Explained) -> String {
        do {
            let resolved = try session.resolve(index, template: template, directory: Session.directory(of: lesson.path), file: lesson.path)
            let request = try resolved.draft.build()
            let hide = RequestSecrets(of: request, typedURL: resolved.draft.url)
            var explanation = try resolved.draft.explain(request, cookieFile: session.cookieFile, httpVersion: resolved.options.httpVersion)
            explanation.steps.append(Explanation.connection(to: request.url, options: resolved.options))
            let preview = hide.hiding(in: try RequestPreview.text(request, httpVersion: resolved.options.httpVersion, bodyLimit: Self.bodyExcerptBytes))
            let (shown, left) = explained.unseen(hide.hiding(in: explanation))
            var out = shown.markdown(headingLevel: 4, wirePreview: preview)
            if !left.isEmpty { out += "\n_As in an earlier step: \(left.map(Explanation.escaped).joined(separator: "; "))._\n" }
            return out
        } catch {
            // A request made of values an earlier step captures is built only as the lesson runs.
            return "It is built as the lesson runs: \(Explanation.markdownInline("\(error)"))\n"
        }
    }

    /// The solution's answer to a step: its request as written (and its `defaults:` when they
    /// differ from the lesson's), and what the server answered to it.
    private func answer(_ step: LessonStep, of solution: Session, result: StepResult) -> String {
        var written = Session()
        if solution.defaults != lesson.session.defaults { written.defaults = solution.defaults }
        if solution.requests.indices.contains(step.requestIndex) { written.requests = [solution.requests[step.requestIndex]] }
        var out = "The solution writes:\n\n```yaml\n\(written.yamlText())```\n"
        out += "\nIt passes \(result.goals.count(where: \.passed)) of \(result.goals.count) goals. The server answered:\n\n"
        return out + response(result.result)
    }

    /// What the demo server answered: the head, and the start of the body (text, or its size
    /// and first bytes in hex).
    private func response(_ result: TaskResult?) -> String {
        guard let result, let response = result.response else {
            return result?.transportError.map { "Nothing: \(Explanation.markdownInline("\($0)"))\n" } ?? "Nothing was sent.\n"
        }
        var text = response.statusLine + "\n"
        for field in response.headers.fields {
            // A date is the run's, not the lesson's.
            let value = HTTPHeaders.same(field.name, "Date") ? "(the time of the request)" : Redaction.headerValue(name: field.name, value: field.value)
            text += "\(field.name): \(value)\n"
        }
        if !result.data.isEmpty { text += "\n" + Self.bodyExcerpt(result.data) + "\n" }
        // A server that echoes the request (httpbin's routes do) echoes its secrets too.
        text = RequestSecrets(of: result.request, typedURL: result.request.url.string).hiding(in: text)
        let fence = text.contains("```") ? "~~~~" : "```"
        return "\(fence)http\n\(text)\(fence)\n"
    }

    /// A body as a handout shows it: text up to ``bodyExcerptBytes``, else its size and first
    /// bytes in hex.
    static func bodyExcerpt(_ data: [UInt8]) -> String {
        let cut = data.prefix(bodyExcerptBytes)
        guard RequestPreview.isText(cut) else { return hexExcerpt(data) }
        var text = String(decoding: cut, as: UTF8.self)
        if data.count > cut.count { text += "\n… (\(RequestPreview.byteCount(Int64(data.count))) in all)" }
        return text
    }

    /// `<binary: 65.5 kB; first bytes: 89 50 4e 47 …>`.
    static func hexExcerpt(_ data: [UInt8]) -> String {
        let hex = data.prefix(hexExcerptBytes).map { HexText.bytes([$0]) }.joined(separator: " ")
        return "<binary: \(RequestPreview.byteCount(Int64(data.count))); first bytes: \(hex)\(data.count > hexExcerptBytes ? " …" : "")>"
    }

    /// The handout with what differs between runs shown as the lesson names it: the servers'
    /// ports, the folders of the certificates and the lesson's files, multipart boundaries, Digest
    /// nonces, and OAuth 2.0 codes and tokens.
    private func stable(_ text: String, servers: DemoServers) -> String {
        // An address also appears percent-encoded, in a query (an OAuth 2.0 redirect_uri).
        var pairs = [("127.0.0.1:\(servers.plain.port)", Self.shownPlainAddress),
                     ("127.0.0.1%3A\(servers.plain.port)", Self.shownPlainAddress.replacingOccurrences(of: ":", with: "%3A"))]
        if let secure = servers.secure {
            pairs.append(("127.0.0.1:\(secure.port)", Self.shownSecureAddress))
            pairs.append(("127.0.0.1%3A\(secure.port)", Self.shownSecureAddress.replacingOccurrences(of: ":", with: "%3A")))
        }
        if let path = servers.certificatePath { pairs.append((path, "{{server-cert}}")) }
        if let path = servers.otherCertificatePath { pairs.append((path, "{{other-cert}}")) }
        if !lesson.filesFolder.isEmpty { pairs.append((lesson.filesFolder, "{{lesson-files}}")) }
        let stable = pairs.sorted { $0.0.count > $1.0.count }.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
        // A multipart boundary is random (AFNetworking's `Boundary+` and 16 hexadecimal digits);
        // one of the same length keeps every Content-Length true.
        return stable.replacing(/Boundary\+[0-9A-F]{16}/, with: "Boundary+0123456789ABCDEF")
            // A Digest challenge's nonce is new for each challenge.
            .replacing(/nonce="[0-9a-f]+"/, with: "nonce=\"(new each time)\"")
            // The demo authorization server's codes and tokens (lesson 15) are new each time,
            // and a token is a secret besides.
            .replacing(/\b(at|rt)-[A-Za-z0-9_-]{32}\b/) { "\($0.1)-(new each time)" }
            .replacing(/(code=|"code": ")[A-Za-z0-9_-]{22}\b/) { "\($0.1)(new each time)" }
    }
}
