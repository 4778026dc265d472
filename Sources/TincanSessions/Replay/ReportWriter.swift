import Foundation
import OrderedCollections
import TincanCore

/// Renders a replay report as text for people, JSON for scripts, or JUnit XML for CI.
public enum ReportWriter {
    public enum Format: String, Sendable, CaseIterable {
        case text, json, junit
    }

    /// The report in `format`. Secret captures are hidden unless `showSecrets`.
    public static func render(_ report: ReplayReport, format: Format, verbose: Bool = false, showSecrets: Bool = false) -> String {
        switch format {
        case .text: text(report, verbose: verbose, showSecrets: showSecrets)
        case .json: json(report, showSecrets: showSecrets)
        case .junit: junit(report)
        }
    }

    /// One line per request as it finishes, then the checks that failed (every check when verbose).
    public static func outcomeText(_ outcome: RequestOutcome, verbose: Bool = false, showSecrets: Bool = false) -> String {
        let mark = switch outcome.state {
        case .passed: "✓"
        case .failed: "✗"
        case .skipped: "-"
        }
        var line = "\(mark) \(outcome.index + 1). \(outcome.name)"
        switch outcome.state {
        case .skipped:
            line += "  (skipped: an earlier request failed and --fail-fast is on)"
            return line + "\n"
        default:
            line += "  \(outcome.method) \(outcome.url)"
            if let status = outcome.status { line += " → \(status)" }
            if outcome.result != nil { line += "  \(milliseconds(outcome.duration)) ms" }
            if outcome.attempts > 1 { line += "  (sent \(outcome.attempts) times)" }
        }
        var lines = [line]
        if let error = outcome.error { lines.append("    ✗ \(error)") }
        for reason in outcome.result?.retries ?? [] { lines.append("    ↻ \(reason)") }
        if let note = outcome.result?.retryNote { lines.append("    ↻ \(note)") }
        for check in outcome.checks where verbose || !check.passed {
            lines.append("    \(check.passed ? "✓" : "✗") \(check.name)" + (check.failure.map { ": \($0)" } ?? ""))
        }
        for capture in outcome.captures where verbose {
            lines.append("    → \(capture.name) = \(captureText(capture.name, capture.value, showSecrets: showSecrets))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func text(_ report: ReplayReport, verbose: Bool, showSecrets: Bool) -> String {
        var output = "\(report.sessionName) (\(report.file))\n"
        for outcome in report.outcomes { output += outcomeText(outcome, verbose: verbose, showSecrets: showSecrets) }
        output += summary(report) + "\n"
        return output
    }

    /// `5 requests: 4 passed, 1 failed, 0 skipped in 120 ms`.
    public static func summary(_ report: ReplayReport) -> String {
        let passed = report.outcomes.count - report.failedCount - report.skippedCount
        var text = "\(report.outcomes.count) request\(report.outcomes.count == 1 ? "" : "s"): \(passed) passed, \(report.failedCount) failed"
        if report.skippedCount > 0 { text += ", \(report.skippedCount) skipped" }
        return text + " in \(milliseconds(report.duration)) ms"
    }

    /// One session's report as the JSON report's object (docs/report.schema.json).
    static func jsonObject(_ report: ReplayReport, showSecrets: Bool) -> ParameterValue {
        var requests: [ParameterValue] = []
        for outcome in report.outcomes {
            var entry: OrderedDictionary<String, ParameterValue> = [
                "index": .integer(Int64(outcome.index + 1)),
                "name": .string(outcome.name),
                "method": .string(outcome.method),
                "url": .string(outcome.url),
                "state": .string("\(outcome.state)"),
                "status": outcome.status.map { .integer(Int64($0)) } ?? .null,
                "version": outcome.result?.response.map { .string($0.version.description) } ?? .null,
                "durationMs": .double((outcome.duration * 1000 * 10).rounded() / 10),
                "attempts": .integer(Int64(outcome.attempts)),
                "error": outcome.error.map(ParameterValue.string) ?? .null,
            ]
            entry["retries"] = .array(outcome.result?.retries.map(\.reportValue) ?? [])
            entry["retryNote"] = outcome.result?.retryNote.map(ParameterValue.string) ?? .null
            entry["checks"] = .array(outcome.checks.map { check in
                .dictionary(["check": .string(check.name), "passed": .bool(check.passed), "message": check.failure.map(ParameterValue.string) ?? .null])
            })
            var captures: OrderedDictionary<String, ParameterValue> = [:]
            for capture in outcome.captures {
                captures[capture.name] = showSecrets || !Redaction.isSecret(name: capture.name) ? capture.value : .string(Redaction.mask)
            }
            entry["captures"] = .dictionary(captures)
            requests.append(.dictionary(entry))
        }
        let root: OrderedDictionary<String, ParameterValue> = [
            "session": .string(report.sessionName),
            "file": .string(report.file),
            "passed": .bool(report.passed),
            "total": .integer(Int64(report.outcomes.count)),
            "failed": .integer(Int64(report.failedCount)),
            "skipped": .integer(Int64(report.skippedCount)),
            "durationMs": .double((report.duration * 1000 * 10).rounded() / 10),
            "requests": .array(requests),
        ]
        return .dictionary(root)
    }

    static func json(_ report: ReplayReport, showSecrets: Bool) -> String {
        JSONWriter.string(jsonObject(report, showSecrets: showSecrets), indent: 2) + "\n"
    }

    static func junit(_ report: ReplayReport) -> String {
        junit([report], duration: report.duration)
    }

    /// The JUnit report: one `<testsuite>` a session file, one `<testcase>` a request run.
    static func junit(_ reports: [ReplayReport], duration: Double) -> String {
        let tests = reports.reduce(0) { $0 + $1.outcomes.count }
        let failures = reports.reduce(0) { $0 + $1.failedCount }
        let skipped = reports.reduce(0) { $0 + $1.skippedCount }
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output += "<testsuites name=\"tincan replay\" tests=\"\(tests)\" failures=\"\(failures)\" skipped=\"\(skipped)\" time=\"\(seconds(duration))\">\n"
        for report in reports { output += testSuite(report) }
        output += "</testsuites>\n"
        return output
    }

    private static func seconds(_ value: Double) -> String { DecimalText.fixed(value, decimals: 3) }

    private static func testSuite(_ report: ReplayReport) -> String {
        var output = "  <testsuite name=\"\(xml(report.sessionName))\" file=\"\(xml(report.file))\" tests=\"\(report.outcomes.count)\" failures=\"\(report.failedCount)\" errors=\"0\" skipped=\"\(report.skippedCount)\" time=\"\(seconds(report.duration))\">\n"
        for outcome in report.outcomes {
            let name = "\(outcome.index + 1). \(outcome.name)"
            output += "    <testcase name=\"\(xml(name))\" classname=\"\(xml(report.sessionName))\" time=\"\(seconds(outcome.duration))\""
            switch outcome.state {
            case .passed:
                output += "/>\n"
            case .skipped:
                output += ">\n      <skipped message=\"an earlier request failed and --fail-fast is on\"/>\n    </testcase>\n"
            case .failed:
                let failures = (outcome.error.map { [$0] } ?? []) + outcome.checks.filter { !$0.passed }.map { "\($0.name): \($0.failure ?? "")" }
                output += ">\n      <failure message=\"\(xml(failures.first ?? "failed"))\" type=\"AssertionFailure\">\(xml("\(outcome.method) \(outcome.url)\n" + failures.joined(separator: "\n")))</failure>\n    </testcase>\n"
            }
        }
        return output + "  </testsuite>\n"
    }

    /// The report of several session files replayed together: for json, one object with the
    /// totals and each file's report under `sessions`, in file order; for junit, one
    /// `<testsuite>` a file. One file's report is the same as ``render(_:format:verbose:showSecrets:)``'s.
    ///
    /// - Parameter duration: The wall-clock time of the whole run (files overlap under `--jobs`).
    public static func render(_ reports: [ReplayReport], duration: Double, format: Format, verbose: Bool = false, showSecrets: Bool = false) -> String {
        if reports.count == 1, let report = reports.first { return render(report, format: format, verbose: verbose, showSecrets: showSecrets) }
        switch format {
        case .text:
            return reports.map { text($0, verbose: verbose, showSecrets: showSecrets) }.joined() + batchSummary(reports, duration: duration) + "\n"
        case .junit:
            return junit(reports, duration: duration)
        case .json:
            let root: OrderedDictionary<String, ParameterValue> = [
                "passed": .bool(reports.allSatisfy(\.passed)),
                "files": .integer(Int64(reports.count)),
                "total": .integer(Int64(reports.reduce(0) { $0 + $1.outcomes.count })),
                "failed": .integer(Int64(reports.reduce(0) { $0 + $1.failedCount })),
                "skipped": .integer(Int64(reports.reduce(0) { $0 + $1.skippedCount })),
                "durationMs": .double((duration * 1000 * 10).rounded() / 10),
                "sessions": .array(reports.map { jsonObject($0, showSecrets: showSecrets) }),
            ]
            return JSONWriter.string(.dictionary(root), indent: 2) + "\n"
        }
    }

    /// `3 files, 12 requests: 2 files passed, 1 failed in 340 ms`.
    public static func batchSummary(_ reports: [ReplayReport], duration: Double) -> String {
        let requests = reports.reduce(0) { $0 + $1.outcomes.count }
        let passed = reports.count { $0.passed }
        return "\(reports.count) file\(reports.count == 1 ? "" : "s"), \(requests) request\(requests == 1 ? "" : "s"): "
            + "\(passed) file\(passed == 1 ? "" : "s") passed, \(reports.count - passed) failed in \(milliseconds(duration)) ms"
    }

    /// The line `--test` prints for one file: `a.tincan.yaml: passed (3 requests in 120 ms)`.
    public static func testLine(_ report: ReplayReport) -> String {
        let count = "\(report.outcomes.count) request\(report.outcomes.count == 1 ? "" : "s")"
        let detail = report.passed ? count : "\(report.failedCount) of \(count) failed" + (report.skippedCount > 0 ? ", \(report.skippedCount) skipped" : "")
        return "\(report.file): \(report.passed ? "passed" : "failed") (\(detail) in \(milliseconds(report.duration)) ms)"
    }

    /// Text for an attribute or element of the JUnit report: the core's XML escaping, after
    /// control characters other than newline and tab (forbidden in XML 1.0, even escaped) become `?`.
    static func xml(_ text: String) -> String {
        var allowed = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            allowed.append(scalar.value < 0x20 && scalar != "\n" && scalar != "\t" ? "?" : scalar)
        }
        return XMLTree.escape(String(allowed), quote: true)
    }

    static func captureText(_ name: String, _ value: ParameterValue, showSecrets: Bool) -> String {
        guard showSecrets || !Redaction.isSecret(name: name) else { return Redaction.mask }
        return Predicate.show(value)
    }

    static func milliseconds(_ seconds: Double) -> String {
        let value = seconds * 1000
        return value < 10 ? DecimalText.fixed(value, decimals: 1) : String(Int(value.rounded()))
    }
}
