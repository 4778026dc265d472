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
        ReceivedRecord.read(result).mapError { ReceivedFetchFailure($0.reason) }
    }
}
