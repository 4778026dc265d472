import Clocks
import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

@Suite("Sending to the demo server")
struct SendingTests {
    @Test(arguments: ["GET", "DELETE"])
    func uriMethodsSendParametersInTheQuery(method: String) async throws {
        try await withDemoServer { server in
            let path = method == "GET" ? "get" : "delete"
            let result = try await send(try draft(method, path, ["a=1", "b[c]=2"], on: server))
            let body = try json(result)
            #expect(field(body, "args", "a") == "1")
            #expect(field(body, "args", "b[c]") == "2")
            #expect(result.response?.statusCode == 200)
        }
    }

    @Test(arguments: ["POST", "PUT", "PATCH"])
    func bodyMethodsSendAFormBody(method: String) async throws {
        try await withDemoServer { server in
            let result = try await send(try draft(method, method.lowercased(), ["name=Ann", "tags[]=x"], on: server))
            let body = try json(result)
            #expect(field(body, "form", "name") == "Ann")
            #expect(field(body, "form", "tags[]") == "x")
            #expect(field(body, "headers", "Content-Type") == "application/x-www-form-urlencoded")
        }
    }

    @Test func theJSONSerializerSendsJSONTheServerReadsBack() async throws {
        try await withDemoServer { server in
            var request = try draft("POST", "anything", ["n:=1", "list:=[true,null]"], on: server)
            request.serializer = .json
            let body = try json(try await send(request))
            #expect(field(body, "json") == ["n": 1, "list": [true, .null]])
            #expect(field(body, "method") == "POST")
        }
    }

    @Test func headResponsesHaveNoBodyAndPass() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("HEAD", "anything", on: server))
            #expect(result.response?.statusCode == 200)
            #expect(result.data.isEmpty)
            #expect(result.serialization?.isValid == true)
        }
    }

    @Test func multipartFilesReachTheServerWithTheirFields() async throws {
        try await withDemoServer { server in
            let directory = try TemporaryDirectory()
            try directory.write("note.txt", Array("file contents".utf8))
            var request = try draft("POST", "post", ["doc@note.txt", "title=T"], on: server)
            request.workingDirectory = directory.path
            let body = try json(try await send(request))
            #expect(field(body, "files", "doc") == "file contents")
            #expect(field(body, "form", "title") == "T")
        }
    }

    @Test func followsRedirectsAndRecordsEachHop() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("GET", "redirect/3", on: server))
            #expect(result.redirects.map(\.to.path) == ["/redirect/2", "/redirect/1", "/get"])
            #expect(result.redirects.allSatisfy { $0.statusCode == 302 })
            #expect(result.response?.statusCode == 200)
            #expect(result.metrics.requestCount == 4)
        }
    }

    @Test func stopsAtTheRedirectLimitWithTheLastRedirectResponse() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("GET", "redirect/5", on: server)) { $0.redirects = .follow(maximum: 2) }
            #expect(result.redirects.count == 2)
            #expect(result.response?.statusCode == 302)
            #expect(result.serialization?.error?.code == -1011)
        }
    }

    @Test func aPostRedirectedBy302BecomesAGetWithoutItsBody() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("POST", "redirect-to", ["url==/anything", "status_code==302", "x=1"], on: server))
            #expect(result.redirects.first?.method == "GET")
            let body = try json(result)
            #expect(field(body, "method") == "GET")
            #expect(field(body, "form") == .dictionary([:]))
        }
    }

    @Test func a307RedirectKeepsTheMethodAndBody() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("POST", "redirect-to", ["url==/anything", "status_code==307", "x=1"], on: server))
            let body = try json(result)
            #expect(field(body, "method") == "POST")
            #expect(field(body, "form", "x") == "1")
        }
    }

    @Test func anIdleTimeoutSaysItWasTheIdleTimeout() async throws {
        try await withDemoServer { server in
            var request = try draft("GET", "drip?duration=1&numbytes=2&delay=2", on: server)
            request.observed.timeoutInterval = 0.3
            let result = try await send(request)
            #expect(result.transportError?.reason == .timedOut(.idle, seconds: 0.3))
            #expect(result.transportError?.description.contains("idle timeout") == true)
        }
    }

    @Test func aDeadlineFiresEvenWhileBytesKeepArriving() async throws {
        try await withDemoServer { server in
            var request = try draft("GET", "drip?duration=3&numbytes=30", on: server)
            request.observed.timeoutInterval = 2
            let result = try await send(request) { $0.deadline = 0.5 }
            #expect(result.transportError?.reason == .timedOut(.deadline, seconds: 0.5))
        }
    }

    @Test func aRefusedConnectionIsATransportErrorWithItsReason() async throws {
        let refusing = try RefusingPort()
        let result = try await send(RequestDraft(method: "GET", url: "http://127.0.0.1:\(refusing.port)/get"))
        withExtendedLifetime(refusing) {}
        guard case .cannotConnect(let detail)? = result.transportError?.reason else {
            Issue.record("expected cannotConnect, got \(String(describing: result.transportError))")
            return
        }
        #expect(detail.lowercased().contains("refused"))
    }

    @Test func validationErrorsComeBackWithTheirCodes() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("GET", "status/418", on: server))
            #expect(result.serialization?.error?.message == "Request failed: I'm a teapot (418)")
            var wrongType = try draft("GET", "xml", on: server)
            wrongType.serializer = .form
            let refused = try await send(wrongType)
            #expect(refused.serialization?.error?.message == "Request failed: unacceptable content-type: application/xml")
        }
    }

    @Test func eachResponseSerializerDecodesItsDemoRoute() async throws {
        try await withDemoServer { server in
            let xml = try await send(try draft("GET", "xml", on: server)) { $0.responseSerializer = XMLResponseSerializer() }
            guard case .xml(let tree)? = xml.serialization?.body else { Issue.record("no XML"); return }
            #expect(tree.name == "slideshow")
            let image = try await send(try draft("GET", "image/png", on: server)) { $0.responseSerializer = ImageResponseSerializer() }
            #expect(image.serialization?.body == .image(ImageInfo(format: .png, width: 16, height: 8)))
            let compound = try await send(try draft("GET", "json", on: server)) { $0.responseSerializer = CompoundResponseSerializer() }
            #expect(field(try json(compound), "slideshow", "author") == "Yours Truly")
        }
    }

    @Test func nullsAreRemovedFromServerJSONWhenAsked() async throws {
        try await withDemoServer { server in
            var request = try draft("POST", "anything", ["keep=1", "drop:=null"], on: server)
            request.serializer = .json
            var serializer = JSONResponseSerializer()
            serializer.removesKeysWithNullValues = true
            let body = try json(try await send(request) { $0.responseSerializer = serializer })
            #expect(field(body, "json") == ["keep": "1"])
        }
    }

    @Test func basicAuthenticationPassesWithCredentials() async throws {
        try await withDemoServer { server in
            let denied = try await send(try draft("GET", "basic-auth/ann/pw", on: server))
            #expect(denied.response?.statusCode == 401)
            var request = try draft("GET", "basic-auth/ann/pw", on: server)
            request.credentials = .init(user: "ann", password: "pw")
            #expect(field(try json(try await send(request)), "authenticated") == true)
        }
    }

    @Test func rangeRequestsGetPartialContent() async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("GET", "range/100", ["Range:bytes=10-14"], on: server)) { $0.responseSerializer = HTTPResponseSerializer() }
            #expect(result.response?.statusCode == 206)
            #expect(result.data == Array("klmno".utf8))
            #expect(result.response?.headers["Content-Range"] == "bytes 10-14/100")
        }
    }

    @Test func cacheRevalidationAnswers304ForAMatchingETag() async throws {
        try await withDemoServer { server in
            let first = try await send(try draft("GET", "cache", on: server))
            let etag = try #require(first.response?.headers["ETag"])
            let second = try await send(try draft("GET", "cache", ["If-None-Match:\(etag)"], on: server)) { $0.responseSerializer = HTTPResponseSerializer() }
            #expect(second.response?.statusCode == 304)
        }
    }
}

@Suite("Tasks report progress and events")
struct TaskEventTests {
    @Test("one request opens one connection, and the next request to the host reuses it", arguments: ["GET", "POST"])
    func oneConnectionPerHost(method: String) async throws {
        let connections = Mutex(0)
        let server = try RawHTTPServer { head, socket in
            connections.withLock { $0 += 1 }
            var head = head
            // Two requests on one keep-alive connection: answer each head as it comes.
            while !head.isEmpty {
                if method == "POST" {
                    var body = [UInt8](repeating: 0, count: 3)
                    _ = recv(socket, &body, 3, Int32(MSG_WAITALL))
                }
                RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                head = RawHTTPServer.readHead(socket)
            }
        }
        defer { server.stop() }
        let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: nil))
        for _ in 0..<2 {
            var draft = RequestDraft(method: method, url: server.baseURL + "/one")
            if method == "POST" { draft.body = .text("a=1") }
            let result = try await manager.send(try draft.build())
            #expect(result.response?.statusCode == 200, "\(String(describing: result.transportError))")
        }
        try await manager.invalidate(cancelingTasks: true)
        #expect(connections.withLock { $0 } == 1)
    }

    @Test("The demo server's drip paces its bytes by the clock, so any number of them takes its duration")
    func aDripIsPacedByTheClock() {
        // A sleep per byte took 11 s for 100,000 bytes over 1 s, and 21 s for 2,048 on a busy machine.
        for count in [1, 5, 2_048, 100_000, 10 << 20] {
            #expect(DemoRoutes.dripBytesDue(after: 0, of: count, over: 1) == 1, "the first byte goes at once")
            #expect(DemoRoutes.dripBytesDue(after: 0.5, of: count, over: 1) == count / 2 + 1, "half way, half the bytes")
            #expect(DemoRoutes.dripBytesDue(after: 1, of: count, over: 1) == count, "all by the duration")
            #expect(DemoRoutes.dripBytesDue(after: 7, of: count, over: 1) == count, "never more than all")
        }
        #expect(DemoRoutes.dripBytesDue(after: 0, of: 100, over: 0) == 100)
        #expect(DemoRoutes.dripBytesDue(after: 0, of: 0, over: 1) == 0)
        #expect(DemoRoutes.dripBytesDue(after: .infinity, of: 9, over: 1) == 9)
    }

    @Test("The demo server's drip sends every byte, none before its time", arguments: [2_048, 100_000])
    func aDripSendsEveryByteInItsTime(bytes: Int) async throws {
        try await withDemoServer { server in
            let clock = ContinuousClock()
            let started = clock.now
            let result = try await send(try draft("GET", "drip?duration=1&numbytes=\(bytes)", on: server)) { $0.responseSerializer = HTTPResponseSerializer() }
            #expect(result.data == Array(repeating: UInt8(ascii: "*"), count: bytes))
            #expect(clock.now - started >= .milliseconds(990), "the last byte is due 1 s less one pause after the first")
        }
    }

    @Test func aBodyInStepsMovesTheDownloadProgressStepByStep() async throws {
        // In lock step: the server sends the next byte only after the task reported the last one
        // and the test moved the session's clock past the 50 ms between progress events, so no
        // load can fold two steps into one, and nothing waits on the wall clock.
        let clock = TestClock()
        let reported = DispatchSemaphore(value: 0)
        let server = try RawHTTPServer { _, socket in
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n")
            for index in 0..<5 {
                if index > 0 {
                    guard reported.wait(timeout: .now() + 10) == .success else { return }
                }
                RawHTTPServer.write(socket, "*")
            }
        }
        defer { server.stop() }
        let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: nil), timing: Timing(clock))
        let task = try manager.dataTask(with: try RequestDraft(method: "GET", url: server.baseURL + "/steps").build())
        // Subscribed before the task starts: progress is not replayed to later subscribers.
        let events = task.events
        let collector = Task { () -> [TransferProgress] in
            var progress: [TransferProgress] = []
            for await event in events {
                if case .downloadProgress(let step) = event {
                    progress.append(step)
                    await clock.advance(by: .milliseconds(50))
                    reported.signal()
                }
            }
            return progress
        }
        task.resume()
        let result = await task.result()
        let steps = await collector.value
        #expect(result.transportError == nil, "\(String(describing: result.transportError))")
        #expect(result.data == Array("*****".utf8))
        #expect(steps == (1...5).map { TransferProgress(completed: Int64($0), expected: 5) })
        #expect(task.downloadProgress.fractionCompleted == 1)
        try await manager.invalidate(cancelingTasks: true)
    }

    @Test func uploadProgressReachesTheBodyLength() async throws {
        try await withDemoServer { server in
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
            var request = try draft("POST", "post", on: server)
            request.parameters = .dictionary(["blob": .string(String(repeating: "x", count: 300_000))])
            let built = try request.build()
            let task = try manager.dataTask(with: built)
            task.resume()
            _ = await task.result()
            #expect(task.uploadProgress.completed == built.body.length)
            #expect(task.uploadProgress.expected == built.body.length)
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test func eventsComeInOrderAndEndWithCompletion() async throws {
        try await withDemoServer { server in
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
            let task = try manager.dataTask(with: try draft("GET", "redirect/1", on: server).build())
            task.resume()
            var names: [String] = []
            for await event in task.events {
                switch event {
                case .resumed: names.append("resumed")
                case .requestSent: names.append("sent")
                case .responseHead(let head): names.append("head \(head.statusCode)")
                case .redirected: names.append("redirect")
                case .completed: names.append("completed")
                case .retried, .cache, .bodyReceived: names.append("unexpected")
                case .uploadProgress, .downloadProgress: break
                }
            }
            #expect(names == ["resumed", "sent", "head 302", "redirect", "sent", "head 200", "completed"])
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("a body past 1 MiB is posted whole before it is decoded, and a smaller one is not")
    func largeBodyArrivesBeforeItsDecoding() async throws {
        try await withDemoServer { server in
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
            for (size, posted) in [(TaskEvent.earlyBodyBytes + 1, true), (TaskEvent.earlyBodyBytes, false)] {
                let task = try manager.dataTask(with: try draft("GET", "bytes/\(size)", on: server).build())
                task.resume()
                var early: TaskResult?
                var completed: TaskResult?
                for await event in task.events {
                    switch event {
                    case .bodyReceived(let result):
                        #expect(completed == nil, "the body came after the completion")
                        early = result
                    case .completed(let result): completed = result
                    default: break
                    }
                }
                #expect((early != nil) == posted, "\(size) bytes")
                if let early {
                    #expect(early.data.count == size)
                    #expect(early.serialization == nil)
                    #expect(completed?.serialization != nil)
                    #expect(completed?.data == early.data)
                }
            }
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test func cancellingARunningTaskEndsItAsCancelled() async throws {
        try await withDemoServer { server in
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
            let task = try manager.dataTask(with: try draft("GET", "drip?duration=5&numbytes=5", on: server).build())
            let events = task.events
            task.resume()
            // Cancelled while the body is arriving: once the response head is in.
            for await event in events {
                if case .responseHead = event { break }
            }
            task.cancel()
            let result = await task.result()
            #expect(result.transportError?.reason == .cancelled)
            #expect(task.state == .completed)
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("Tasks of one manager keep their own options, even when made together and run at once")
    func optionsBelongToTheirTask() async throws {
        try await withDemoServer { server in
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
            var answering = TaskOptions(responseSerializer: HTTPResponseSerializer())
            answering.credential = Credential(user: "ann", password: "pw")
            var staying = TaskOptions(responseSerializer: HTTPResponseSerializer())
            staying.redirects = .doNotFollow
            // Made before either runs: with one shared configuration, the last one set won both.
            let challenged = try manager.task(with: try draft("GET", "basic-auth/ann/pw", on: server).build(), options: answering)
            let unanswered = try manager.task(with: try draft("GET", "basic-auth/ann/pw", on: server).build(), options: staying)
            let redirected = try manager.task(with: try draft("GET", "redirect/2", on: server).build(), options: staying)
            let followed = try manager.task(with: try draft("GET", "redirect/2", on: server).build(), options: answering)
            for task in [challenged, unanswered, redirected, followed] { task.resume() }
            #expect(await challenged.result().response?.statusCode == 200)
            #expect(await unanswered.result().response?.statusCode == 401)
            #expect(await redirected.result().response?.statusCode == 302)
            #expect(await redirected.result().redirects.isEmpty)
            #expect(await followed.result().response?.statusCode == 200)
            #expect(await followed.result().redirects.count == 2)
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("A redirect maximum of 0 or less follows none; a positive one follows that many")
    func redirectPolicyFromAMaximum() {
        #expect(RedirectPolicy(maximum: 0) == .doNotFollow)
        #expect(RedirectPolicy(maximum: -3).limit == 0)
        #expect(RedirectPolicy(maximum: 4) == .follow(maximum: 4))
        #expect(RedirectPolicy.follow(maximum: -1).limit == 0)
        #expect(RedirectPolicy.standard.limit == 10)
    }

    @Test("The options name the task's kind: a download wins over an upload file, which wins over data")
    func optionsChooseTheKind() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("up.bin", [1, 2, 3])
        let manager = URLSessionManager(http: try HTTPSessionManager())
        let request = try RequestDraft(method: "PUT", url: "http://127.0.0.1:9/x").build()
        var options = TaskOptions()
        #expect(try manager.task(with: request, options: options).kind == .data)
        options.uploadFile = file
        let upload = try manager.task(with: request, options: options)
        #expect(upload.kind == .upload)
        guard case .file(file, 3) = upload.originalRequest.body else {
            Issue.record("the upload's body is not the file: \(upload.originalRequest.body)")
            return
        }
        options.download = TaskOptions.Download(path: directory.path + "/down.bin", resuming: true)
        #expect(try manager.task(with: request, options: options).kind == .download(path: directory.path + "/down.bin", resuming: true))
        options.uploadFile = directory.path + "/missing.bin"
        let missing = #expect(throws: RequestSerializationError.self) { try manager.task(with: request, options: options) }
        #expect(missing?.reason == .fileNotReachable(path: directory.path + "/missing.bin"))
        try await manager.invalidate(cancelingTasks: true)
    }

    @Test("tasks have distinct identifiers, and each is forgotten by its manager as it ends, before its result is handed out")
    func tasksAreKeyedAndForgottenAsTheyEnd() async throws {
        try await withDemoServer { server in
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
            let request = try draft("GET", "get", on: server).build()
            let tasks = try (0..<3).map { _ in try manager.dataTask(with: request) }
            #expect(Set(tasks.map(\.identifier)).count == 3)
            #expect(Set(manager.tasks.keys) == Set(tasks.map(\.identifier)))
            tasks.forEach { $0.resume() }
            for task in tasks {
                let result = await task.result()
                #expect(result.response?.statusCode == 200)
                #expect(manager.tasks[task.identifier] == nil, "task \(task.identifier) was still kept when its result came")
            }
            #expect(manager.tasks.isEmpty)
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test func anInvalidatedSessionRefusesNewTasks() async throws {
        try await withDemoServer { server in
            let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
            try await manager.invalidate(cancelingTasks: false)
            #expect(throws: TransportError.self) { try manager.dataTask(with: try draft("GET", "get", on: server).build()) }
        }
    }
}
