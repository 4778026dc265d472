import Foundation
import TestSupport
import Testing
import TincanCore
import TincanSessions

/// The body bytes an imported command sends (its file body read from `directory`).
func sentBody(_ imported: CurlCommand.Imported, directory: String) throws -> [UInt8] {
    try build(Session(requests: [imported.request]), directory: directory).body.collect()
}

/// Each expectation below is what `/usr/bin/curl` 7.88.1 sent to a loopback server for the same
/// command (CurlFidelityTests checks a set of them against curl on every run).
@Suite("Importing curl commands as curl sends them")
struct CurlImportTests {
    /// CR LF, a lone CR in mid-line, a NUL in mid-line, and no final newline.
    static let awkward = Array("a b\r\nc\rd\ne\0f\ng".utf8)

    @Test func dataFromAFileLosesItsLineBreaksAsCurlsDoes() throws {
        let folder = try TemporaryDirectory()
        try folder.write("f.txt", Self.awkward)
        // -d and --data-ascii cut each line at its first CR, LF or NUL.
        for option in ["-d", "--data", "--data-ascii"] {
            let imported = try CurlCommand.parse("curl http://h/ \(option) @f.txt", workingDirectory: folder.path)
            #expect(try sentBody(imported, directory: folder.path) == Array("a bceg".utf8), "\(option)")
            #expect(imported.warnings.contains { $0.hasPrefix("-d @f.txt: curl sends the file without its line breaks") })
        }
        // --data-binary keeps the file, --data-raw takes the @ literally.
        let binary = try CurlCommand.parse("curl http://h/ --data-binary @f.txt", workingDirectory: folder.path)
        #expect(binary.request.body == .file("f.txt"))
        #expect(try sentBody(binary, directory: folder.path) == Self.awkward)
        #expect(try CurlCommand.parse("curl http://h/ --data-raw @f.txt", workingDirectory: folder.path).request.body == .text("@f.txt"))
    }

    @Test func aFileCurlSendsUnchangedStaysAFileBody() throws {
        let folder = try TemporaryDirectory()
        try folder.write("one-line.json", Array(#"{"a": 1}"#.utf8))
        let imported = try CurlCommand.parse("curl http://h/ -d @one-line.json", workingDirectory: folder.path)
        #expect(imported.request.body == .file("one-line.json"))
        #expect(!imported.warnings.contains { $0.contains("line breaks") })
    }

    @Test func longLinesAreCutInCurlsPiecesOf255Bytes() throws {
        // fgets reads 255 bytes at a time, and each piece is cut at its own first CR.
        let folder = try TemporaryDirectory()
        try folder.write("long.txt", Array(repeating: UInt8(ascii: "A"), count: 10) + [0x0D] + Array(repeating: UInt8(ascii: "B"), count: 289) + [0x0A])
        let imported = try CurlCommand.parse("curl http://h/ -d @long.txt", workingDirectory: folder.path)
        #expect(try sentBody(imported, directory: folder.path) == Array(repeating: UInt8(ascii: "A"), count: 10) + Array(repeating: UInt8(ascii: "B"), count: 45))
    }

    @Test func dataPiecesJoinAsCurlJoinsThem() throws {
        let folder = try TemporaryDirectory()
        try folder.write("f.txt", Self.awkward)
        // & before each piece but --json's; files read in their mode.
        let imported = try CurlCommand.parse("curl http://h/ -d a --data-binary @f.txt --json x -d @f.txt", workingDirectory: folder.path)
        #expect(try sentBody(imported, directory: folder.path) == Array("a&".utf8) + Self.awkward + Array("x&a bceg".utf8))
    }

    @Test(arguments: [
        ("a b/c?d&e=f+g~h*é!", "a b/c?d&e=f%2Bg~h%2A%C3%A9%21"),
        ("=a b=c", "a+b%3Dc"),
        ("na me=a b=c", "na me=a+b%3Dc"),
        ("@u.txt", "x+y%2Fz%3F%26%3D%2B%0A~%C3%A9%0D%0A"),
        ("n@u.txt", "n=x+y%2Fz%3F%26%3D%2B%0A~%C3%A9%0D%0A"),
        ("a@b=c d", "a@b=c+d"),
        ("plain-._~", "plain-._~"),
        ("n=", "n="),
    ])
    func dataURLEncodeEncodesAsCurlDoes(_ argument: String, _ sent: String) throws {
        let folder = try TemporaryDirectory()
        try folder.write("u.txt", Array("x y/z?&=+\n~é\r\n".utf8))
        let imported = try CurlCommand.parse("curl http://h/ --data-urlencode \(ShellWords.quote(argument))", workingDirectory: folder.path)
        #expect(try sentBody(imported, directory: folder.path) == Array(sent.utf8))
    }

    @Test func dataURLEncodeOfAMissingFileSendsNothingAndSaysSo() throws {
        let imported = try CurlCommand.parse("curl http://h/ --data-urlencode n@missing.txt", workingDirectory: "/")
        #expect(imported.request.body == .text(""))
        #expect(imported.warnings.first == "--data-urlencode: missing.txt cannot be read, so nothing is sent for it (as curl does)")
    }

    @Test func aBodilessPostGainsNoContentTypeAndTheContentLengthIsReported() throws {
        let imported = try CurlCommand.parse("curl -X POST http://h/items")
        let head = try build(Session(requests: [imported.request])).wireHead
        #expect(!head.headers.contains(name: "Content-Type"))
        // AsyncHTTPClient frames every POST: the one byte-level difference left, and it is named.
        #expect(head.headers["Content-Length"] == "0")
        #expect(imported.warnings.contains("POST without a body: curl sends no Content-Length; Tincan's transport (AsyncHTTPClient) always sends Content-Length: 0 for POST"))
    }

    @Test func tincansOwnDefaultHeadersAreRemovedUnlessTheCommandSetsThem() throws {
        let head = try build(Session(requests: [try CurlCommand.parse("curl -H 'Accept-Language: fr' http://h/").request])).wireHead
        #expect(head.headers.map(\.name) == ["Host", "User-Agent", "Accept", "Accept-Language"])
        #expect(head.headers["Accept-Language"] == "fr")
        #expect(head.headers["Accept"] == "*/*")
    }

    @Test func anUploadSendsNoContentTypeAndGoesWhereCurlPutsIt() throws {
        let folder = try TemporaryDirectory()
        try folder.write("a b.txt", Array("x".utf8))
        let imported = try CurlCommand.parse("curl -T 'a b.txt' 'http://h/dir/?q=1' --limit-rate 2k", workingDirectory: folder.path)
        // A URL ending in / gets the file's name, escaped, before the query.
        #expect(imported.request.url == "http://h/dir/a%20b.txt?q=1")
        #expect(imported.request.upload == SavedUpload(file: "a b.txt", rate: "2048"))
        #expect(imported.request.method == "PUT")
        let resolved = try Session(requests: [imported.request]).resolve(0, template: Template(variables: [:]), directory: folder.path)
        #expect(!(try resolved.draft.build().headers.contains(name: "Content-Type")))
        #expect(imported.warnings.contains { $0.hasPrefix("-T: curl sends Expect: 100-continue") })
        #expect(try CurlCommand.parse("curl -T a.txt http://h").request.url == "http://h/a.txt")
        #expect(try CurlCommand.parse("curl -T a.txt http://h/x").request.url == "http://h/x")
    }

    @Test func aFormFieldFromAFileIsItsTextAndFilePartsKeepTheirType() throws {
        let folder = try TemporaryDirectory()
        try folder.write("note.txt", Array("hello\n".utf8))
        let imported = try CurlCommand.parse("curl http://h/ -F 'note=<note.txt' -F 'doc=@\"a;b.txt\";type=text/x'", workingDirectory: folder.path)
        #expect(imported.request.params == .dictionary(["note": "hello\n"]))
        #expect(imported.request.files == [SavedFile(field: "doc", path: "a;b.txt", type: "text/x")])
        #expect(imported.warnings.contains { $0.hasPrefix("-F 'note=<note.txt': the file's text was read now") })
    }

    @Test func whatASessionCannotSayIsReportedNotDropped() throws {
        let imported = try CurlCommand.parse("curl -sSk -m 5 --max-redirs 3 -L -X PATCH --retry 2 --http2 --cacert ca.pem http://h/ -d x")
        let warnings = imported.warnings.joined(separator: "\n")
        for option in ["-X PATCH -L", "--retry 2", "--cacert ca.pem", "-k"] {
            #expect(warnings.contains(option + ":"), "\(option) in \(warnings)")
        }
        // -m is the whole transfer's deadline, which a request's max-time: says exactly.
        #expect(!warnings.contains("-m 5"), "\(warnings)")
        #expect(imported.request.maxTime == 5)
        #expect(imported.request.properties.timeoutInterval == nil)
        let session = Session(requests: [try CurlCommand.parse("curl -m 2.5 http://h/").request])
        let resolved = try session.resolve(0, template: Template(variables: [:]), directory: "/tmp")
        let exported = CurlCommand.export(try resolved.draft.build(), resolved: resolved).command
        #expect(exported.contains("--max-time 2.5"), "\(exported)")
        #expect(try CurlCommand.parse(exported).request.maxTime == 2.5)
        #expect(throws: InterchangeError.self) { _ = try CurlCommand.parse("curl -m -1 http://h/") }
        #expect(!warnings.contains("--max-redirs"), "a request keeps its redirect limit")
        #expect(!warnings.contains("--http2"), "a request keeps the version it asks for")
        #expect(imported.request.httpVersion == .http2)
        #expect(try CurlCommand.parse("curl --http1.1 http://h/").request.httpVersion == .http1_1)
        #expect(try CurlCommand.parse("curl http://h/").request.httpVersion == nil)
        #expect(try CurlCommand.parse("curl -L --speed-time 5 --connect-timeout 5 http://h/").warnings.isEmpty)
    }

    @Test("curl's redirect choice is kept: no -L stops at the first, -L follows up to --max-redirs or curl's 50")
    func redirectsAreKept() throws {
        let plain = try CurlCommand.parse("curl http://h/")
        #expect(plain.warnings.isEmpty)
        #expect(plain.request.flow.redirectPolicy == .doNotFollow)
        #expect(try CurlCommand.parse("curl -L http://h/").request.flow.redirectPolicy == .follow(maximum: 50))
        #expect(try CurlCommand.parse("curl -L --max-redirs 3 http://h/").request.flow.redirectPolicy == .follow(maximum: 3))
        // Tincan's own default needs no key.
        #expect(try CurlCommand.parse("curl -L --max-redirs 10 http://h/").request.flow.isEmpty)
        let unlimited = try CurlCommand.parse("curl -L --max-redirs -1 http://h/")
        #expect(unlimited.request.flow.maxRedirects == 1_000)
        #expect(unlimited.warnings == ["--max-redirs -1: curl's unlimited redirects are kept as Tincan's most, 1000"])
        // Anything else that is not 0…1000 is refused, naming the option, as curl refuses it.
        for bad in ["abc", "1001", "-2"] {
            #expect(throws: InterchangeError.self, "--max-redirs \(bad)") { try CurlCommand.parse("curl -L --max-redirs \(bad) http://h/") }
        }
        // And back: the export says what the session says.
        var session = Session(base: nil, requests: [plain.request, try CurlCommand.parse("curl -L --max-redirs 3 http://h/").request])
        session.name = "r"
        let yaml = session.yamlText()
        #expect(yaml.contains("follow-redirects: false"))
        #expect(yaml.contains("max-redirects: 3"))
    }

    @Test func proxiesAndClientCertificatesAreReportedAsSessionSettingsWithThePasswordHidden() throws {
        let imported = try CurlCommand.parse("curl -L -x http://ann:s3cret@p:3128 --noproxy localhost -E client.pem --key client.key http://h/")
        let warnings = imported.warnings.joined(separator: "\n")
        #expect(warnings.contains("-x http://ann:***@p:3128: proxies are session-wide in Tincan; add proxy: http://ann:***@p:3128 under defaults:"), "\(warnings)")
        #expect(warnings.contains("--noproxy localhost: proxies are session-wide"))
        #expect(warnings.contains("-E client.pem: client certificates are session-wide in Tincan; add cert: client.pem under defaults: tls:"))
        #expect(warnings.contains("--key client.key: client certificates are session-wide"))
        #expect(!warnings.contains("s3cret"))
    }

    @Test func clusteredShortOptionsTakeTheirValueFromTheRestOfTheWord() throws {
        let request = try CurlCommand.parse("curl -sLXPUT -dx http://h/").request
        #expect(request.method == "PUT")
        #expect(request.body == .text("x"))
        #expect(throws: InterchangeError(.unsupportedOption("-Z"))) {
            try CurlCommand.parse("curl -sZ http://h/")
        }
    }
}

@Suite("Imported file paths")
struct ImportedPathTests {
    @Test func pathsAreRewrittenForTheSessionFilesFolder() throws {
        let folder = try TemporaryDirectory()
        let sessionFolder = folder.path + "/other/dir"
        try FileManager.default.createDirectory(atPath: sessionFolder, withIntermediateDirectories: true)
        var request = SavedRequest(url: "http://h/")
        request.files = [SavedFile(field: "f", path: "data/a.png"), SavedFile(field: "g", path: "/abs/b.png"), SavedFile(field: "h", path: "{{dir}}/c.png")]
        request.upload = SavedUpload(file: "other/up.bin", rate: "1k")
        request.download = "out.json"
        request.body = .file("./body.txt")
        let rebased = request.rebasingPaths(from: folder.path, to: sessionFolder)
        #expect(rebased.files.map(\.path) == ["../../data/a.png", "/abs/b.png", "{{dir}}/c.png"])
        #expect(rebased.upload == SavedUpload(file: "../up.bin", rate: "1k"))
        #expect(rebased.download == "../../out.json")
        #expect(rebased.body == .file("../../body.txt"))
        #expect(request.rebasingPaths(from: folder.path, to: folder.path + "/.") == request)
    }

    @Test func aDeviceOrAFIFOIsNeverReadAndABinaryFileIsNotReadAtAll() throws {
        let started = ContinuousClock.now
        // Run from /dev, so that the device is a file of the current folder, which an import may read.
        let zero = try CurlCommand.parse("curl http://h/ -d @zero", workingDirectory: "/dev")
        #expect(zero.request.body == .file("zero"))
        #expect(zero.warnings.contains { $0.contains("cannot be read now (missing, not a regular file") }, "\(zero.warnings)")
        let binary = try CurlCommand.parse("curl http://h/ --data-binary @zero", workingDirectory: "/dev")
        #expect(binary.request.body == .file("zero"))
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
