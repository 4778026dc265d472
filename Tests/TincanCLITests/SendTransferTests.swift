import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer


private func alphabet(_ range: Range<Int>) -> [UInt8] {
    range.map { UInt8(ascii: "a") + UInt8($0 % 26) }
}

@Suite("tincan send downloads, uploads, authenticates and checks TLS")
struct SendTransferTests {
    @Test func downloadWritesTheFileAndContinueResumesIt() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/out.bin"
        try await withDemoServer { server in
            let first = try await tincan(["send", "--download", file, "GET", "\(server.baseURL)/range/50000"])
            #expect(first.status == 0)
            // Where the body went is said on standard error: standard output is a pipe here.
            #expect(first.stderr.contains("✓ saved 50,000 bytes"), "\(first.stderr)")
            #expect(first.stdout.isEmpty)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file))) == alphabet(0..<50_000))

            let part = try directory.write("again.bin.part", alphabet(0..<10_000))
            let resumed = try await tincan(["send", "--format", "json", "--download", directory.path + "/again.bin", "--continue", "GET", "\(server.baseURL)/range/50000"])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(resumed.stdoutBytes)) as? [String: Any])
            let download = try #require(object["download"] as? [String: Any])
            #expect(download["resumedFrom"] as? Int == 10_000)
            #expect(download["bytesWritten"] as? Int == 40_000)
            #expect(download["completed"] as? Bool == true)
            #expect(!FileManager.default.fileExists(atPath: part))
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: directory.path + "/again.bin"))) == alphabet(0..<50_000))
        }
    }

    @Test("--download /dev/stdout into a pipe writes the body into the pipe: /proc's link to it names no file, yet it is opened, not refused as a dangling link")
    func downloadToStandardOutputThroughItsLink() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--download", "/dev/stdout", "GET", "\(server.baseURL)/range/50000"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdoutBytes == alphabet(0..<50_000))
            #expect(result.stderr.contains("✓ saved 50,000 bytes"), "\(result.stderr)")
        }
    }

    @Test("--download to a folder is refused before anything is sent, exit 2, naming the folder; --continue on a part already whole exits 0")
    func downloadToAFolderIsRefusedAndAWholePartCompletes() async throws {
        let directory = try TemporaryDirectory()
        try await withDemoServer { server in
            let refused = try await tincan(["send", "--download", directory.path, "POST", "\(server.baseURL)/post", "x=1"])
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(refused.stderr.contains("cannot download to \(directory.path): it is a folder"), "\(refused.stderr)")
            #expect(server.received.all.isEmpty, "nothing was sent")

            _ = try directory.write("whole.bin.part", alphabet(0..<5_000))
            let whole = try await tincan(["send", "--download", directory.path + "/whole.bin", "--continue", "GET", "\(server.baseURL)/range/5000"])
            #expect(whole.status == 0, "\(whole.stderr)")
            #expect(whole.stderr.contains("was already complete"), "\(whole.stderr)")
            #expect(!whole.stderr.contains("✗"), "\(whole.stderr)")
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: directory.path + "/whole.bin"))) == alphabet(0..<5_000))
        }
    }

    @Test func continueWithoutDownloadIsBadUsage() async throws {
        let result = try await tincan(["send", "--continue", "GET", "http://127.0.0.1:9/x"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--continue resumes a download; it needs --output FILE"))
    }

    @Test func uploadStreamsTheFileAsTheBody() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("data.json", Array(repeating: UInt8(ascii: " "), count: 1_000_000))
        try await withDemoServer { server in
            let result = try await tincan(["send", "--upload", path, "PUT", "\(server.baseURL)/upload"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"bytes\": 1000000"))
            #expect(result.stdout.contains("\"content-type\": \"application/json\""))
        }
    }

    @Test func uploadRefusesBodyParametersItWouldDrop() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("x.bin", [1, 2, 3])
        let result = try await tincan(["send", "--upload", path, "POST", "http://127.0.0.1:9/upload", "a=1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("a POST request with parameters in its body cannot also have a raw body; put the parameters in the query"), "\(result.stderr)")
    }

    @Test func digestAuthenticationAnswersTheChallenge() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--format", "json", "--user", "kim:pw", "--auth-type", "digest", "GET", "\(server.baseURL)/digest-auth/auth/kim/pw/SHA-256"])
            #expect(result.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
            #expect((object["timing"] as? [String: Any])?["requests"] as? Int == 2)
            #expect(((object["response"] as? [String: Any])?["body"] as? [String: Any])?["authenticated"] as? Bool == true)
        }
    }

    @Test func aSelfSignedServerExitsFourWithTheReasonAndAPinLetsItThrough() async throws {
        let certificate = try TestCertificate.selfSigned()
        let directory = try TemporaryDirectory()
        let pin = try directory.write("server.pem", Array(certificate.certificatePEM.utf8))
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let refused = try await tincan(["send", "GET", "\(server.baseURL)/get"])
            #expect(refused.status == 4)
            #expect(refused.stderr.contains("TLS failed"))
            let pinned = try await tincan(["send", "--pin", pin, "GET", "\(server.baseURL)/get"])
            #expect(pinned.status == 0, "\(pinned.stdout)\(pinned.stderr)")
            let trusted = try await tincan(["send", "--ca-file", pin, "GET", "\(server.baseURL)/get"])
            #expect(trusted.status == 0)
            let insecure = try await tincan(["send", "--insecure", "GET", "\(server.baseURL)/get"])
            #expect(insecure.status == 0)
        }
    }

    @Test func pinningAnHTTPBaseIsBadUsage() async throws {
        let certificate = try TestCertificate.selfSigned()
        let directory = try TemporaryDirectory()
        let pin = try directory.write("server.pem", Array(certificate.certificatePEM.utf8))
        let result = try await tincan(["send", "--pin", pin, "--base", "http://127.0.0.1:9/", "GET", "get"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("invalid security policy"))
    }

    @Test func throttleNeedsARate() async throws {
        let result = try await tincan(["send", "--throttle", "fast", "GET", "http://127.0.0.1:9/"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'--throttle <RATE>': 'fast' is not a number; expected 1…1000000000000 bytes per second, such as 50000, 64k or 1.5M"), "\(result.stderr)")
    }
}
