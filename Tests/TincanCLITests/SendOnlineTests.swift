import Foundation
import TestSupport
import Testing
@testable import tincan
import TincanCore
import TincanDemoServer


@Suite("tincan send talks to servers")
struct SendOnlineTests {
    @Test func printsTheStatusHeadersDecodedBodyAndTiming() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--print", "hbm", "GET", "\(server.baseURL)/get", "q==tea"])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("HTTP/1.1 200 OK\n"))
            #expect(result.stdout.contains("Content-Type: application/json"))
            #expect(result.stdout.contains("  \"args\": {\n    \"q\": \"tea\"\n  }"))
            #expect(result.stdout.contains("first byte"))
            #expect(result.stderr.isEmpty)
        }
    }

    @Test func jsonOutputFollowsTheContract() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--format", "json", "--serializer", "json", "POST", "\(server.baseURL)/anything", "n:=2"])
            #expect(result.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
            let request = try #require(object["request"] as? [String: Any])
            #expect(request["method"] as? String == "POST")
            #expect(request["body"] as? String == #"{"n":2}"#)
            let response = try #require(object["response"] as? [String: Any])
            #expect(response["status"] as? Int == 200)
            #expect(response["version"] as? String == "HTTP/1.1", "the version the server answered in")
            #expect(response["mimeType"] as? String == "application/json")
            #expect(((response["body"] as? [String: Any])?["json"] as? [String: Int]) == ["n": 2])
            let validation = try #require(object["validation"] as? [String: Any])
            #expect(validation["valid"] as? Bool == true)
            #expect((validation["errors"] as? [Any])?.isEmpty == true)
            #expect((object["timing"] as? [String: Any])?["totalMs"] is Double)
        }
    }

    @Test func aValidationFailureExitsThreeWithTheChainInJSON() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--format", "json", "--accept-type", "application/json", "--accept-status", "201", "GET", "\(server.baseURL)/xml"])
            #expect(result.status == 3)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
            let errors = try #require((object["validation"] as? [String: Any])?["errors"] as? [[String: Any]])
            #expect(errors.first?["code"] as? Int == -1011)
            #expect(errors.first?["message"] as? String == "Request failed: no error (200)")
            #expect(errors.first?["domain"] as? String == "io.tincan.error.serialization.response")
            let underlying = try #require(errors.first?["underlying"] as? [String: Any])
            #expect(underlying["code"] as? Int == -1016)
            #expect(underlying["message"] as? String == "Request failed: unacceptable content-type: application/xml")
            #expect(underlying["underlying"] is NSNull)
        }
    }

    @Test func acceptStatusWidensWhatPasses() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--accept-status", "200-299,404", "GET", "\(server.baseURL)/status/404"])
            #expect(result.status == 0)
        }
    }

    @Test func anUndecodableBodyExitsFive() async throws {
        try await withDemoServer { server in
            // Bytes that are not UTF-8 fail as AFNetworking fails them, before any JSON is parsed.
            let result = try await tincan(["send", "--response-serializer", "json", "--accept-type", "application/octet-stream", "GET", "\(server.baseURL)/bytes/16"])
            #expect(result.status == 5)
            #expect(result.stderr.contains("Data failed decoding as a UTF-8 string"), "the error is said on standard error: \(result.stderr)")
            // Text that is not JSON fails in the JSON parser.
            let xml = try await tincan(["send", "--response-serializer", "json", "--accept-type", "application/xml", "GET", "\(server.baseURL)/xml"])
            #expect(xml.status == 5)
            #expect(xml.stderr.contains("The JSON body could not be decoded"))
        }
    }

    @Test("an XML body libxml2 cannot convert exits 5 with its error, and nothing of libxml2's reaches standard error")
    func badlyEncodedXMLExitsFive() async throws {
        let body = Array(#"<?xml version="1.0" encoding="Shift_JIS"?><r>"#.utf8) + [0x82, 0xA0, 0xFF, 0xFE, 0x80] + Array(" abc</r>".utf8)
        let server = try RawHTTPServer { _, socket in
            _ = RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n")
            _ = RawHTTPServer.write(socket, body)
        }
        defer { server.stop() }
        let result = try await tincan(["send", "--response-serializer", "xml", "GET", "http://127.0.0.1:\(server.port)/"])
        #expect(result.status == 5)
        // Tincan's own words on standard error, and nothing of libxml2's.
        #expect(result.stderr.hasPrefix("✗ The XML body could not be decoded: line 1"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("✗") || $0.hasPrefix("  ↳") }, "\(result.stderr)")
    }

    @Test func aTransportErrorExitsFour() async throws {
        let refusing = try RefusingPort()
        let result = try await tincan(["send", "GET", "http://127.0.0.1:\(refusing.port)/get"])
        withExtendedLifetime(refusing) {}
        #expect(result.status == 4)
        #expect(result.stderr.contains("cannot connect"))
        #expect(result.stdout.isEmpty)
    }

    @Test func anIdleTimeoutExitsFourAndNamesTheTimeout() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--timeout", "0.3", "GET", "\(server.baseURL)/drip?delay=2&numbytes=1"])
            #expect(result.status == 4)
            #expect(result.stderr.contains("idle timeout"))
        }
    }

    @Test("--max-redirects bounds the redirects followed, and 0 shows the redirect itself")
    func maxRedirectsBoundsTheHops() async throws {
        try await withDemoServer { server in
            let none = try await tincan(["send", "--print", "hbm", "--max-redirects", "0", "--response-serializer", "http", "--accept-status", "2xx,3xx", "GET", "\(server.baseURL)/redirect/3"])
            #expect(none.status == 0, "\(none.stderr)")
            #expect(none.stdout.contains("HTTP/1.1 302"), "\(none.stdout)")
            #expect(!none.stdout.contains("redirect to"), "no hop is followed: \(none.stdout)")
            let two = try await tincan(["send", "--max-redirects", "2", "--format", "json", "--response-serializer", "http", "--accept-status", "2xx,3xx", "GET", "\(server.baseURL)/redirect/3"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(two.stdoutBytes)) as? [String: Any])
            #expect((object["response"] as? [String: Any])?["status"] as? Int == 302, "the third redirect is returned as it is")
            #expect((object["redirects"] as? [Any])?.count == 2, "\(two.stdout)")
        }
    }

    @Test("--max-time ends a request that keeps receiving bytes, exit 4 naming the deadline")
    func maxTimeIsADeadline() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--max-time", "0.5", "--timeout", "5", "GET", "\(server.baseURL)/drip?duration=10&numbytes=100"])
            #expect(result.status == 4)
            #expect(result.stderr.contains("took longer than 0.5 s (request deadline)"), "\(result.stderr)")
        }
    }

    @Test func badResponseOptionsExitTwo() async throws {
        let serializer = await ending(of: ["send", "--response-serializer", "yaml", "GET", "http://127.0.0.1:9/"])
        #expect(serializer.status == 2)
        #expect(serializer.standardError?.contains("Please provide one of the following:\n  - http\n  - json\n  - xml\n  - plist\n  - image\n  - compound") == true, "\(serializer)")
        let status = await ending(of: ["send", "--accept-status", "6xx", "GET", "http://127.0.0.1:9/"])
        #expect(status.status == 2)
        #expect(status.standardError?.contains("'6xx' is not a status code or range") == true, "\(status)")
    }
}

@Suite("tincan serve")
struct ServeCommandTests {
    @Test func servesTheDemoRoutesAndLogsEachRequest() async throws {
        // Port 0: the system picks a free one, and the banner says which.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.tincan)
        process.arguments = ["serve", "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { process.terminate() }
        // It says where it listens once it does: read its output until then.
        let reader = output.fileHandleForReading
        let banner = await offThePool { () -> String in
            var read = Data()
            while !String(decoding: read, as: UTF8.self).contains("\n") {
                let more = reader.availableData
                if more.isEmpty { break }
                read += more
            }
            return String(decoding: read, as: UTF8.self)
        }
        let base = try #require(banner.firstRange(of: /http:\/\/127\.0\.0\.1:[1-9][0-9]*/).map { String(banner[$0]) }, "\(banner)")
        #expect(banner.hasPrefix("tincan demo server on \(base) "))
        let response = try await tincan(["send", "GET", base + "/json"])
        #expect(response.stdout.contains("Sample Slide Show"))
        process.terminate()
        process.waitUntilExit()
        let log = banner + String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("GET /json 200"))
    }
}
