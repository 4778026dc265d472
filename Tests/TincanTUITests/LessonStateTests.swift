import Testing
import TincanSessions
@testable import TincanTUI

/// The lesson as a component: its keys and a passed step change only the lesson, and say what
/// the app around it should do; no panes, preview or send are needed to test them.
@Suite("The lesson's own state")
struct LessonStateTests {
    /// A lesson of three steps, the second with two hints, progress kept in `progressPath`.
    static func lesson(progressPath: String? = "/nowhere/progress.json") -> LessonState {
        let steps = [LessonStep(title: "One"), LessonStep(title: "Two", requestIndex: 1, hints: ["first", "second"]), LessonStep(title: "Three")]
        return LessonState(lesson: Lesson(title: "Basics", steps: steps), context: LessonContext(key: "basics", progressPath: progressPath))
    }

    @Test func theNextStepOpensOnlyOnceTheShownOnePasses() {
        var state = Self.lesson()
        let (locked, why) = state.handle(.nextStep)
        #expect(locked == .none)
        #expect(why == StatusMessage("Step 2 unlocks when every goal of step 1 passes (0 of 0 goals so far).", .warning))
        _ = state.passStep()
        let (open, news) = state.handle(.nextStep)
        #expect(open == .showStep(1))
        #expect(news == nil, "the step's own news follows as it opens")
    }

    @Test func thePreviousStepStopsAtTheFirst() {
        var state = Self.lesson()
        #expect(state.handle(.previousStep) == (.none, StatusMessage("This is the first step.", .info)))
        state.enter(step: 2)
        #expect(state.handle(.previousStep).0 == .showStep(1))
    }

    @Test func hintsAreRevealedOneAtATimeAndEnteringAStepHidesThemAgain() {
        var state = Self.lesson()
        #expect(state.handle(.lessonHint).1?.text == "This step has no hints: read the goals, and the Explain view (F9).")
        state.enter(step: 1)
        #expect(state.handle(.lessonHint) == (.showHint(linePrefix: "Hint 1: "), StatusMessage("Hint 1 of 2 is in the Notes.")))
        #expect(state.handle(.lessonHint).0 == .showHint(linePrefix: "Hint 2: "))
        #expect(state.handle(.lessonHint) == (.none, StatusMessage("Every hint of this step is shown.", .info)))
        state.enter(step: 1)
        #expect(state.hintsShown == 0)
        #expect(state.stepNews.text == "Step 2 of 3: “Two” · alt+l notes · alt+t a hint · alt+n next step")
    }

    @Test func passingAStepSaysWhatItUnlocksOnceAndKeepsTheProgress() {
        var state = Self.lesson()
        #expect(state.passStep() == StatusMessage("✓ Step 1 done: step 2 is unlocked (alt+n).", .success))
        #expect(state.passStep() == nil, "a step passes once")
        guard case let .saveLessonProgress(entry, key, path)? = state.progressEffect else {
            Issue.record("expected the progress to be saved")
            return
        }
        #expect(entry.passedSteps == [0] && key == "basics" && path == "/nowhere/progress.json")
        state.enter(step: 2)
        #expect(state.passStep() == StatusMessage("✓ Step 3 done; step 2 is still open.", .success))
        state.enter(step: 1)
        #expect(state.passStep() == StatusMessage("✓ Step 2 done, and with it the lesson: every step of “Basics” passes.", .success))
        #expect(Self.lesson(progressPath: nil).progressEffect == nil, "no file, nothing saved")
    }
}
