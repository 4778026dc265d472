import Foundation
import OrderedCollections
import Synchronization
import TincanCore

/// Renders a finished task as text or as the contract's JSON, and picks the exit code.
enum ResponseReport {
    /// 0 valid, 3 validation failed, 4 transport error, 5 not decodable.
    static func exitCode(_ result: TaskResult) -> CLIExitCode {
        if result.transportError != nil { return .transportFailed }
        guard let error = result.serialization?.error else { return .success }
        let validation = error.chain.contains(where: \.isValidationFailure)
        return validation ? .validationFailed : .decodingFailed
    }

    // MARK: - Text

    static func text(_ result: TaskResult) -> String {
        let report = sections(result)
        return report.head + (report.body.map { String(decoding: $0, as: UTF8.self) } ?? "") + report.tail
    }

    /// Writes the text report as `presentation` says: each part to standard output or standard
    /// error, coloured or not, the body formatted or as it came (issue 34 §10). The body is
    /// written from its bytes: a 100 MB body is not copied into a string, nor into the report
    /// around it. Text from the server reaches a terminal only through ``TerminalText``.
    static func write(_ result: TaskResult, presentation: SendPresentation, to output: inout StandardOutput) throws(OutputError) {
        let errorIsTerminal = isatty(STDERR_FILENO) == 1
        var standardError = ""
        let out = presentation.standardOutput
        let err = presentation.standardError
        let colors = presentation.colors
        // What goes to standard error is made safe here, part by part (`safe`), and written with
        // its colours by `StandardError.printControlling`.
        func paint(_ text: String, _ code: String) -> String { colors ? code + text + ANSI.reset : text }
        /// Text from outside, safe for where it goes.
        func safe(_ text: String, terminal: Bool) -> String { terminal || colors ? TerminalText.text(text) : text }

        // The request as sent: its head, then its body.
        if out.request || err.request, let preview = try? RequestPreview.text(result.request) {
            let split = preview.range(of: "\n\n")
            let head = split.map { String(preview[..<$0.lowerBound]) } ?? preview
            let body = split.map { String(preview[$0.upperBound...]) } ?? ""
            func headText(terminal: Bool) -> String {
                head.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
                    let line = safe(String(line), terminal: terminal)
                    if index == 0 { return paint(line, ANSI.bold) }
                    guard let colon = line.firstIndex(of: ":") else { return line }
                    return paint(String(line[..<colon]), ANSI.blue) + String(line[colon...])
                }.joined(separator: "\n") + "\n\n"
            }
            if out.requestHead { try output.write(headText(terminal: presentation.terminal)) }
            if out.requestBody, !body.isEmpty { try output.write(safe(body, terminal: presentation.terminal) + "\n") }
            if err.requestHead { standardError += headText(terminal: errorIsTerminal) }
        }

        var notes: [String] = []
        for hop in result.redirects { notes.append("→ \(hop.statusCode) redirect to \(hop.to.string) (\(hop.method))") }
        let retryNotes = result.retries.map { "↻ \($0)" } + (result.retryNote.map { ["↻ \($0)"] } ?? [])
        notes += retryNotes
        if out.metadata, !notes.isEmpty { try output.write(notes.map { safe($0, terminal: presentation.terminal) }.joined(separator: "\n") + "\n") }
        if err.metadata, !notes.isEmpty {
            standardError += notes.map { safe($0, terminal: errorIsTerminal) }.joined(separator: "\n") + "\n"
        } else if !out.metadata, !retryNotes.isEmpty {
            // Into a pipe the metadata is left out, but a retry is always said, on standard error, as curl says it.
            standardError += retryNotes.map { safe($0, terminal: errorIsTerminal) }.joined(separator: "\n") + "\n"
        }

        if let error = result.transportError {
            // An error is never silent: on standard error whatever --print says.
            standardError += safe("✗ \(result.request.method) \(result.request.url.string): \(error)", terminal: errorIsTerminal) + "\n"
            standardError += timing(result.metrics) + streamNote(result.stream) + "\n"
            StandardError.printControlling(standardError)
            return
        }
        guard let response = result.response else {
            if !standardError.isEmpty { StandardError.printControlling(standardError) }
            return
        }

        func responseHead(terminal: Bool) -> String {
            let status = paint(safe(response.statusLine, terminal: terminal), ANSI.bold + ANSI.status(response.statusCode))
            let fields = response.headers.map { paint(safe($0.name, terminal: terminal), ANSI.blue) + ": " + TerminalText.line($0.value) }
            return ([status] + fields).joined(separator: "\n") + "\n\n"
        }
        if out.responseHead { try output.write(responseHead(terminal: presentation.terminal)) }
        if err.responseHead { standardError += responseHead(terminal: errorIsTerminal) }

        if out.responseBody, let body = shownBody(result, presentation) {
            try output.write(body)
            if presentation.terminal || out.metadata, body.last != UInt8(ascii: "\n") { try output.write("\n") }
        }

        var metadata: [String] = []
        if let download = result.download { metadata.append(downloadText(download)) }
        var chain: [String] = []
        if let error = result.serialization?.error {
            for (depth, link) in error.chain.enumerated() {
                let lead = depth == 0 ? "✗ " : String(repeating: "  ", count: depth) + "↳ underlying: "
                chain.append("\(lead)\(link.message) [\(link.domain) \(link.code)]")
            }
        }
        var summary = timing(result.metrics) + ", \(RequestPreview.byteCount(result.stream?.bytes ?? result.download?.bytesWritten ?? Int64(result.data.count)))"
        summary += streamNote(result.stream)
        if let cache = result.cache { summary += ", " + cacheText(cache) }
        func metadataText(terminal: Bool) -> String {
            var lines = metadata.map { safe($0, terminal: terminal) }
            if !chain.isEmpty { lines += [""] + chain.map { paint(safe($0, terminal: terminal), ANSI.red) } }
            lines += ["", paint(summary, ANSI.dim)]
            return (out.responseHead || out.responseBody ? "" : "") + lines.joined(separator: "\n") + "\n"
        }
        if out.metadata {
            try output.write(metadataText(terminal: presentation.terminal))
        } else if err.metadata {
            standardError += metadataText(terminal: errorIsTerminal)
        } else if !chain.isEmpty || result.download != nil {
            // What failed, and where a download went, are said even when only the body is printed.
            standardError += (metadata + chain).map { safe($0, terminal: errorIsTerminal) }.joined(separator: "\n") + "\n"
        }
        if !standardError.isEmpty { StandardError.printControlling(standardError) }
    }

    /// The body as `presentation` prints it: decoded and indented (``bodyBytes(_:)``), or the
    /// bytes as they came; on a terminal, text only (binary is a note) through ``TerminalText``,
    /// coloured when it is JSON and colours are on. Nil for no body.
    static func shownBody(_ result: TaskResult, _ presentation: SendPresentation) -> [UInt8]? {
        if result.download != nil { return nil }
        var body: [UInt8]
        if presentation.formats {
            guard let formatted = bodyBytes(result) else { return nil }
            body = formatted
        } else {
            guard !result.data.isEmpty else { return nil }
            guard presentation.terminal || presentation.colors else { return result.data }
            body = text(of: result.data, charset: result.response?.textEncodingName)
        }
        if presentation.terminal || presentation.colors { body = TerminalText.bytes(body) }
        let isJSON = if case .json? = result.serialization?.body { true } else { result.response?.mimeType?.contains("json") == true }
        if presentation.colors, isJSON { body = ANSI.json(body) }
        return body
    }

    /// The text report in three parts: the lines before the body, the body as UTF-8 (nil when
    /// there is none to show), and the lines after it, each part ending its last line.
    private static func sections(_ result: TaskResult) -> (head: String, body: [UInt8]?, tail: String) {
        var lines: [String] = []
        for hop in result.redirects {
            lines.append("→ \(hop.statusCode) redirect to \(hop.to.string) (\(hop.method))")
        }
        for reason in result.retries { lines.append("↻ \(reason)") }
        if let note = result.retryNote { lines.append("↻ \(note)") }
        if let error = result.transportError {
            lines.append("✗ \(result.request.method) \(result.request.url.string): \(error)")
            lines.append(timing(result.metrics) + streamNote(result.stream))
            return (lines.joined(separator: "\n") + "\n", nil, "")
        }
        guard let response = result.response else { return ("", nil, "") }
        // A streamed body's head was shown when the stream started.
        if result.stream == nil { lines += headLines(response) + [""] }
        if let download = result.download { lines.append(downloadText(download)) }
        var after: [String] = []
        if let error = result.serialization?.error {
            after.append("")
            for (depth, link) in error.chain.enumerated() {
                let lead = depth == 0 ? "✗ " : String(repeating: "  ", count: depth) + "↳ underlying: "
                after.append("\(lead)\(link.message) [\(link.domain) \(link.code)]")
            }
        }
        after.append("")
        var summary = timing(result.metrics) + ", \(RequestPreview.byteCount(result.stream?.bytes ?? result.download?.bytesWritten ?? Int64(result.data.count)))"
        summary += streamNote(result.stream)
        if let cache = result.cache { summary += ", " + cacheText(cache) }
        after.append(summary)
        guard let body = bodyBytes(result) else { return ((lines + after).joined(separator: "\n") + "\n", nil, "") }
        // The lines joined by line feeds as one list would be, the body one of them.
        return (lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n", body, "\n" + after.joined(separator: "\n") + "\n")
    }

    /// `, 3 events streamed` after the timing, for a body streamed as events or lines.
    static func streamNote(_ stream: StreamSummary?) -> String {
        guard let stream, stream.format != .bytes else { return "" }
        return ", \(stream.count) \(stream.format == .eventStream ? "event" : "line")\(stream.count == 1 ? "" : "s") streamed"
    }

    /// The status line and the header fields, one a line.
    static func headLines(_ response: HTTPResponse) -> [String] {
        [response.statusLine] + response.headers.map { "\($0.name): \($0.value)" }
    }

    static func downloadText(_ download: DownloadResult) -> String {
        if download.alreadyComplete { return "✓ \(download.path) was already complete" }
        guard download.completed else {
            guard download.bytesWritten > 0 else { return "✗ nothing saved to \(download.path)" }
            // A device or a pipe is written in place: there is no partial file to continue.
            guard download.partialPath != download.path else { return "✗ incomplete: only \(RequestPreview.byteCount(download.bytesWritten)) reached \(download.path)" }
            return "✗ incomplete: \(download.partialPath) keeps \(RequestPreview.byteCount(download.bytesWritten)); run again with --continue"
        }
        var text = "✓ saved \(RequestPreview.byteCount(download.bytesWritten)) to \(download.path)"
        if let offset = download.resumedFrom { text += " (resumed after \(RequestPreview.byteCount(offset)))" }
        if download.restarted { text += " (the server sent it whole again, so the download restarted)" }
        return text
    }

    static func cacheText(_ outcome: CacheOutcome) -> String {
        switch outcome {
        case .hit(let age): "from the cache (age \(DecimalText.fixed(age, decimals: 0)) s)"
        case .revalidating: "revalidated"
        case .notModified: "not modified (304), from the cache"
        case .stored: "stored in the cache"
        }
    }

    /// The body as the text report shows it, in UTF-8: decoded values written out, text as it
    /// came (converted from its charset), binary as a note of its size; nil for no body.
    static func bodyBytes(_ result: TaskResult) -> [UInt8]? {
        switch result.serialization?.body ?? .none {
        case .json(let document): return document.bytes(indent: 2)
        case .propertyList(let value): return JSONWriter.bytes(value, indent: 2)
        case .xml(let tree): return Array(tree.indented().utf8)
        case .image(let info): return Array("<\(info), \(RequestPreview.byteCount(Int64(result.data.count)))>".utf8)
        case .data(let bytes):
            return text(of: bytes, charset: result.response?.textEncodingName)
        case .none:
            guard !result.data.isEmpty else { return nil }
            return text(of: result.data, charset: result.response?.textEncodingName)
        }
    }

    /// A body that is text in its charset, as its UTF-8 bytes; otherwise a note of its size.
    private static func text(of bytes: [UInt8], charset: String?) -> [UInt8] {
        let shown = TextEncoding.forDisplay(bytes, charset: charset)
        if RequestPreview.isText(shown) { return shown }
        return Array("<binary body: \(RequestPreview.byteCount(Int64(bytes.count)))>".utf8)
    }

    static func timing(_ metrics: TaskMetrics) -> String {
        var parts: [String] = []
        if let connect = metrics.connect { parts.append("connect \(milliseconds(connect))") }
        if let firstByte = metrics.firstByte { parts.append("first byte \(milliseconds(firstByte))") }
        parts.append("total \(milliseconds(metrics.total))")
        return parts.joined(separator: ", ")
    }

    static func milliseconds(_ duration: Duration) -> String {
        DecimalText.fixed(duration.inMilliseconds, decimals: 1) + " ms"
    }

    // MARK: - JSON

    static func json(_ result: TaskResult, to output: inout StandardOutput) throws {
        try output.write("{\"request\":")
        try RequestJSON.write(result.request, to: &output, terminator: "")
        if let response = result.response {
            let fields: OrderedValues = [
                "status": .integer(Int64(response.statusCode)),
                "version": .string(response.version.description),
                "headers": .array(response.headers.fields.map { .array([.string($0.name), .string($0.value)]) }),
                "mimeType": response.mimeType.map(ParameterValue.string) ?? .null,
                "bytes": .integer(result.stream?.bytes ?? Int64(result.data.count)),
            ]
            // The members up to the body, then the body (a text body escaped from its bytes,
            // never made a string), then what follows it.
            try output.write(",\"response\":")
            try output.write(Array(JSONWriter.bytes(.dictionary(fields)).dropLast()))
            try output.write(",\"body\":")
            switch result.serialization?.body ?? .none {
            case .json(let document): try output.write(document.bytes())
            case .propertyList(let value): try output.write(JSONWriter.bytes(value))
            case .xml(let tree): try output.write(JSONWriter.bytes(.string(tree.indented())))
            case .image(let info): try output.write(JSONWriter.bytes(.string(info.description)))
            case .data(let bytes):
                let shown = TextEncoding.forDisplay(bytes, charset: response.textEncodingName)
                if RequestPreview.isText(shown) {
                    try writeQuoted(shown, to: &output)
                } else {
                    try output.write(JSONWriter.bytes(.string("<binary body: \(bytes.count) bytes>")))
                }
            case .none: try output.write("null")
            }
            if let stream = result.stream {
                try output.write(",\"stream\":")
                try output.write(JSONWriter.bytes(streamObject(stream)))
            }
            try output.write("}")
        } else {
            try output.write(",\"response\":null")
        }
        var object = OrderedValues()
        let error = result.serialization?.error
        object["validation"] = ["valid": .bool(error == nil && result.transportError == nil), "errors": .array(error.map { [errorObject($0)] } ?? [])]
        if let transport = result.transportError {
            object["transportError"] = ["message": .string(transport.description)]
        }
        if let download = result.download {
            object["download"] = [
                "path": .string(download.path),
                "completed": .bool(download.completed),
                "bytesWritten": .integer(download.bytesWritten),
                "resumedFrom": download.resumedFrom.map(ParameterValue.integer) ?? .null,
                "restarted": .bool(download.restarted),
                "alreadyComplete": .bool(download.alreadyComplete),
            ]
        }
        object["redirects"] = .array(result.redirects.map {
            ["status": .integer(Int64($0.statusCode)), "from": .string($0.from.string), "to": .string($0.to.string), "method": .string($0.method)]
        })
        object["retries"] = .array(result.retries.map(\.reportValue))
        object["retryNote"] = result.retryNote.map(ParameterValue.string) ?? .null
        var timing = OrderedValues()
        if let connect = result.metrics.connect { timing["connectMs"] = .double((connect.inMilliseconds * 1000).rounded() / 1000) }
        if let firstByte = result.metrics.firstByte { timing["firstByteMs"] = .double((firstByte.inMilliseconds * 1000).rounded() / 1000) }
        timing["totalMs"] = .double((result.metrics.total.inMilliseconds * 1000).rounded() / 1000)
        timing["requests"] = .integer(Int64(result.metrics.requestCount))
        object["timing"] = .dictionary(timing)
        var rest = JSONWriter.bytes(.dictionary(object))
        rest[0] = UInt8(ascii: ",")
        try output.write(rest)
        try output.write("\n")
    }

    /// Writes UTF-8 text as a JSON string literal, escaped a mebibyte at a time: only ASCII
    /// bytes are escaped, so a cut inside a character changes nothing, and a 100 MB body takes
    /// no second copy.
    private static func writeQuoted(_ text: [UInt8], to output: inout StandardOutput) throws(OutputError) {
        try output.write([UInt8(ascii: "\"")])
        var escaped: [UInt8] = []
        var start = 0
        while start < text.count {
            let end = min(start + (1 << 20), text.count)
            escaped.removeAll(keepingCapacity: true)
            JSONWriter.appendEscaped(Array(text[start..<end]), to: &escaped)
            try output.write(escaped)
            start = end
        }
        try output.write([UInt8(ascii: "\"")])
    }

    /// What a streamed body kept: `{"format", "events", "first", "last"}`, each event's data.
    static func streamObject(_ stream: StreamSummary) -> ParameterValue {
        [
            "format": .string(stream.format.rawValue),
            "events": .integer(Int64(stream.count)),
            "first": stream.first.map { .string($0.data) } ?? .null,
            "last": stream.last.map { .string($0.data) } ?? .null,
        ]
    }

    static func errorObject(_ error: ResponseSerializationError) -> ParameterValue {
        [
            "domain": .string(error.domain),
            "code": .integer(Int64(error.code)),
            "message": .string(error.message),
            "underlying": error.underlying.map { errorObject($0.error) } ?? .null,
        ]
    }
}

typealias OrderedValues = OrderedDictionary<String, ParameterValue>


/// A live progress line on standard error: bytes, rate and time left, upload and download.
final class ProgressLine: Sendable {
    private let start = ContinuousClock.now
    /// The bytes already done when each direction was first seen (a resumed download), so the rate counts only this run's.
    private let baselines = Mutex<[String: Int64]>([:])

    func show(_ event: TaskEvent) {
        switch event {
        case .uploadProgress(let progress): draw("↑", progress)
        case .downloadProgress(let progress): draw("↓", progress)
        default: break
        }
    }

    func clear() {
        StandardError.printControlling("\r\u{1B}[K")
    }

    private func draw(_ arrow: String, _ progress: TransferProgress) {
        let elapsed = max((ContinuousClock.now - start).inSeconds, 0.001)
        let baseline = baselines.withLock { baselines in
            if baselines[arrow] == nil { baselines[arrow] = progress.completed }
            return baselines[arrow] ?? 0
        }
        let rate = Double(progress.completed - baseline) / elapsed
        var text = "\r\u{1B}[K\(arrow) \(RequestPreview.shortSize(Double(progress.completed)))"
        if let expected = progress.expected, let fraction = progress.fractionCompleted {
            let width = 20
            let filled = Int(fraction * Double(width))
            text += " / \(RequestPreview.shortSize(Double(expected))) [" + String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled) + "]"
            if rate > 0 { text += " ETA \(Int((Double(expected - progress.completed) / rate).rounded()))s" }
        }
        text += " \(RequestPreview.shortSize(rate))/s"
        StandardError.printControlling(text)
    }
}
