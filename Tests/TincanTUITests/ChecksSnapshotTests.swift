import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanSessions
@testable import TincanTUI

/// The Checks tab, its prompt, the y picker, the Props rows of the request's own settings and
/// the variables view, at 80x24 and 120x40, against golden files under Snapshots/.
@Suite("Checks screen snapshots")
struct ChecksSnapshotTests {
    enum Scene: String, CaseIterable, CustomTestStringConvertible {
        case checksEmpty, checksVerdicts, checksPromptError, pathPicker, propertiesRequest, variablesView, flowRetryWaiting

        var testDescription: String { rawValue }

        func apply(to state: inout AppState) throws {
            switch self {
            case .checksEmpty:
                state.switchRequestTab(to: .checks)
            case .checksVerdicts:
                state = try ChecksTabTests.state(ChecksTabTests.session, width: state.width, height: state.height)
                state.switchRequestTab(to: .checks)
                ChecksTabTests.complete(state.update(.input(.key(.ctrl("r")))), in: &state)
                state.checkList.select(1, count: state.checkRowCount)
            case .checksPromptError:
                state.switchRequestTab(to: .checks)
                Fixtures.press([.key(.char("a"))] + Fixtures.typing("body $.id count lots") + [.key(KeyEvent(.enter))], into: &state)
            case .pathPicker:
                Fixtures.send(&state, body: Fixtures.userJSON)
                state.setFocus(.response)
                Fixtures.press([.key(.char("/"))] + Fixtures.typing("city") + [.key(KeyEvent(.enter)), .key(.char("y"))], into: &state)
            case .propertiesRequest:
                state.setFocus(.properties)
                state.editSelectedRequest { request in
                    request.flow.retry = 3
                    request.flow.delay = 0.5
                    request.httpVersion = .http2
                }
                state.propertyList.select(PropertyRow.allCases.count - 1, count: PropertyRow.allCases.count)
            case .flowRetryWaiting:
                // A failed check, and the retry waiting for its interval.
                state = try ChecksTabTests.state(ChecksTabTests.flowSession + "\n    retry: 2\n    retry-interval: 2s\n", width: state.width, height: state.height)
                state.switchRequestTab(to: .checks)
                ChecksTabTests.complete(state.update(.input(.key(.ctrl("r")))), in: &state, body: #"{"name": "Bob"}"#)
                _ = state.update(.tick(at: 1))
            case .variablesView:
                state = try ChecksTabTests.state(ChecksTabTests.variablesSession, width: state.width, height: state.height)
                state.workspace.environment = "staging"
                state.workspace.overrides = ["user": "ada"]
                state.workspace.captured = ["id": .integer(7)]
                state.launch.environment = [:]
                state.showVariables()
            }
        }
    }

    @Test(arguments: Scene.allCases, [(80, 24), (120, 40)])
    func sceneMatchesItsGoldenFile(_ scene: Scene, size: (Int, Int)) throws {
        var state = Fixtures.welcome(width: size.0, height: size.1)
        try scene.apply(to: &state)
        let buffer = Renderer.render(&state)
        if let problem = Snapshot.verify(buffer, named: "\(scene.rawValue)-\(size.0)x\(size.1)") {
            Issue.record(Comment(rawValue: problem))
        }
    }
}
