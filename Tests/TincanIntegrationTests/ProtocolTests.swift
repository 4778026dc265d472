import Clocks
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

/// A manager on the demo server.
private func manager(_ server: DemoServer) throws -> URLSessionManager {
    URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL))
}

/// Options whose only change from the defaults is what `configure` makes.
private func options(_ configure: (inout TaskOptions) -> Void) -> TaskOptions {
    var options = TaskOptions()
    configure(&options)
    return options
}

private func get(_ manager: URLSessionManager, _ path: String, _ items: [String] = [], on server: DemoServer, policy: CachePolicy? = nil, cookies: Bool? = nil, options: TaskOptions = TaskOptions()) async throws -> TaskResult {
    var request = try draft("GET", path, items, on: server)
    if let policy { request.observed.cachePolicy = policy }
    if let cookies { request.observed.httpShouldHandleCookies = cookies }
    return try await manager.send(request.build(), options: options)
}

@Suite("Cookies")
struct CookieTests {
    @Test func cookiesSetDuringARedirectAreSentOnTheNextHopAndLaterRequests() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            let set = try await get(session, "cookies/set?flavour=oat&size=big", on: server)
            #expect(set.redirects.count == 1)
            #expect(field(try json(set), "cookies") == ["flavour": "oat", "size": "big"])
            let deleted = try await get(session, "cookies/delete?flavour", on: server)
            #expect(field(try json(deleted), "cookies") == ["size": "big"])
            #expect(session.cookieJar.all.map(\.name) == ["size"])
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func aRequestThatDoesNotHandleCookiesNeitherStoresNorSendsThem() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            let set = try await get(session, "cookies/set?a=1", on: server, cookies: false)
            #expect(field(try json(set), "cookies") == [:])
            #expect(session.cookieJar.all.isEmpty)
            _ = try await get(session, "cookies/set?b=2", on: server)
            let withoutCookies = try await get(session, "cookies", on: server, cookies: false)
            #expect(field(try json(withoutCookies), "cookies") == [:])
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func anExplicitCookieHeaderIsKeptAndTheJarsCookiesAdded() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            _ = try await get(session, "cookies/set?jar=1", on: server)
            let result = try await get(session, "cookies", ["Cookie:mine=2"], on: server)
            #expect(field(try json(result), "cookies") == ["mine": "2", "jar": "1"])
            try await session.invalidate(cancelingTasks: true)
        }
    }
}

@Suite("The response cache")
struct CacheTests {
    @Test func aFreshResponseIsServedFromTheCacheWithoutARequest() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            let first = try await get(session, "cache", on: server)
            #expect(first.cache == .stored)
            let second = try await get(session, "cache", on: server)
            guard case .hit? = second.cache else { Issue.record("expected a cache hit, got \(String(describing: second.cache))"); return }
            #expect(second.metrics.requestCount == 0)
            #expect(second.data == first.data)
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func revalidatingAnswers304AndServesTheCachedBody() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            let first = try await get(session, "cache", on: server)
            let task = try session.dataTask(with: try {
                var request = try draft("GET", "cache", on: server)
                request.observed.cachePolicy = .reloadRevalidatingCacheData
                return try request.build()
            }())
            task.resume()
            let second = await task.result()
            #expect(second.cache == .notModified)
            #expect(second.metrics.requestCount == 1)
            #expect(second.response?.statusCode == 200)
            #expect(second.data == first.data)
            let sent = task.timeline.compactMap { event -> HTTPRequest? in if case .requestSent(let request) = event { request } else { nil } }
            #expect(sent.first?.headers["If-None-Match"] == first.response?.headers["ETag"])
            #expect(sent.first?.headers["If-Modified-Since"] == first.response?.headers["Last-Modified"])
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func reloadIgnoringTheCacheAlwaysAsksTheServer() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            _ = try await get(session, "cache", on: server)
            let again = try await get(session, "cache", on: server, policy: .reloadIgnoringLocalCacheData)
            #expect(again.metrics.requestCount == 1)
            #expect(again.response?.statusCode == 200)
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func returnCacheDataDontLoadFailsWithoutACachedResponse() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            let result = try await get(session, "get", on: server, policy: .returnCacheDataDontLoad)
            #expect(result.transportError?.reason == .notCached)
            #expect(result.metrics.requestCount == 0)
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func responsesWithoutFreshnessOrValidatorsAreNotStored() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            let result = try await get(session, "get", on: server)
            #expect(result.cache == nil)
            #expect(session.cache.count == 0)
            try await session.invalidate(cancelingTasks: true)
        }
    }
}

@Suite("Authentication challenges")
struct AuthenticationTests {
    @Test func aBasicChallengeIsAnsweredWithTheCredential() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            let taskOptions = options { $0.credential = Credential(user: "ann", password: "pw") }
            let task = try session.dataTask(with: try draft("GET", "basic-auth/ann/pw", on: server).build(), options: taskOptions)
            task.resume()
            let result = await task.result()
            #expect(result.response?.statusCode == 200)
            #expect(result.metrics.requestCount == 2)
            #expect(task.timeline.contains { if case .retried(.authentication("Basic", "Fake Realm")) = $0 { true } else { false } })
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test(arguments: ["auth/MD5", "auth/SHA-256", "auth/SHA-512-256-sess", "auth-int/MD5-sess", "none/MD5"])
    func aDigestChallengeIsAnswered(variant: String) async throws {
        let parts = variant.split(separator: "/")
        try await withDemoServer { server in
            let session = try manager(server)
            let taskOptions = options { $0.credential = Credential(user: "bo", password: "secret") }
            let result = try await get(session, "digest-auth/\(parts[0])/bo/secret/\(parts[1])", on: server, options: taskOptions)
            #expect(result.response?.statusCode == 200, "\(variant)")
            #expect(field(try json(result), "authenticated") == true)
            #expect(result.request.headers["Authorization"] == nil, "the stored request stays as the user built it")
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func aWrongPasswordIsTriedOnceAndThe401Returned() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            let taskOptions = options {
                $0.credential = Credential(user: "bo", password: "wrong")
                $0.responseSerializer = HTTPResponseSerializer()
            }
            let result = try await get(session, "digest-auth/auth/bo/secret", on: server, options: taskOptions)
            #expect(result.response?.statusCode == 401)
            #expect(result.metrics.requestCount == 2)
            #expect(result.serialization?.error?.code == -1011)
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func withoutACredentialTheChallengeIsReturnedAsItIs() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            let taskOptions = options { $0.responseSerializer = HTTPResponseSerializer() }
            let result = try await get(session, "basic-auth/ann/pw", on: server, options: taskOptions)
            #expect(result.response?.statusCode == 401)
            #expect(result.metrics.requestCount == 1)
            try await session.invalidate(cancelingTasks: true)
        }
    }
}

@Suite("Decompression")
struct DecompressionTests {
    @Test(arguments: [("gzip", "gzipped"), ("deflate", "deflated")])
    func compressedBodiesArriveDecoded(path: String, flag: String) async throws {
        try await withDemoServer { server in
            let result = try await send(try draft("GET", path, on: server))
            #expect(result.response?.headers["Content-Encoding"] == path)
            #expect(field(try json(result), flag) == true)
        }
    }
}

@Suite("Downloads and resume")
struct DownloadTests {
    static func alphabet(_ range: Range<Int>) -> [UInt8] {
        range.map { UInt8(ascii: "a") + UInt8($0 % 26) }
    }

    private func download(_ session: URLSessionManager, _ path: String, to file: String, resuming: Bool = false, on server: DemoServer, options: TaskOptions) async throws -> (TaskResult, SessionTask) {
        let task = try session.downloadTask(with: try draft("GET", path, on: server).build(), to: file, resuming: resuming, options: options)
        task.resume()
        return (await task.result(), task)
    }

    @Test func aDownloadStreamsToTheFileAndKeepsNothingInMemory() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/alphabet.bin"
        try await withDemoServer { server in
            let session = try manager(server)
            let taskOptions = options { $0.responseSerializer = HTTPResponseSerializer() }
            let (result, task) = try await download(session, "range/300000", to: file, on: server, options: taskOptions)
            #expect(result.download?.completed == true)
            #expect(result.download?.bytesWritten == 300_000)
            #expect(result.data.isEmpty)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file))) == Self.alphabet(0..<300_000))
            #expect(!FileManager.default.fileExists(atPath: file + ".part"))
            #expect(!FileManager.default.fileExists(atPath: file + ".part.validator"))
            #expect(task.downloadProgress == TransferProgress(completed: 300_000, expected: 300_000))
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test("a download to a FIFO, named or through a symbolic link, is written into it: no partial file, and the FIFO is still a FIFO (as /dev/null stays a device)", arguments: [false, true])
    func aDownloadToAPipeIsWrittenIntoIt(throughALink: Bool) async throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let destination = throughALink ? directory.path + "/link" : fifo
        if throughALink { try FileManager.default.createSymbolicLink(atPath: destination, withDestinationPath: "pipe") }
        // The reader drains the FIFO as the download writes it, on a thread of its own. It holds
        // the FIFO open for writing too, so opening it never blocks, and it stops at the body's
        // length, or after ten quiet seconds if the download never writes there.
        let reader = Task.detached {
            await offThePool { () -> [UInt8] in
                let descriptor = open(fifo, O_RDWR | O_CLOEXEC)
                guard descriptor >= 0 else { return [] }
                defer { close(descriptor) }
                var read: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while read.count < 100_000 {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    guard poll(&ready, 1, 10_000) > 0 else { break }
                    let count = Glibc.read(descriptor, &chunk, chunk.count)
                    guard count > 0 else { break }
                    read += chunk[0..<count]
                }
                return read
            }
        }
        try await withDemoServer { server in
            let session = try manager(server)
            let taskOptions = options { $0.responseSerializer = HTTPResponseSerializer() }
            let (result, _) = try await download(session, "range/100000", to: destination, resuming: true, on: server, options: taskOptions)
            #expect(result.transportError == nil, "\(String(describing: result.transportError))")
            #expect(result.download?.completed == true)
            #expect(result.download?.bytesWritten == 100_000)
            try await session.invalidate(cancelingTasks: true)
        }
        #expect(await reader.value == Self.alphabet(0..<100_000))
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == (throughALink ? ["link", "pipe"] : ["pipe"]))
    }

    @Test func resumingContinuesThePartialFileWithRangeAndIfRange() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/alphabet.bin"
        _ = try directory.write("alphabet.bin.part", Self.alphabet(0..<40_000))
        _ = try directory.write("alphabet.bin.part.validator", Array("\"range100000\"\n".utf8))
        try await withDemoServer { server in
            let session = try manager(server)
            let taskOptions = options { $0.responseSerializer = HTTPResponseSerializer() }
            let (result, task) = try await download(session, "range/100000", to: file, resuming: true, on: server, options: taskOptions)
            #expect(result.response?.statusCode == 206)
            #expect(result.download?.resumedFrom == 40_000)
            #expect(result.download?.bytesWritten == 60_000)
            #expect(result.download?.completed == true)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file))) == Self.alphabet(0..<100_000))
            let sent = task.timeline.compactMap { event -> HTTPRequest? in if case .requestSent(let request) = event { request } else { nil } }
            #expect(sent.first?.headers["Range"] == "bytes=40000-")
            #expect(sent.first?.headers["If-Range"] == "\"range100000\"")
            #expect(task.downloadProgress == TransferProgress(completed: 100_000, expected: 100_000))
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func aChangedResourceRestartsTheDownloadWithA200() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/alphabet.bin"
        _ = try directory.write("alphabet.bin.part", Array(repeating: UInt8(ascii: "z"), count: 5_000))
        _ = try directory.write("alphabet.bin.part.validator", Array("\"an-older-version\"\n".utf8))
        try await withDemoServer { server in
            let session = try manager(server)
            let taskOptions = options { $0.responseSerializer = HTTPResponseSerializer() }
            let (result, _) = try await download(session, "range/20000", to: file, resuming: true, on: server, options: taskOptions)
            #expect(result.response?.statusCode == 200)
            #expect(result.download?.restarted == true)
            #expect(result.download?.resumedFrom == nil)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file))) == Self.alphabet(0..<20_000))
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func aPartialFileThatIsAlreadyWholeCompletesOnA416() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/alphabet.bin"
        _ = try directory.write("alphabet.bin.part", Self.alphabet(0..<500))
        try await withDemoServer { server in
            let session = try manager(server)
            // The serializer's acceptable codes are the usual 2xx: the 416 is the download's success, not validated.
            let taskOptions = options { $0.responseSerializer = HTTPResponseSerializer() }
            let (result, _) = try await download(session, "range/500", to: file, resuming: true, on: server, options: taskOptions)
            #expect(result.response?.statusCode == 416)
            #expect(result.serialization?.error == nil, "\(String(describing: result.serialization?.error))")
            #expect(result.download?.alreadyComplete == true)
            #expect(result.download?.completed == true)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file))) == Self.alphabet(0..<500))
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func aFailedDownloadLeavesTheExistingFileAlone() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("keep.txt", Array("precious".utf8))
        try await withDemoServer { server in
            let session = try manager(server)
            let taskOptions = options { $0.responseSerializer = HTTPResponseSerializer() }
            let (result, _) = try await download(session, "status/404", to: file, on: server, options: taskOptions)
            #expect(result.response?.statusCode == 404)
            #expect(result.download?.completed == false)
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious")
            #expect(!FileManager.default.fileExists(atPath: file + ".part"))
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func aDownloadCutShortKeepsThePartialFileForLater() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/slow.bin"
        try await withDemoServer { server in
            let session = try manager(server)
            let taskOptions = options { $0.responseSerializer = HTTPResponseSerializer() }
            let task = try session.downloadTask(with: try draft("GET", "drip?duration=5&numbytes=50", on: server).build(), to: file, options: taskOptions)
            let events = task.events
            task.resume()
            // Cancel once some bytes are on disk, however slowly the machine runs: the task says when.
            for await event in events {
                if case .downloadProgress(let progress) = event, progress.completed >= 3 { break }
            }
            task.cancel()
            let result = await task.result()
            #expect(result.transportError?.reason == .cancelled)
            #expect(result.download?.completed == false)
            let kept = try Data(contentsOf: URL(fileURLWithPath: file + ".part"))
            #expect(kept.count > 0 && kept.count < 50)
            #expect(!FileManager.default.fileExists(atPath: file))
            try await session.invalidate(cancelingTasks: true)
        }
    }
}

@Suite("Uploads")
struct UploadTests {
    @Test func aFileIsStreamedFromDiskWithProgressToTheLastByte() async throws {
        let directory = try TemporaryDirectory()
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = try directory.write("upload.bin", bytes)
        try await withDemoServer { server in
            let session = try manager(server)
            let task = try session.uploadTask(with: try draft("PUT", "upload", on: server).build(), fromFile: path)
            task.resume()
            let result = await task.result()
            #expect(field(try json(result), "bytes") == .integer(3_000_000))
            #expect(task.uploadProgress == TransferProgress(completed: 3_000_000, expected: 3_000_000))
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test func aMissingUploadFileIsRefusedBeforeSending() async throws {
        try await withDemoServer { server in
            let session = try manager(server)
            #expect(throws: RequestSerializationError.self) {
                try session.uploadTask(with: try draft("PUT", "upload", on: server).build(), fromFile: "/nonexistent/file.bin")
            }
            try await session.invalidate(cancelingTasks: true)
        }
    }

    @Test("a throttled multipart upload keeps its pace on the transport's clock, and reports progress as it goes")
    func aThrottledMultipartUploadKeepsItsPace() async throws {
        try await withDemoServer { server in
            let clock = TestClock()
            // The pace is kept on the transport's clock, and progress folded on the session's: both the test's.
            let session = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL), timing: Timing(clock), transportTiming: Timing(clock))
            let rate = 50_000
            let taskOptions = options { $0.uploadBytesPerSecond = rate }
            var request = try draft("POST", "post", on: server)
            request.items = [try RequestItem.parse("note=hello")]
            let directory = try TemporaryDirectory()
            let path = try directory.write("blob.bin", Array(repeating: 7, count: 100_000))
            request.items.append(try RequestItem.parse("blob@\(path)"))
            let built = try request.build()
            let length = try #require(built.body.length)
            let task = try session.dataTask(with: built, options: taskOptions)
            // Subscribed before the task starts, so no step is missed.
            let events = task.events
            let steps = Task { () -> [TransferProgress] in
                var steps: [TransferProgress] = []
                for await event in events { if case .uploadProgress(let step) = event { steps.append(step) } }
                return steps
            }
            task.resume()
            // The clock moves only when the test moves it, a tenth of a second at a time, each
            // time the paced writer waits: the body may never be ahead of the pace (a tenth of a
            // second of slack for the chunk in hand).
            var elapsed = Duration.zero
            while true {
                await clock.untilSomethingSleeps { task.state == .completed }
                if task.state == .completed { break }
                let allowed = Int64((elapsed + .milliseconds(100)).inSeconds * Double(rate))
                #expect(task.uploadProgress.completed <= allowed, "\(task.uploadProgress.completed) bytes sent at \(elapsed)")
                await clock.advance(by: .milliseconds(100))
                elapsed += .milliseconds(100)
            }
            let result = await task.result()
            let progress = await steps.value
            #expect(result.response?.statusCode == 200)
            #expect(field(try json(result), "form", "note") == "hello")
            #expect(progress.count >= 4, "progress arrived in \(progress.count) steps")
            #expect(progress.last == TransferProgress(completed: length, expected: length))
            // The whole body at 50 kB/s: the last chunk could not start before its time.
            #expect(elapsed.inSeconds >= Double(length) / Double(rate) - 0.1, "finished after \(elapsed) on the transport's clock")
            try await session.invalidate(cancelingTasks: true)
        }
    }
}
