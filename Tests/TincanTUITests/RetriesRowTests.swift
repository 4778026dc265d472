import Testing
import TerminalUI
import TincanCore
import TincanSessions
@testable import TincanTUI

@Suite("The Props tab's retries row")
struct RetriesRowTests {
    /// Opens the retries prompt and types `text` over what it holds.
    private func setRetries(_ text: String, in state: inout AppState) {
        state.changeProperty(.retries)
        Fixtures.press([.key(.ctrl("u"))] + Fixtures.typing(text) + [.key(KeyEvent(.enter))], into: &state)
    }

    @Test("a limit typed in the row becomes the session's retry-policy and goes with the send")
    func theLimitGoesWithTheSend() throws {
        var state = Fixtures.welcome()
        #expect(PropertyRow.retries.value(in: state) == "none")
        #expect(!PropertyRow.retries.isChanged(in: state))
        setRetries("3", in: &state)
        #expect(state.modal == nil)
        #expect(state.editedSession.defaults.retryPolicy == SavedRetryPolicy(limit: 3))
        #expect(PropertyRow.retries.value(in: state) == "3, from 0.5 s")
        #expect(PropertyRow.retries.isChanged(in: state))
        guard case let .send(_, _, plan)? = state.perform(.send).first else {
            Issue.record("send did not send")
            return
        }
        #expect(plan.options.retryPolicy?.limit == 3)
        state.resetProperty(.retries)
        #expect(state.editedSession.defaults.retryPolicy == nil)
    }

    @Test("a limit out of range is refused in the prompt, which stays open with the reason")
    func outOfRangeIsRefused() {
        var state = Fixtures.welcome()
        setRetries("101", in: &state)
        guard case let .prompt(prompt)? = state.modal else {
            Issue.record("the prompt closed")
            return
        }
        #expect(prompt.error == "retries: 101 is out of range (0…100)")
        #expect(state.editedSession.defaults.retryPolicy == nil)
    }

    @Test("the row shows the session's policy, which it edits, and a request's own beside it")
    func aRequestsOwnPolicyIsShown() {
        var state = Fixtures.welcome()
        state.workspace.session.requests[state.workspace.selected].retryPolicy = SavedRetryPolicy(limit: 2)
        #expect(PropertyRow.retries.value(in: state) == "none; this request: 2")
        setRetries("4", in: &state)
        // The edit changes the value shown: the session's, with the request's still beside it.
        #expect(state.editedSession.defaults.retryPolicy?.limit == 4)
        #expect(PropertyRow.retries.value(in: state).hasPrefix("4, from "))
        #expect(PropertyRow.retries.value(in: state).hasSuffix("; this request: 2"))
    }
}
