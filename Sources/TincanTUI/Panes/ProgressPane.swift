import Foundation
import TerminalUI
import TincanCore

/// Upload and download progress bars, fed by the task's progress events: bytes, rate and ETA.
enum ProgressPane {
    static func draw(_ buffer: inout ScreenBuffer, _ rows: [Rect], _ state: AppState) {
        guard let exchange = state.exchange else { return }
        var meters: [(String, TransferMeter)] = []
        if exchange.upload.progress != nil { meters.append(("↑ upload  ", exchange.upload)) }
        if exchange.download.progress != nil { meters.append(("↓ download", exchange.download)) }
        for (rect, (label, meter)) in zip(rows, meters) {
            draw(&buffer, rect, label: label, meter: meter, state: state)
        }
    }

    /// How a transfer ended, for its bar: still going, done, cancelled or failed.
    enum Outcome: Sendable, Equatable {
        case running, done, cancelled, failed
    }

    /// How the exchange's transfers ended (issue 34 §7): a bar reads `done` only when the send
    /// succeeded, and then is full.
    static func outcome(of exchange: Exchange) -> Outcome {
        switch exchange.phase {
        case .sending: return .running
        case .cancelled: return .cancelled
        case .finished:
            if let error = exchange.result?.transportError { return error.reason == .cancelled ? .cancelled : .failed }
            return exchange.result == nil ? .failed : .done
        }
    }

    private static func draw(_ buffer: inout ScreenBuffer, _ rect: Rect, label: String, meter: TransferMeter, state: AppState) {
        guard let progress = meter.progress, let exchange = state.exchange else { return }
        let theme = state.theme
        buffer.fill(rect, style: theme.style(.base))
        let outcome = outcome(of: exchange)
        let facts = text(progress: progress, meter: meter, outcome: outcome)
        let labelWidth = buffer.write(" \(label) ", x: rect.x, y: rect.y, style: theme.style(.label))
        let factsWidth = TextWidth.of(facts)
        let barWidth = max(0, rect.width - labelWidth - factsWidth - 2)
        // Done is whole, even when the length was not known; a transfer that stopped shows where.
        let fraction = outcome == .done ? 1 : progress.fractionCompleted ?? (outcome == .running ? nil : 0)
        let bar = ProgressBar(fraction: fraction, phase: Int(state.now * 10))
        let stopped = outcome == .cancelled || outcome == .failed
        bar.render(into: &buffer, at: Rect(x: rect.x + labelWidth, y: rect.y, width: barWidth, height: 1),
                   filled: theme.style(stopped ? .warning : .progressFilled), empty: theme.style(.progressEmpty))
        buffer.write(" " + facts, x: rect.x + labelWidth + barWidth, y: rect.y,
                     style: theme.style(outcome == .failed ? .error : outcome == .cancelled ? .warning : .base), limit: rect.maxX - rect.x - labelWidth - barWidth)
    }

    /// `45%  1.2 MiB / 2.6 MiB  310 KiB/s  ETA 4 s`, then `100% … done`, `26% … cancelled` or
    /// `26% … failed`.
    static func text(progress: TransferProgress, meter: TransferMeter, outcome: Outcome) -> String {
        var parts: [String] = []
        if outcome == .done {
            parts.append("100%")
        } else if let fraction = progress.fractionCompleted {
            parts.append(DecimalText.fixed(fraction * 100, decimals: 0, width: 3) + "%")
        }
        let done = RequestPreview.shortSize(Double(progress.completed))
        parts.append(progress.expected.map { "\(done) / \(RequestPreview.shortSize(Double($0)))" } ?? done)
        if let rate = meter.rate { parts.append("\(RequestPreview.shortSize(rate))/s") }
        switch outcome {
        case .running: if let left = meter.secondsLeft { parts.append("ETA \(duration(left))") }
        case .done: parts.append("done")
        case .cancelled: parts.append("cancelled")
        case .failed: parts.append("failed")
        }
        return parts.joined(separator: "  ")
    }

    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return "\(Int(seconds.rounded(.up))) s" }
        let minutes = Int(seconds) / 60
        return "\(minutes) min \(Int(seconds) % 60) s"
    }
}
