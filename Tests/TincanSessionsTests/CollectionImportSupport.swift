import Testing
import TestSupport
import TincanSessions

/// The request of `session` named `name`.
func importedRequest(_ session: Session, _ name: String) throws -> SavedRequest {
    try #require(session.requests.first { $0.name == name }, "no request '\(name)' in \(session.requests.map(\.displayName))")
}

/// Imports `text` as `format`, and checks that the session reads back equal from what it writes.
func imported(_ format: CollectionFormat, _ text: String, path: String = "spec.yaml") throws -> ImportedCollection {
    let result = try format.parse(text, path: path)
    let reread = try Session.parse(result.session.yamlText(), path: "out.tincan.yaml")
    #expect(reread.requests == result.session.requests)
    #expect(reread.variables == result.session.variables)
    #expect(reread.environments == result.session.environments)
    return result
}

/// The message of the error `body` throws.
func importError<T>(_ body: () throws -> T) -> String {
    do {
        _ = try body()
    } catch {
        return "\(error)"
    }
    return "no error"
}

/// Imports a generated file of 1,000 items, checking that it is quick (a debug build takes
/// well under a second; quadratic appends or lookups would take far longer). It parses off the
/// pool, and the time is the parse's own, not a wait for a pool thread.
func importedQuickly(_ format: CollectionFormat, _ text: String) async throws -> Session {
    let (elapsed, result) = try await offThePool { () throws -> (Duration, ImportedCollection?) in
        let clock = ContinuousClock()
        var result: ImportedCollection?
        let elapsed = try clock.measure { result = try format.parse(text, path: "big") }
        return (elapsed, result)
    }
    #expect(elapsed < .seconds(20), "\(elapsed)")
    let session = try #require(result).session
    #expect(session.requests.count == 1_000)
    return session
}
