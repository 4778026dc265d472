import Testing
import TerminalUI
import TincanCore
@testable import TincanTUI

@Suite("Event timeline")
struct TimelineTests {
    @Test func theTimelineHasProgressQuartersAndTheOutcome() {
        var state = Fixtures.welcome()
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, plan)? = effects.first else {
            Issue.record("no send")
            return
        }
        _ = state.update(.task(exchange: id, .resumed, at: 0.001))
        for (bytes, time) in [(0, 0.002), (1_000, 0.003), (2_048, 0.004), (6_144, 0.005), (8_192, 0.006)] {
            _ = state.update(.task(exchange: id, .uploadProgress(TransferProgress(completed: Int64(bytes), expected: 8_192)), at: time))
        }
        _ = state.update(.task(exchange: id, .downloadProgress(TransferProgress(completed: 10, expected: nil)), at: 0.007))
        _ = state.update(.task(exchange: id, .downloadProgress(TransferProgress(completed: 20, expected: nil)), at: 0.008))
        _ = state.update(.task(exchange: id, .completed(Fixtures.result(for: request, status: 404, contentType: "application/json", body: "{}", serializer: plan.options.responseSerializer)), at: 0.009))
        #expect(state.exchange?.milestones.map(\.event) == [
            "resumed",
            "upload started: 8.0 KiB expected",
            "upload 25% (2.0 KiB of 8.0 KiB)",
            "upload 75% (6.0 KiB of 8.0 KiB)",
            "upload 100% (8.0 KiB of 8.0 KiB)",
            "download started (length unknown)",
            "completed: 404, 2 bytes, validation failed",
        ])
    }
}
