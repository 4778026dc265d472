import Clocks

extension TestClock where Duration == Swift.Duration {
    /// Returns once something sleeps on this clock: advancing it then moves that sleeper's time,
    /// which a sleeper that began after the advance would not see.
    public func untilSomethingSleeps() async {
        while (try? await checkSuspension()) != nil { await Task.yield() }
    }

    /// Returns once something sleeps on this clock, or `done` says there is no more to wait for.
    public func untilSomethingSleeps(or done: () -> Bool) async {
        while !done(), (try? await checkSuspension()) != nil { await Task.yield() }
    }
}
