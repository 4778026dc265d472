import Foundation
import TincanCore
import TincanDemoServer
import TincanSessions

/// `tincan learn LESSON --handout FILE.md`: a lesson as Markdown for a workshop's handout. Each
/// step's text, its goals as boxes to tick, its request as it starts (on the wire, and why it
/// looks that way: the Explain view), and what the demo server answered to it; secrets hidden.
struct LessonHandout {
    var lesson: LessonSource
    /// The most of a response body a handout shows.
    static let bodyExcerptBytes = 2048

    /// The handout, with each step's request sent to `servers`.
    func markdown(servers: DemoServers) async throws -> String {
        let session = lesson.session
        guard let steps = session.lesson?.steps, let title = session.lesson?.title else { return "" }
        let variables = servers.lessonVariables.merging(lesson.variables) { $1 }
        let report = try await LessonCheck.run(session, path: lesson.path, variables: variables, demo: servers.addresses, keepsResponses: true)
        var template = try session.template(environment: nil, overrides: variables)
        template.demo = servers.addresses
        var out = "# \(Explanation.escaped(title))\n\n"
        if let summary = session.lesson?.summary { out += "\(summary)\n\n" }
        out += "_A Tincan lesson: `tincan learn \(lesson.builtinName ?? lesson.path)` opens it, and each step's goals tick as the request is edited and sent._\n"
        for (index, step) in steps.enumerated() {
            out += "\n## Step \(index + 1): \(Explanation.escaped(step.title))\n\n"
            if !step.text.isEmpty { out += step.text.trimmingWhitespaceAndNewlines() + "\n\n" }
            out += "**Goals**\n\n"
            for goal in report.steps[index].goals { out += "- [ ] \(Explanation.markdownInline(goal.title))\n" }
            out += "\n" + request(of: step, in: session, template: template)
            out += response(report.steps[index].result)
            if !step.hints.isEmpty {
                out += "\n**Hints**\n\n" + step.hints.enumerated().map { "\($0 + 1). \($1)\n" }.joined()
            }
        }
        return out
    }

    /// The step's request as the lesson starts it: on the wire, and why.
    private func request(of step: LessonStep, in session: Session, template: Template) -> String {
        do {
            let resolved = try session.resolve(step.requestIndex, template: template, directory: Session.directory(of: lesson.path), file: lesson.path)
            let request = try resolved.draft.build()
            let hide = RequestSecrets(of: request, typedURL: resolved.draft.url)
            var explanation = try resolved.draft.explain(request, cookieFile: session.cookieFile, httpVersion: resolved.options.httpVersion)
            explanation.steps.append(Explanation.connection(to: request.url, options: resolved.options))
            let preview = hide.hiding(in: try RequestPreview.text(request, httpVersion: resolved.options.httpVersion))
            return "### The request, as the step starts\n\n" + hide.hiding(in: explanation).markdown(headingLevel: 4, wirePreview: preview)
        } catch {
            // A request made of values an earlier step captures is built only as the lesson runs.
            return "### The request, as the step starts\n\nIt is built as the lesson runs: \(Explanation.markdownInline("\(error)"))\n"
        }
    }

    /// What the demo server answered: the head, and the start of the body.
    private func response(_ result: TaskResult?) -> String {
        let out = "\n### What the server answered\n\n"
        guard let result, let response = result.response else {
            return out + (result?.transportError.map { "Nothing: \(Explanation.markdownInline("\($0)"))\n" } ?? "Nothing was sent.\n")
        }
        var text = response.statusLine + "\n"
        for field in response.headers.fields { text += "\(field.name): \(Redaction.headerValue(name: field.name, value: field.value))\n" }
        let body = result.data.prefix(Self.bodyExcerptBytes)
        if !body.isEmpty {
            text += "\n" + String(decoding: body, as: UTF8.self)
            if result.data.count > body.count { text += "\n… (\(RequestPreview.byteCount(Int64(result.data.count))) in all)" }
            text += "\n"
        }
        // A server that echoes the request (httpbin's routes do) echoes its secrets too.
        text = RequestSecrets(of: result.request, typedURL: result.request.url.string).hiding(in: text)
        let fence = text.contains("```") ? "~~~~" : "```"
        return out + "\(fence)http\n\(text)\(fence)\n"
    }
}
