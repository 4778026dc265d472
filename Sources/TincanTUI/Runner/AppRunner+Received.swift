import TincanCore
import TincanSessions

extension AppRunner {
    /// Asks a demo server what it received (`GET /__received/{id}`) for send `id`, through the
    /// manager of the send's trust settings, and posts the answer.
    func fetchReceived(_ id: Int, url: URLReference, security: SecuritySettings) {
        let inbox = inbox
        do {
            let manager = try managers.manager(for: security)
            var request = HTTPRequest(method: "GET", url: url)
            request.headers.set(name: "Accept", value: "application/json")
            let task = try manager.task(with: request)
            Task.detached {
                inbox.post(.receivedFetched(exchange: id, Self.read(await task.result())))
            }
            task.resume()
        } catch {
            inbox.post(.receivedFetched(exchange: id, .failure(ReceivedFetchFailure("\(error)"))))
        }
    }

    /// The record in a `/__received/{id}` answer, or why there is none.
    static func read(_ result: TaskResult) -> Result<ReceivedRequest, ReceivedFetchFailure> {
        if let error = result.transportError { return .failure(ReceivedFetchFailure("\(error)")) }
        guard let response = result.response else { return .failure(ReceivedFetchFailure("no response")) }
        guard response.statusCode == 200 else {
            let reason = String(decoding: result.data.prefix(300), as: UTF8.self)
            return .failure(ReceivedFetchFailure("the server answered \(response.statusCode)\(reason.isEmpty ? "" : ": " + reason)"))
        }
        do {
            return .success(try ReceivedRequest(json: try JSONParser.parse(bytes: result.data)))
        } catch {
            return .failure(ReceivedFetchFailure("\(error)"))
        }
    }
}
