import Clocks
import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanDemoServer
import TincanSessions
@testable import TincanTUI

/// The real run loop over an in-memory terminal: keys in, frames out, the core's tasks posting back.
@Suite("The run loop")
struct RunLoopTests {
    /// Opens the session file at `path`, presses ctrl+r, waits for `needle` on the screen, quits,
    /// and returns the final state and the screen.
    /// - Parameters:
    ///   - managers: The pool to send through (a real-clock manager when nil).
    ///   - beforeSending: Done once the app runs, before ctrl+r is pressed.
    private func sendFirstRequest(of path: String, waitingFor needle: String, managers: ManagerPool? = nil,
                                  beforeSending: () async -> Void = {}) async throws -> (AppState, String) {
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        let terminal = MemoryTerminal(width: 120, height: 40)
        let managers = try managers ?? ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        let final = start(state, on: terminal, managers: managers)
        await beforeSending()
        terminal.type([.key(.ctrl("r"))])
        let shown = await terminal.waitFor(needle)
        let screen = terminal.text
        terminal.type([.key(KeyEvent(.function(10)))])
        let ended = try #require(await final.first { _ in true })
        await managers.invalidateAll()
        #expect(shown, "the screen never showed \(needle):\n\(screen)")
        return (ended, screen)
    }

    /// A session for `server` with `security` under its defaults, in `directory`.
    private func session(for server: DemoServer, security: String, in directory: TemporaryDirectory) throws -> String {
        let yaml = "base: \(server.baseURL)\ndefaults:\n  security:\n\(security)requests:\n  - name: one\n    url: /get\n"
        return try directory.write("tls.tincan.yaml", Array(yaml.utf8))
    }

    @Test("a send trusts the CA file the session names")
    func sessionCAFileIsTrusted() async throws {
        let certificate = try TestCertificate.selfSigned()
        let directory = try TemporaryDirectory()
        try directory.write("ca.pem", Array(certificate.certificatePEM.utf8))
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let path = try session(for: server, security: "    ca-file: ca.pem\n", in: directory)
            let (state, screen) = try await sendFirstRequest(of: path, waitingFor: "200 OK in")
            #expect(state.exchange?.result?.response?.statusCode == 200, "\(screen)")
            #expect(screen.contains("\"url\": \"https://127.0.0.1:"), "the demo server echoes the scheme it was reached by: \(screen)")
        }
    }

    @Test("a stream's events are listed while it still arrives (issue 18 §4)")
    func streamListedLive() async throws {
        let directory = try TemporaryDirectory()
        try await withDemoServer { server in
            // 100 events 500 ms apart: 50 s, so the third is listed (from 1 s, for some 7 s, until
            // newer ones push it out of the box) long before the end.
            let yaml = "base: \(server.baseURL)\nrequests:\n  - name: events\n    url: /sse?count=100&delay=500&event=tick\n"
            let path = try directory.write("sse.tincan.yaml", Array(yaml.utf8))
            let (state, screen) = try await sendFirstRequest(of: path, waitingFor: "3 tick {\"n\": 3")
            #expect(screen.contains(" events · streaming…"), "\(screen)")
            #expect((state.exchange?.stream?.count ?? 0) >= 3)
        }
    }

    @Test("a WebSocket request lists its frames live; a typed message is sent and its echo listed; ctrl+g closes with 1000 (issue 39 §3)")
    func webSocketConversation() async throws {
        let directory = try TemporaryDirectory()
        try await withDemoServer { server in
            let yaml = "base: \(server.baseURL)\nrequests:\n  - name: echo\n    url: /ws\n    websocket:\n      messages: [first]\n"
            let path = try directory.write("ws.tincan.yaml", Array(yaml.utf8))
            var state = AppState(width: 120, height: 40)
            state.open(Workspace(session: try Session.load(path: path), path: path))
            let terminal = MemoryTerminal(width: 120, height: 40)
            let managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
            let final = start(state, on: terminal, managers: managers)
            terminal.type([.key(.ctrl("r"))])
            let opened = await terminal.waitFor("← text first")
            // The send key on the open connection asks for the next message.
            terminal.type([.key(.ctrl("r"))] + "typed".map { .key(.char($0)) } + [.key(KeyEvent(.enter)), .key(KeyEvent(.escape))])
            let echoed = await terminal.waitFor("← text typed")
            terminal.type([.key(.ctrl("g"))])
            let closed = await terminal.waitFor("frames · closed")
            let screen = terminal.text
            terminal.type([.key(KeyEvent(.function(10)))])
            let ended = try #require(await final.first { _ in true })
            await managers.invalidateAll()
            #expect(opened && echoed && closed, "\(screen)")
            #expect(screen.contains("→ close 1000") && screen.contains("← close 1000"), "\(screen)")
            #expect(ended.exchange?.result?.response?.statusCode == 101)
            #expect(ended.exchange?.result?.stream?.count == 2)
        }
    }

    @Test("a send enforces the session's pins")
    func sessionPinsAreEnforced() async throws {
        let certificate = try TestCertificate.selfSigned()
        let directory = try TemporaryDirectory()
        try directory.write("other.der", try TestCertificate.selfSigned().certificateDER)
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let path = try session(for: server, security: "    pins: [other.der]\n", in: directory)
            let (state, screen) = try await sendFirstRequest(of: path, waitingFor: "pin mismatch")
            #expect(state.exchange?.result?.response == nil, "\(screen)")
        }
    }

    @Test("a send after a long idle time starts its clock when it is sent, not at the last tick")
    func theElapsedClockStartsAtTheSend() async throws {
        try await withDemoServer { server in
            let directory = try TemporaryDirectory()
            let path = try directory.write("idle.tincan.yaml", Array("base: \(server.baseURL)\nrequests:\n  - url: /get\n".utf8))
            let clock = TestClock()
            let managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager(), timing: Timing(clock)))
            // Idle, with nothing in flight: no tick moves the app's clock meanwhile.
            let (ended, _) = try await sendFirstRequest(of: path, waitingFor: "200 OK in", managers: managers) {
                await clock.advance(by: .seconds(90))
            }
            let exchange = try #require(ended.exchange)
            // The start is the moment ctrl+r was handled, after the idle spell; a stale start was
            // the last tick before it, the app's first moment, so the clock showed the idle time
            // as sending time. The clock stood still during the send: every milestone is at 90 s.
            #expect(exchange.startedAt == 90, "the send started at \(exchange.startedAt) s, not when ctrl+r was pressed")
            #expect(!exchange.milestones.isEmpty)
            for milestone in exchange.milestones {
                #expect(milestone.at == 90, "\(milestone.event) at \(milestone.at) s, not on the app's clock")
            }
        }
    }

    func start(_ initial: AppState, on terminal: MemoryTerminal, managers: ManagerPool) -> AsyncStream<AppState> {
        Fixtures.runLoop(initial, on: terminal, managers: managers)
    }

    @Test("the state a Startup makes is what the first frame shows, settings problems over it")
    func startupIsTheFirstFrame() async throws {
        var settings = TUISettings(theme: BuiltinThemes.dark)
        settings.problems = ["keymap.yaml:2:1: 'launch' is not an action"]
        let terminal = MemoryTerminal(width: 100, height: 30)
        let managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        let final = start(AppState(Startup(demoServerURL: "http://127.0.0.1:8080", settings: settings)), on: terminal, managers: managers)
        let shown = await terminal.waitFor("Settings not used")
        let screen = terminal.text
        terminal.requestStop()
        let ended = try #require(await final.first { _ in true })
        await managers.invalidateAll()
        #expect(shown, "\(screen)")
        #expect(screen.contains("'launch' is not an action"))
        #expect(screen.contains("Base  {{$demo}}/") && screen.contains("Host: 127.0.0.1:8080"), "the welcome request's base: \(screen)")
        #expect(ended.width == 100 && ended.height == 30, "the runner's first resize reached the state")
        #expect(ended.shouldQuit, "a stop request ends the loop through update")
    }

    @Test("quitting a modified session asks first in the real loop; the answer ends it")
    func quitAsksAboutUnsavedChanges() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("one.tincan.yaml", Array("requests:\n  - url: http://127.0.0.1:1/get\n".utf8))
        var state = AppState(width: 100, height: 30)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        state.focus = .method
        let terminal = MemoryTerminal(width: 100, height: 30)
        let managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        let final = start(state, on: terminal, managers: managers)
        // The next method changes the request, so the session is modified.
        terminal.type([.key(KeyEvent(.down))])
        let modified = await terminal.waitFor("● modified")
        terminal.type([.key(KeyEvent(.function(10)))])
        let asked = await terminal.waitFor("Unsaved changes")
        let screen = terminal.text
        terminal.type([.key(KeyEvent(.down)), .key(KeyEvent(.enter))])
        let ended = try #require(await final.first { _ in true })
        await managers.invalidateAll()
        #expect(modified, "\(screen)")
        #expect(asked, "\(screen)")
        #expect(ended.shouldQuit)
        #expect(ended.method == "HEAD", "quit without saving: the edit is left unsaved")
        #expect(try Session.load(path: path).requests[0].method == "GET")
    }

    @Test("opening another session saves the first one's cookie file and sends the new one's cookies (issue 18 §6)")
    func openingASessionSwitchesItsCookieFile() async throws {
        let directory = try TemporaryDirectory()
        try await withDemoServer { server in
            let firstJar = try directory.write("first.txt", Array("127.0.0.1\tFALSE\t/\tFALSE\t0\tfirst\t1\n".utf8))
            let secondJar = try directory.write("second.txt", Array("127.0.0.1\tFALSE\t/\tFALSE\t0\tsecond\t2\n".utf8))
            let first = try directory.write("first.tincan.yaml", Array("base: \(server.baseURL)\ncookies: {file: first.txt}\nrequests:\n  - url: /cookies/set?more=3\n".utf8))
            let second = try directory.write("second.tincan.yaml", Array("base: \(server.baseURL)\ncookies: {file: second.txt}\nrequests:\n  - url: /cookies\n".utf8))
            var state = AppState(width: 120, height: 40)
            state.open(Workspace(session: try Session.load(path: first), path: first))
            let terminal = MemoryTerminal(width: 120, height: 40)
            let managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
            try managers.loadCookies(from: firstJar)
            let final = start(state, on: terminal, managers: managers)
            terminal.type([.key(.ctrl("r"))])
            let sent = await terminal.waitFor("\"more\": \"3\"")
            terminal.type([.key(.alt("o"))])
            _ = await terminal.waitFor("Open session")
            terminal.type([.key(.ctrl("u")), .paste(second)])
            _ = await terminal.waitFor("/second.tincan.yaml")
            terminal.type([.key(KeyEvent(.enter))])
            let opened = await terminal.waitFor(" tincan  second.tincan.yaml")
            terminal.type([.key(.ctrl("r"))])
            let echoed = await terminal.waitFor("\"second\": \"2\"")
            let screen = terminal.text
            terminal.type([.key(KeyEvent(.function(10)))])
            _ = await final.first { _ in true }
            try managers.saveCookies()
            await managers.invalidateAll()
            #expect(sent && opened && echoed, "\(screen)")
            #expect(!screen.contains("\"first\""), "the first session's cookies are not sent for the second: \(screen)")
            #expect(try CookieFile.load(from: firstJar).map(\.pair) == ["first=1", "more=3"], "saved when the second session opened")
            #expect(try CookieFile.load(from: secondJar).map(\.pair) == ["second=2"])
        }
    }
}
