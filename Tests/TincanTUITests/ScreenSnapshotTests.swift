import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanSessions
@testable import TincanTUI

/// Every pane and modal rendered into a ScreenBuffer at 80x24 and 120x40, compared with golden
/// files under Snapshots/ (text, then style runs). A missing golden file is recorded and fails.
@Suite("Screen snapshots")
struct ScreenSnapshotTests {
    enum Scene: String, CaseIterable, CustomTestStringConvertible {
        case welcome, headers, body, properties, responseJSON, responseChain, responseHeaders, responseTiming
        case responseXML, progress, help, methodPicker, promptError, previewError, zoomedResponse, lightTheme, wideText
        case collection, environmentPicker, curlDialog
        case responseSearch, responseHex, compareDialog
        case explainBaseSlash, explainLeadingSlash, explainBodyJSON, explainNestedKeys, explainHeaders, explainProperties, explainCookieFile, explainValidation
        case explainProxyVariable, explainNoProxyMatch, explainSessionProxy, explainProxyOff, explainNoProxySet, explainBadProxyVariable, explainSessionNoProxy, propertiesConnection

        var testDescription: String { rawValue }

        func apply(to state: inout AppState) {
            switch self {
            case .welcome: break
            case .headers:
                state.setFocus(.headers)
                state.headers.append(HeaderRow(name: "X-Off", value: "not sent", isEnabled: false))
            case .body: Fixtures.press([.key(KeyEvent(.function(2)))], into: &state)
            case .properties:
                state.setFocus(.properties)
                state.observed.timeoutInterval = 5
                state.acceptableStatusCodes = StatusCodeSet([200...299, 304...304])
            case .responseJSON: Fixtures.send(&state, body: Fixtures.userJSON)
            case .responseChain:
                state.responseSerializer = .json
                Fixtures.send(&state, status: 404, contentType: "text/html", body: "<h1>Not found</h1>")
            case .responseHeaders:
                Fixtures.send(&state, body: Fixtures.userJSON)
                state.responseView = .headers
            case .responseTiming:
                Fixtures.send(&state, body: Fixtures.userJSON)
                state.responseView = .timing
            case .responseXML:
                Fixtures.send(&state, contentType: "application/xml", body: "<slideshow title=\"Demo\"><slide type=\"all\"><title>Wake up</title></slide></slideshow>")
            case .progress:
                let effects = state.update(.input(.key(.ctrl("r"))))
                guard case let .send(id, _, _)? = effects.first else { return }
                _ = state.update(.task(exchange: id, .uploadProgress(TransferProgress(completed: 2_048, expected: 8_192)), at: 0.5))
                _ = state.update(.task(exchange: id, .uploadProgress(TransferProgress(completed: 6_144, expected: 8_192)), at: 1.5))
                _ = state.update(.task(exchange: id, .downloadProgress(TransferProgress(completed: 10_000, expected: nil)), at: 1.5))
                _ = state.update(.tick(at: 1.6))
            case .help: Fixtures.press([.key(KeyEvent(.function(1)))], into: &state)
            case .methodPicker:
                state.setFocus(.method)
                Fixtures.press([.key(KeyEvent(.enter)), .key(KeyEvent(.down))], into: &state)
            case .promptError:
                state.setFocus(.headers)
                Fixtures.press([.key(.char("a"))] + Fixtures.typing("Bad Name: x") + [.key(KeyEvent(.enter))], into: &state)
            case .previewError:
                state.urlField = TextField("http://exa mple.com/")
                state.refreshPreview()
            case .zoomedResponse:
                Fixtures.send(&state, body: Fixtures.userJSON)
                state.setFocus(.response)
                Fixtures.press([.key(KeyEvent(.function(12)))], into: &state)
            case .lightTheme: Fixtures.press([.key(.ctrl("t"))], into: &state)
            case .collection:
                // A session file (never read here: the workspace is given), the cursor on its second request.
                state.open(Workspace(session: SessionWorkspaceTests.sampleSession(), path: "/work/sample.tincan.yaml"))
                state.setFocus(.collection)
                Fixtures.press([.key(KeyEvent(.down))], into: &state)
            case .environmentPicker:
                state.open(Workspace(session: SessionWorkspaceTests.sampleSession(), path: "/work/sample.tincan.yaml"))
                Fixtures.press([.key(.alt("e"))], into: &state)
            case .curlDialog: Fixtures.press([.key(.alt("c"))], into: &state)
            case .responseSearch:
                // A fold, the cursor on a match, every match marked, the count in the border.
                Fixtures.send(&state, body: Fixtures.userJSON)
                state.setFocus(.response)
                // Fold the top level, then find a match inside a fold: its fold opens, the others stay.
                Fixtures.press([.key(.char("-")), .key(.char("/"))] + Fixtures.typing("on") + [.key(KeyEvent(.enter))], into: &state)
            case .compareDialog:
                Fixtures.send(&state, body: #"{"id": 1, "name": "Ada"}"#)
                state.method = "POST"
                state.refreshPreview()
                Fixtures.send(&state, status: 201, body: #"{"id": 2, "name": "Ada"}"#)
                Fixtures.press([.key(.alt("=")), .key(KeyEvent(.enter)), .key(KeyEvent(.enter))], into: &state)
            case .responseHex:
                Fixtures.send(&state, contentType: "application/octet-stream", body: "\u{89}PNG\r\n\u{1A}\n\0\0\0\rIHDR binary \u{1}\u{2}\u{3} tail")
                state.responseView = .raw
                state.setFocus(.response)
                Fixtures.press([.key(KeyEvent(.function(12)))], into: &state)
            case .explainBaseSlash:
                // The base has a path without its trailing slash: the manager adds one.
                ScreenSnapshotTests.explain(&state, step: "URL") { $0.baseField = TextField("http://127.0.0.1:8080/v1"); $0.urlField = TextField("users?sort=name") }
            case .explainLeadingSlash:
                ScreenSnapshotTests.explain(&state, step: "URL") { $0.baseField = TextField("http://127.0.0.1:8080/v1/"); $0.urlField = TextField("/users") }
            case .explainBodyJSON:
                ScreenSnapshotTests.explain(&state, step: "Parameters") { $0.method = "POST"; $0.serializer = .json }
            case .explainNestedKeys:
                ScreenSnapshotTests.explain(&state, step: "Encoding") {
                    $0.parameters = TreeEditor(root: TreeNode(key: "", value: .object, children: [
                        TreeNode(key: "user", value: .object, children: [
                            TreeNode(key: "name", value: .string("Zoë & co")),
                            TreeNode(key: "roles", value: .array, children: [TreeNode(key: "0", value: .string("admin"))]),
                        ]),
                        TreeNode(key: "q", value: .string("a+b=c")),
                    ]))
                }
            case .explainHeaders:
                ScreenSnapshotTests.explain(&state, step: "Headers") {
                    $0.headers = [HeaderRow(name: "Accept", value: "application/json"), HeaderRow(name: "X-Trace", value: "on")]
                    $0.urlField = TextField("http://ada:secret@127.0.0.1:8080/get")
                    $0.baseField = TextField("")
                }
            case .explainProperties:
                ScreenSnapshotTests.explain(&state, step: "Observed properties") { $0.observed.timeoutInterval = 5; $0.observed.httpShouldHandleCookies = false }
            case .explainCookieFile:
                ScreenSnapshotTests.explain(&state, step: "Observed properties") { $0.workspace.session.cookieFile = "state/cookies.txt"; $0.observed.httpShouldHandleCookies = false }
            case .explainValidation:
                state.responseSerializer = .json
                Fixtures.send(&state, status: 404, contentType: "text/html", body: "<h1>Not found</h1>")
                ScreenSnapshotTests.explain(&state, step: "Validation") { _ in }
            case .explainProxyVariable:
                ScreenSnapshotTests.explain(&state, step: "Connection") { $0.proxyEnvironment = ProxyEnvironment(["http_proxy": "127.0.0.1:8888", "HTTPS_PROXY": "127.0.0.1:9999"]) }
            case .explainNoProxyMatch:
                ScreenSnapshotTests.explain(&state, step: "Connection") { $0.proxyEnvironment = ProxyEnvironment(["http_proxy": "127.0.0.1:8888", "NO_PROXY": "localhost,127.0.0.0/8"]) }
            case .explainSessionProxy:
                ScreenSnapshotTests.explain(&state, step: "Connection") {
                    $0.workspace.session.defaults.proxy = "http://ann:secret@127.0.0.1:3128"
                    $0.proxyEnvironment = ProxyEnvironment(["http_proxy": "127.0.0.1:8888"])
                }
            case .explainProxyOff:
                ScreenSnapshotTests.explain(&state, step: "Connection") {
                    $0.workspace.session.defaults.proxy = ""
                    $0.proxyEnvironment = ProxyEnvironment(["http_proxy": "127.0.0.1:8888"])
                }
            case .explainNoProxySet:
                ScreenSnapshotTests.explain(&state, step: "Connection") { _ in }
            case .explainBadProxyVariable:
                ScreenSnapshotTests.explain(&state, step: "Connection") { $0.proxyEnvironment = ProxyEnvironment(["http_proxy": "ftp://127.0.0.1:21"]) }
            case .explainSessionNoProxy:
                ScreenSnapshotTests.explain(&state, step: "Connection") {
                    $0.workspace.session.defaults.noProxy = "127.0.0.1"
                    $0.proxyEnvironment = ProxyEnvironment(["http_proxy": "127.0.0.1:8888", "no_proxy": "example.com"])
                }
            case .propertiesConnection:
                state.setFocus(.properties)
                state.workspace.session.defaults.proxy = "http://ann:secret@127.0.0.1:3128"
                state.workspace.session.defaults.noProxy = "localhost,.internal"
                state.propertyList.select(PropertyRow.allCases.count - 1, count: PropertyRow.allCases.count)
            case .wideText:
                state.parameters = TreeEditor(root: TreeNode(key: "", value: .object, children: [
                    TreeNode(key: "名前", value: .string("日本語 🙂 café")),
                ]))
                state.refreshPreview()
            }
        }
    }

    /// Changes the request, opens the Explain view zoomed, and scrolls it to `step`'s title.
    static func explain(_ state: inout AppState, step: String, _ change: (inout AppState) -> Void) {
        change(&state)
        state.refreshPreview()
        state.setFocus(.preview)
        Fixtures.press([.key(KeyEvent(.function(9))), .key(KeyEvent(.function(12)))], into: &state)
        let lines = state.previewBoxLines(width: state.width)
        let row = lines.firstIndex { $0.map(\.text).joined() == step } ?? 0
        state.previewScroll = ScrollState(offset: row)
    }

    @Test(arguments: Scene.allCases, [(80, 24), (120, 40)])
    func paneMatchesItsGoldenFile(_ scene: Scene, size: (Int, Int)) {
        Fixtures.verifySnapshot(scene.rawValue, size: size) { scene.apply(to: &$0) }
    }

    @Test func aTooSmallTerminalSaysSoInsteadOfDrawingGarbage() {
        var state = Fixtures.welcome(width: 30, height: 8)
        let buffer = Renderer.render(&state)
        #expect(buffer.lines[0].hasPrefix("Tincan needs at least 40×12"))
    }

    @Test func everyRowOfEveryFrameIsExactlyTheScreenWidth() {
        for scene in Scene.allCases {
            var state = Fixtures.welcome(width: 100, height: 30)
            scene.apply(to: &state)
            let buffer = Renderer.render(&state)
            for row in 0..<buffer.height {
                let columns = (0..<buffer.width).reduce(0) { total, column in
                    buffer[column, row].isContinuation ? total : total + max(1, TextWidth.of(buffer[column, row].text))
                }
                #expect(columns == 100, "scene \(scene.rawValue), row \(row)")
            }
        }
    }
}
