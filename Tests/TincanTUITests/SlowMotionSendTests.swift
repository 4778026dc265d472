import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanDemoServer
import TincanSessions
@testable import TincanTUI

private let altP = InputEvent.key(.alt("p"))

/// A welcome state stepped through build and serialize, its send handed to the runner: the
/// exchange id and the request the effect carries.
private func slowMotionSent(_ state: inout AppState) throws -> (Int, HTTPRequest) {
    Fixtures.press([altP, altP], into: &state)
    let effects = Fixtures.press([altP], into: &state)
    guard case let .send(id, request, plan)? = effects.first else {
        Issue.record("the third alt+p sent nothing: \(effects)")
        throw CancellationError()
    }
    #expect(plan.slowMotion)
    return (id, request)
}

/// Whether `effects` is only a step of exchange `id`.
private func onlySteps(_ effects: [Effect], _ id: Int) -> Bool {
    guard effects.count == 1, case let .stepSend(stepped) = effects[0] else { return false }
    return stepped == id
}

@Suite("A slow-motion send in the TUI (alt+p)")
struct SlowMotionSendTests {
    @Test("alt+p stops before build, then serialize, and only then hands a slow-motion send to the runner")
    func frontEndStagesAreSteppedByHand() throws {
        var state = Fixtures.welcome()
        #expect(Fixtures.press([altP], into: &state).isEmpty)
        #expect(state.slowMotion?.waiting == .build)
        #expect(state.previewView == .explain)
        #expect(state.status?.text.contains("stopped before build") == true)
        // The Explain view marks the step the stage is about.
        #expect(state.previewBoxLines(width: 80).contains { $0.map(\.text).joined().contains("▶ URL") })

        #expect(Fixtures.press([altP], into: &state).isEmpty)
        #expect(state.slowMotion?.passed == [.build])
        #expect(state.slowMotion?.waiting == .serialize)
        #expect(state.exchange == nil, "nothing is sent before serialize")

        let effects = Fixtures.press([altP], into: &state)
        guard case let .send(id, request, plan)? = effects.first else {
            Issue.record("serialize sent nothing: \(effects)")
            return
        }
        #expect(plan.slowMotion)
        #expect(state.slowMotion?.phase == .sending(exchange: id))
        #expect(state.slowMotion?.passed == [.build, .serialize])
        #expect(request.method == "GET")
    }

    @Test("each stop the core reports is shown, and alt+p lets it go on; callbacks are listed as they fire")
    func coreStopsAreStepped() throws {
        var state = Fixtures.welcome()
        let (id, request) = try slowMotionSent(&state)
        _ = state.update(.stageWaiting(exchange: id, .connect, at: 0.001))
        #expect(state.slowMotion?.waiting == .connect)
        #expect(state.status?.text.contains("stopped before connect") == true)
        #expect(onlySteps(Fixtures.press([altP], into: &state), id))
        #expect(state.slowMotion?.waiting == nil)
        // Between stops a key does nothing but say so.
        #expect(Fixtures.press([altP], into: &state).isEmpty)

        _ = state.update(.task(exchange: id, .resumed, at: 0.002))
        _ = state.update(.task(exchange: id, .requestSent(request), at: 0.003))
        _ = state.update(.stageWaiting(exchange: id, .responseHead, at: 0.004))
        #expect(state.slowMotion?.mark(of: .requestHead) == .passed)
        #expect(state.slowMotion?.mark(of: .responseHead) == .current)
        #expect(onlySteps(Fixtures.press([altP], into: &state), id))
        let response = HTTPResponse(url: request.url, statusCode: 200, headers: HTTPHeaders([("Content-Type", "application/json")]))
        _ = state.update(.task(exchange: id, .responseHead(response), at: 0.005))
        let names = state.slowMotion?.callbacks.map(\.name) ?? []
        #expect(names.contains("URLSession:dataTask:didReceiveResponse:completionHandler:"))
        #expect(state.slowMotion?.callbacks.last?.detail == "200 OK")

        let result = Fixtures.result(for: request, status: 200, contentType: "application/json", body: "{}")
        _ = state.update(.task(exchange: id, .completed(result), at: 0.010))
        #expect(state.slowMotion?.phase == .finished)
        #expect(state.slowMotion?.callbacks.last?.name == "URLSession:task:didCompleteWithError:")
        #expect(state.status?.text.hasPrefix("Slow motion done: 200 OK") == true)
        // Once done, alt+p puts the response back.
        #expect(Fixtures.press([altP], into: &state).isEmpty)
        #expect(state.slowMotion == nil)
    }

    @Test("ctrl+g before the send reaches the core ends slow motion; after, it cancels the task")
    func cancelEndsSlowMotion() throws {
        var state = Fixtures.welcome()
        Fixtures.press([altP, altP], into: &state)
        #expect(Fixtures.press([.key(.ctrl("g"))], into: &state).isEmpty)
        #expect(state.slowMotion == nil)

        let (id, _) = try slowMotionSent(&state)
        _ = state.update(.stageWaiting(exchange: id, .responseBody, at: 0.001))
        let effects = Fixtures.press([.key(.ctrl("g"))], into: &state)
        guard effects.count == 1, case let .cancel(cancelled) = effects[0] else {
            Issue.record("ctrl+g did not cancel: \(effects)")
            return
        }
        #expect(cancelled == id)
    }

    @Test("a stop of a send that is no longer current changes nothing")
    func staleStopsAreIgnored() throws {
        var state = Fixtures.welcome()
        let (id, _) = try slowMotionSent(&state)
        _ = state.update(.stageWaiting(exchange: id + 7, .connect, at: 0.001))
        #expect(state.slowMotion?.waiting == nil)
    }

    @Test("the response box shows the stages and the callbacks at 80x24 and 120x40", arguments: [(80, 24), (120, 40)])
    func snapshot(width: Int, height: Int) {
        Fixtures.verifySnapshot("slow-motion", size: (width, height)) { state in
            guard let (id, request) = try? slowMotionSent(&state) else { return }
            _ = state.update(.stageWaiting(exchange: id, .connect, at: 0.001))
            _ = state.update(.input(altP))
            _ = state.update(.task(exchange: id, .resumed, at: 0.002))
            _ = state.update(.task(exchange: id, .requestSent(request), at: 0.003))
            let response = HTTPResponse(url: request.url, statusCode: 200, headers: HTTPHeaders([("Content-Type", "application/json")]))
            _ = state.update(.stageWaiting(exchange: id, .responseHead, at: 0.004))
            _ = state.update(.input(altP))
            _ = state.update(.task(exchange: id, .responseHead(response), at: 0.005))
            _ = state.update(.stageWaiting(exchange: id, .responseBody, at: 0.006))
        }
    }
}

@Suite("A slow-motion send through the real run loop")
struct SlowMotionRunLoopTests {
    @Test("alt+p steps a real send to the demo server stop by stop, to its response")
    func stepsARealSend() async throws {
        let directory = try TemporaryDirectory()
        try await withDemoServer { server in
            let yaml = "base: \(server.baseURL)\nrequests:\n  - name: post\n    method: POST\n    url: /post\n    params:\n      name: Ann\n"
            let path = try directory.write("slow.tincan.yaml", Array(yaml.utf8))
            var state = AppState(width: 120, height: 40)
            state.open(Workspace(session: try Session.load(path: path), path: path))
            let terminal = MemoryTerminal(width: 120, height: 40)
            let managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
            let final = RunLoopTests().start(state, on: terminal, managers: managers)
            var missed: [String] = []
            for stage in ["build", "serialize", "connect", "request body", "response head", "response body", "validate", "decode"] {
                terminal.type([altP])
                if !(await terminal.waitFor("stopped before \(stage):")) { missed.append(stage) }
            }
            terminal.type([altP])
            let done = await terminal.waitFor("Slow motion done: 200 OK")
            let screen = terminal.text
            terminal.type([.key(KeyEvent(.function(10)))])
            let last = try #require(await final.first { _ in true })
            await managers.invalidateAll()
            #expect(missed.isEmpty, "never stopped before \(missed):\n\(screen)")
            #expect(done, "\(screen)")
            #expect(screen.contains("URLSession:task:didComp"), "\(screen)")
            let callbacks = last.slowMotion?.callbacks.map(\.name) ?? []
            #expect(callbacks.contains("URLSession:task:didSendBodyData:totalBytesSent:totalBytesExpectedToSend:"))
            #expect(callbacks.contains("URLSession:dataTask:didReceiveData:"))
            #expect(callbacks.last == "URLSession:task:didCompleteWithError:")
            #expect(last.exchange?.result?.response?.statusCode == 200)
        }
    }
}
