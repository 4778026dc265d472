import Foundation
import TerminalUI
import TestSupport
import Testing
import TincanCore
import struct TincanSessions.DemoAddresses
@testable import TincanTUI

/// States and fabricated core results for driving `update` and rendering without a network.
enum Fixtures {
    static let base = "http://127.0.0.1:8080/"

    /// The welcome state against a fixed base URL, so snapshots do not depend on a port.
    static func welcome(width: Int = 80, height: Int = 24) -> AppState {
        var state = AppState.welcome(demo: DemoAddresses(plain: String(base.dropLast())), width: width, height: height)
        // The machine's proxy variables must not reach what the tests see.
        state.proxyEnvironment = ProxyEnvironment()
        state.refreshPreview()
        return state
    }

    /// Renders the welcome state at `size` after `apply`, and compares it with the golden file
    /// `NAME-WxH` under Snapshots/ (a missing one is recorded, and the test fails).
    static func verifySnapshot(_ name: String, size: (Int, Int), _ apply: (inout AppState) -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        var state = welcome(width: size.0, height: size.1)
        apply(&state)
        let buffer = Renderer.render(&state)
        if let problem = Snapshot.verify(buffer, named: "\(name)-\(size.0)x\(size.1)") {
            Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
        }
    }

    /// Starts `initial` in the real run loop on a thread of its own over `terminal`, at once; the
    /// final state comes out of the stream when the loop ends. (An `async let` started the thread
    /// only once the cooperative pool had a thread free, which a busy suite kept from it for 20 s.)
    static func runLoop(_ initial: AppState, on terminal: MemoryTerminal, managers: ManagerPool) -> AsyncStream<AppState> {
        let runner = AppRunner(terminal: terminal, managers: managers)
        let (final, ended) = AsyncStream.makeStream(of: AppState.self)
        Thread {
            ended.yield(runner.run(initial))
            ended.finish()
        }.start()
        return final
    }

    /// Sends keys and paste events through `update`, collecting the effects; file work is done
    /// and answered after each key, as the runner does it before the next key
    /// (``AppRunner/answeringFileWork(_:in:)``), and the preview's files are read at once (the
    /// runner reads them off the UI thread and answers a moment later).
    @discardableResult
    static func press(_ keys: [InputEvent], into state: inout AppState) -> [Effect] {
        keys.flatMap { key in answering(state.update(.input(key)), in: &state) }
    }

    /// `effects` with their file work answered as the runner answers it, the preview's files
    /// read at once, and what the answers asked for after them.
    static func answering(_ effects: [Effect], in state: inout AppState) -> [Effect] {
        var all = AppRunner.answeringFileWork(effects, in: &state)
        var next = 0
        while next < all.count {
            if case let .readPreviewFiles(checks) = all[next] {
                let answers = AppRunner.previewFileAnswers(checks)
                if !answers.isEmpty { all += AppRunner.answeringFileWork(state.update(.previewFilesRead(answers)), in: &state) }
            }
            next += 1
        }
        return all
    }

    /// Sends keys and paste events through `update` alone, collecting the effects: nothing is
    /// carried out, so a test sees the file work `update` asks for and the state before its answer.
    @discardableResult
    static func pressWithoutRunner(_ keys: [InputEvent], into state: inout AppState) -> [Effect] {
        keys.flatMap { state.update(.input($0)) }
    }

    /// Key events that type text.
    static func typing(_ text: String) -> [InputEvent] {
        text.map { .key(.char($0)) }
    }

    /// A response as the demo server would send it, validated by the state's serializer.
    static func result(for request: HTTPRequest, status: Int, contentType: String, body: String, serializer: any ResponseSerializer = CompoundResponseSerializer(), milliseconds: Int = 12) -> TaskResult {
        let response = HTTPResponse(url: request.url, statusCode: status, headers: HTTPHeaders([("Content-Type", contentType), ("Content-Length", String(body.utf8.count)), ("Server", "tincan-demo")]))
        let data = Array(body.utf8)
        return TaskResult(
            request: request,
            response: response,
            data: data,
            serialization: serializer.serialize(response, data: data, request: request),
            metrics: TaskMetrics(connect: .milliseconds(2), firstByte: .milliseconds(milliseconds - 2), total: .milliseconds(milliseconds), requestCount: 1)
        )
    }

    /// Presses send and answers it with a result, as the runner would.
    static func send(_ state: inout AppState, status: Int = 200, contentType: String = "application/json", body: String) {
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, plan)? = effects.first else { fatalError("send produced \(effects)") }
        _ = state.update(.task(exchange: id, .resumed, at: 0.001))
        _ = state.update(.task(exchange: id, .requestSent(request), at: 0.002))
        _ = state.update(.task(exchange: id, .downloadProgress(TransferProgress(completed: Int64(body.utf8.count), expected: Int64(body.utf8.count))), at: 0.010))
        _ = state.update(.task(exchange: id, .completed(result(for: request, status: status, contentType: contentType, body: body, serializer: plan.options.responseSerializer)), at: 0.012))
    }

    static let userJSON = """
    {"id": 42, "name": "Ada Lovelace", "email": null, "admin": true, "score": 99.5, "tags": ["math", "engines"], "address": {"city": "London", "zip": "W1"}}
    """
}

extension AppState {
    /// Reads the files the preview's request names, as the runner does after a change, and
    /// applies the answer: for tests that change the state by direct calls.
    mutating func readPreviewFiles() {
        guard let check = previewFiles.checkEffect(afterAnswer: false) else { return }
        _ = Fixtures.answering([check], in: &self)
    }

    /// Saves as F6 does, with the runner's answer applied: for tests that save in the middle of
    /// a script of direct calls.
    mutating func saveNow(to path: String? = nil) {
        save(to: path)
        let queued = queuedEffects
        queuedEffects = []
        _ = AppRunner.answeringFileWork(queued, in: &self)
    }
}
