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

    private static func draw(_ buffer: inout ScreenBuffer, _ rect: Rect, label: String, meter: TransferMeter, state: AppState) {
        guard let progress = meter.progress else { return }
        let theme = state.theme
        buffer.fill(rect, style: theme.style(.base))
        let facts = text(progress: progress, meter: meter, finished: state.exchange?.phase != .sending)
        let labelWidth = buffer.write(" \(label) ", x: rect.x, y: rect.y, style: theme.style(.label))
        let factsWidth = TextWidth.of(facts)
        let barWidth = max(0, rect.width - labelWidth - factsWidth - 2)
        let bar = ProgressBar(fraction: progress.fractionCompleted, phase: Int(state.now * 10))
        bar.render(into: &buffer, at: Rect(x: rect.x + labelWidth, y: rect.y, width: barWidth, height: 1), filled: theme.style(.progressFilled), empty: theme.style(.progressEmpty))
        buffer.write(" " + facts, x: rect.x + labelWidth + barWidth, y: rect.y, style: theme.style(.base), limit: rect.maxX - rect.x - labelWidth - barWidth)
    }

    /// `45%  1.2 MiB / 2.6 MiB  310 KiB/s  ETA 4 s`.
    static func text(progress: TransferProgress, meter: TransferMeter, finished: Bool) -> String {
        var parts: [String] = []
        if let fraction = progress.fractionCompleted { parts.append(String(format: "%3.0f%%", fraction * 100)) }
        let done = RequestPreview.shortSize(Double(progress.completed))
        parts.append(progress.expected.map { "\(done) / \(RequestPreview.shortSize(Double($0)))" } ?? done)
        if let rate = meter.rate { parts.append("\(RequestPreview.shortSize(rate))/s") }
        if !finished, let left = meter.secondsLeft { parts.append("ETA \(duration(left))") }
        if finished { parts.append("done") }
        return parts.joined(separator: "  ")
    }

    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return "\(Int(seconds.rounded(.up))) s" }
        let minutes = Int(seconds) / 60
        return "\(minutes) min \(Int(seconds) % 60) s"
    }
}
