import Foundation
import Testing
import TincanCore
import TincanDemoServer

/// A draft for `path` on the demo server, with HTTPie-style items.
public func draft(_ method: String, _ path: String, _ items: [String] = [], on server: DemoServer) throws -> RequestDraft {
    var draft = RequestDraft(method: method, url: path, baseURL: server.baseURL)
    draft.items = try items.map(RequestItem.parse)
    return draft
}

/// The decoded JSON body of `result`; records an issue and throws when there is none.
public func json(_ result: TaskResult) throws -> ParameterValue {
    guard case .json(let value)? = result.serialization?.body else {
        Issue.record("expected a JSON body, got \(String(describing: result.serialization?.body)) \(String(describing: result.transportError))")
        throw CancellationError()
    }
    return value.value
}

/// The value at a path of object keys, or nil.
public func field(_ value: ParameterValue, _ path: String...) -> ParameterValue? {
    var current: ParameterValue? = value
    for key in path { current = current?.dictionaryValue?[key] }
    return current
}
