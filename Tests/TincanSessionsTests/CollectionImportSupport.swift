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

/// Imports a generated file of 1,000 items, checking that every one of them arrived.
func importedWhole(_ format: CollectionFormat, _ text: String) async throws -> Session {
    // Off the pool, as a large document takes a while in a debug build; how long an import
    // takes is measured by `make bench` (tincan-bench import), not here.
    let session = try await offThePool { try format.parse(text, path: "big") }.session
    #expect(session.requests.count == 1_000)
    return session
}
