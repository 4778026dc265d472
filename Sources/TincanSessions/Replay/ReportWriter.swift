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

    static func json(_ report: ReplayReport, showSecrets: Bool) -> String {
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
        return JSONWriter.string(.dictionary(root), indent: 2) + "\n"
    }

    static func junit(_ report: ReplayReport) -> String {
        let seconds = { (value: Double) in String(format: "%.3f", value) }
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output += "<testsuites name=\"tincan replay\" tests=\"\(report.outcomes.count)\" failures=\"\(report.failedCount)\" skipped=\"\(report.skippedCount)\" time=\"\(seconds(report.duration))\">\n"
        output += "  <testsuite name=\"\(xml(report.sessionName))\" file=\"\(xml(report.file))\" tests=\"\(report.outcomes.count)\" failures=\"\(report.failedCount)\" errors=\"0\" skipped=\"\(report.skippedCount)\" time=\"\(seconds(report.duration))\">\n"
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
        output += "  </testsuite>\n</testsuites>\n"
        return output
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
        return value < 10 ? String(format: "%.1f", value) : String(Int(value.rounded()))
    }
}
