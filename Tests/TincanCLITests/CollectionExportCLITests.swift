import Foundation
import TestSupport
import Testing
@testable import tincan
import TincanSessions

@Suite("tincan import bruno, and export --format postman and bruno")
struct CollectionExportCLITests {
    static let session = """
        name: Shop
        variables: {host: "http://127.0.0.1:9", token: abc123}
        requests:
          - name: list
            url: "{{host}}/items"
            headers: {Authorization: Bearer abc123}
          - name: key
            method: PUT
            url: "{{host}}/keys"
            upload: "{{file:id_rsa}}"
          - name: create
            group: admin
            method: POST
            url: "{{host}}/items"
            serializer: json
            params: {name: tea}
            assert:
              status: 201
        """

    @Test("tincan import bruno DIR reads a collection's folder, naming its scripts and the files it reads")
    func importsABrunoFolder() async throws {
        let directory = try TemporaryDirectory()
        let collection = (collectionFixturesDirectory as NSString).appendingPathComponent("bruno/testbench")
        let output = directory.path + "/bruno.tincan.yaml"
        let imported = try await tincan(["import", "bruno", collection, "-o", output])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("tincan: warning: collection.bru: the test script (10 lines) is not carried over; use capture: and assert: instead\n"), "\(imported.stderr)")
        #expect(imported.stderr.contains("tincan: warning: request 'binary upload json': the upload reads the local file file.json, in the imported file's folder\n"), "\(imported.stderr)")
        #expect(imported.stderr.hasSuffix("tincan: 15 requests added to \(output)\n"), "\(imported.stderr)")
        // What was written reads back and exports.
        let exported = try await tincan(["export", output, "--format", "curl", "--request", "ping", "--env", "Local", "--var", "request_pre_var_token=t"])
        #expect(exported.status == 0, "\(exported.stderr)")
    }

    @Test("export --format postman prints a collection or writes it; a request that cannot be exported is named, the others written, exit 2")
    func exportsPostman() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("shop.tincan.yaml", Array(Self.session.utf8))
        let printed = try await tincan(["export", file, "--format", "postman"])
        #expect(printed.status == 2, "\(printed.stderr)")
        #expect(printed.stdout.contains(#""schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json""#))
        #expect(printed.stdout.contains(#""name": "list""#) && printed.stdout.contains(#""name": "create""#))
        #expect(!printed.stdout.contains(#""name": "key""#))
        #expect(!printed.stdout.contains("abc123"), "secrets are hidden")
        #expect(printed.stderr.contains("tincan: error: not exported: request '#2 key': {{file:id_rsa}} stands for a file that an import named outside the folder it came from"), "\(printed.stderr)")
        #expect(printed.stderr.hasSuffix("tincan: error: 1 of 3 requests was not exported (named above); the others were\n"), "\(printed.stderr)")

        // Set, the placeholder is a file like any other; the collection goes to the file named.
        let written = try await tincan(["export", file, directory.path + "/shop.json", "--format", "postman", "--var", "file:id_rsa=key.pem", "--show-secrets"])
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOfFile: directory.path + "/shop.json", encoding: .utf8)
        #expect(text.contains("Bearer abc123"))
        #expect(text.contains(#""src": "{{file:id_rsa}}""#) || text.contains(#""name": "key""#))

        // The collection imports again as the same requests.
        let again = try await tincan(["import", "postman", directory.path + "/shop.json"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("  - name: create\n    group: admin\n    method: POST\n"), "\(again.stdout)")
    }

    @Test("export --format bruno writes a folder that imports again; it needs a folder, new or empty")
    func exportsBruno() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("shop.tincan.yaml", Array(Self.session.utf8))
        let missing = try await tincan(["export", file, "--format", "bruno"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--format bruno writes a folder: give it after the session"), "\(missing.stderr)")
        try FileManager.default.createDirectory(atPath: directory.path + "/full", withIntermediateDirectories: true)
        _ = try directory.write("full/keep.txt", Array("mine".utf8))
        let full = try await tincan(["export", file, directory.path + "/full", "--format", "bruno"])
        #expect(full.status == 2)
        #expect(full.stderr.contains("\(directory.path)/full is not empty; export into a new folder, so nothing there is written over"), "\(full.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/full") == ["keep.txt"])

        let folder = directory.path + "/bruno"
        let written = try await tincan(["export", file, folder, "--format", "bruno"])
        #expect(written.status == 2, "the placeholder's request is named: \(written.stderr)")
        #expect(written.stderr.contains("tincan: 2 requests written to \(folder) as a Bruno collection\n"), "\(written.stderr)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder).sorted()
        #expect(files == ["admin", "admin/create.bru", "admin/folder.bru", "bruno.json", "collection.bru", "list.bru"])
        let create = try String(contentsOfFile: folder + "/admin/create.bru", encoding: .utf8)
        #expect(create.contains("post {\n  url: {{host}}/items\n  body: json\n  auth: none\n}\n"), "\(create)")
        #expect(create.contains("assert {\n  res.status: eq 201\n}\n"), "\(create)")

        let again = try await tincan(["import", "bruno", folder])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("  - name: create\n    group: admin\n    method: POST\n    url: \"{{host}}/items\"\n    serializer: json\n"), "\(again.stdout)")
    }

    @Test("export --format curl goes on past a request with a file placeholder, naming it (exit 2)")
    func curlExportGoesOn() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("shop.tincan.yaml", Array(Self.session.utf8))
        let exported = try await tincan(["export", file])
        #expect(exported.status == 2)
        #expect(exported.stdout.contains("# list\ncurl "), "\(exported.stdout)")
        #expect(exported.stdout.contains("# create\ncurl "), "\(exported.stdout)")
        #expect(exported.stderr.contains("'#2 key': {{file:id_rsa}} stands for a file"), "\(exported.stderr)")
    }

    @Test("the progress line: nothing in the first second, then where the import stands")
    func progressLine() {
        #expect(ImportProgressLine.text(.parsing(bytes: 3_000_000), label: "api.json", elapsed: .milliseconds(900)) == nil)
        #expect(ImportProgressLine.text(nil, label: "api.json", elapsed: .seconds(3)) == nil)
        #expect(ImportProgressLine.text(.reading(bytes: 3_000_000), label: "api.json", elapsed: .seconds(1)) == "tincan: importing api.json: reading 2.9 MiB (1 s)")
        #expect(ImportProgressLine.text(.importing(requests: 12_000), label: "api.json", elapsed: .seconds(2)) == "tincan: importing api.json: 12,000 requests (2 s)")
        #expect(ImportProgressLine.text(.checking(done: 64, total: 1_000), label: "api.json", elapsed: .seconds(4)) == "tincan: importing api.json: checking requests: 64 of 1,000 (4 s)")
    }
}
