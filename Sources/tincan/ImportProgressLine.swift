import Foundation
import Synchronization
import TincanCore
import TincanSessions

/// A progress line on standard error for an import that takes longer than a second, when
/// standard error is a terminal: the import tells it where it stands (``ImportStage``), and a
/// thread of its own draws it a few times a second, so a long parse shows too.
final class ImportProgressLine: Sendable {
    /// How long an import runs before its progress is shown.
    static let delay = Duration.seconds(1)

    private struct State {
        var stage: ImportStage?
        var drawn: String?
        var finished = false
    }

    private let label: String
    private let start = ContinuousClock.now
    private let state = Mutex(State())
    private let stopped = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    private init(label: String) {
        self.label = label
    }

    /// A line for importing `file`, drawing on its own thread; nil when standard error is not a
    /// terminal (a pipe or a CI log gets no progress).
    static func start(importing file: String) -> ImportProgressLine? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        let line = ImportProgressLine(label: (file as NSString).lastPathComponent)
        let thread = Thread { line.drawUntilFinished() }
        thread.name = "import progress"
        thread.start()
        return line
    }

    /// What the import reports; cheap, from any thread.
    var reporter: ImportProgress {
        { [self] stage in state.withLock { $0.stage = stage } }
    }

    /// Stops drawing and clears the line, if one was drawn, before it returns: what is printed
    /// next starts on a clean line.
    func finish() {
        let first = state.withLock { state in
            defer { state.finished = true }
            return !state.finished
        }
        guard first else { return }
        stopped.signal()
        ended.wait()
    }

    private func drawUntilFinished() {
        while stopped.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            let text: String? = state.withLock { state in
                guard !state.finished, let line = Self.text(state.stage, label: label, elapsed: ContinuousClock.now - start), line != state.drawn else { return nil }
                state.drawn = line
                return line
            }
            if let text { StandardError.print("\r\u{1B}[K" + text) }
        }
        if state.withLock({ $0.drawn }) != nil { StandardError.print("\r\u{1B}[K") }
        ended.signal()
    }

    /// The line for a stage once `elapsed` has passed ``delay``; nil before, or before any stage.
    static func text(_ stage: ImportStage?, label: String, elapsed: Duration) -> String? {
        guard elapsed >= delay, let stage else { return nil }
        let seconds = Int(elapsed.components.seconds)
        let what = switch stage {
        case .reading(let bytes): "reading \(RequestPreview.shortSize(Double(bytes)))"
        case .parsing(let bytes): "parsing \(RequestPreview.shortSize(Double(bytes)))"
        case .importing(let requests): "\(RequestPreview.grouped(Int64(requests))) requests"
        case .checking(let done, let total): "checking requests: \(RequestPreview.grouped(Int64(done))) of \(RequestPreview.grouped(Int64(total)))"
        }
        return "tincan: importing \(label): \(what) (\(seconds) s)"
    }
}
