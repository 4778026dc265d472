import Foundation
import TestSupport
import Testing

@Suite("tincan import openapi, postman and insomnia")
struct CollectionImportCLITests {
    static let spec = """
        openapi: 3.0.3
        info: {title: Demo}
        servers: [{url: 'http://127.0.0.1:9'}]
        paths:
          /anything/pets/{petId}:
            post:
              operationId: addPet
              tags: [pets]
              parameters:
                - {name: petId, in: path, required: true, schema: {type: integer, example: 7}}
                - {name: q, in: query, required: true, schema: {type: string, example: tea}}
                - {name: limit, in: query, schema: {type: integer, example: 5}}
              requestBody:
                content:
                  application/json:
                    schema: {type: object, properties: {name: {type: string, example: Rex}}}
          /basic-auth/{user}/{pass}:
            get:
              operationId: login
              security: [{basic: []}, {oauth: []}]
              parameters:
                - {name: user, in: path, required: true, schema: {type: string, example: ada}}
                - {name: pass, in: path, required: true, schema: {type: string, example: secret}}
        components:
          securitySchemes:
            basic: {type: http, scheme: basic}
            oauth: {type: oauth2, flows: {}}
        """

    @Test("tincan import openapi F -o out.tincan.yaml writes a session that reads back, exports, and replays against the demo server")
    func importsOpenAPIIntoASessionFile() async throws {
        let directory = try TemporaryDirectory()
        let spec = try directory.write("spec.yaml", Array(Self.spec.utf8))
        let output = directory.path + "/out.tincan.yaml"
        let imported = try await tincan(["import", "openapi", spec, "-o", output])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("tincan: warning: request 'login': the first of 2 security alternatives is used; the others are not carried over\n"), "\(imported.stderr)")
        #expect(imported.stderr.hasSuffix("tincan: 2 requests added to \(output)\n"), "\(imported.stderr)")
        let saved = try String(contentsOfFile: output, encoding: .utf8)
        #expect(saved.contains("  - name: addPet\n    group: pets\n    method: POST\n    url: \"{{baseUrl}}/anything/pets/{{petId}}\"\n"), "\(saved)")

        let exported = try await tincan(["export", output, "--request", "addPet", "--var", "baseUrl=http://h"])
        #expect(exported.status == 0, "\(exported.stderr)")
        // The optional query parameter is imported turned off: not sent until turned on.
        #expect(exported.stdout.contains("http://h/anything/pets/7?q=tea' "), "\(exported.stdout)")
        #expect(!exported.stdout.contains("limit"), "\(exported.stdout)")
        #expect(exported.stdout.contains(#"{"name":"Rex"}"#), "\(exported.stdout)")

        // Another import adds its requests, and the environments and variables the file lacks.
        let export = #"{"_type": "export", "__export_format": 4, "resources": [{"_id": "env_1", "_type": "environment", "parentId": "wrk", "name": "Base", "data": {"host": "h"}}, {"_id": "env_2", "_type": "environment", "parentId": "env_1", "name": "Staging", "data": {"host": "s"}}, {"_id": "req", "_type": "request", "parentId": "wrk", "name": "Ping", "url": "{{ _.host }}/anything/ping"}]}"#
        let insomnia = try directory.write("insomnia.json", Array(export.utf8))
        let appended = try await tincan(["import", "insomnia", insomnia, "-o", output])
        #expect(appended.status == 0, "\(appended.stderr)")
        let merged = try String(contentsOfFile: output, encoding: .utf8)
        #expect(merged.contains("  Staging:\n    host: s\n"), "\(merged)")
        #expect(merged.contains("  http://127.0.0.1:9:\n    baseUrl: http://127.0.0.1:9\n"), "\(merged)")
        #expect(merged.hasSuffix("  - name: Ping\n    method: GET\n    url: \"{{host}}/anything/ping\"\n"), "\(merged)")

        // Every imported request reaches the demo server; the basic auth, with the credentials as
        // variables, passes its check, and fails it with the wrong password.
        try await withDemoServer { server in
            let replayed = try await tincan(["replay", output, "--var", "baseUrl=\(server.baseURL)", "--var", "host=\(server.baseURL)", "--var", "username=ada", "--var", "password=secret"])
            #expect(replayed.status == 0, "\(replayed.stdout)\n\(replayed.stderr)")
            let wrong = try await tincan(["replay", output, "--var", "baseUrl=\(server.baseURL)", "--var", "host=\(server.baseURL)", "--var", "username=ada", "--var", "password=nope"])
            #expect(wrong.status == 3, "\(wrong.stdout)")
        }
    }

    @Test("A file in another format is refused with its place and what was expected (exit 2)")
    func refusesAnotherFormat() async throws {
        let directory = try TemporaryDirectory()
        let spec = try directory.write("spec.yaml", Array(Self.spec.utf8))
        let refused = try await tincan(["import", "postman", spec])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(spec):2:7: expected a Postman collection (`info.schema` naming collection/v2.1.0 or v2.0.0)"), "\(refused.stderr)")
        let insomnia = try await tincan(["import", "insomnia", spec])
        #expect(insomnia.status == 2)
        #expect(insomnia.stderr.contains("\(spec):1:1: expected an Insomnia export: v4"), "\(insomnia.stderr)")
    }

    @Test("A warning that quotes a name holding a line break, an escape or a bell stays one line of Tincan's, the characters shown as ·")
    func warningsQuotingNamesStayOneLine() async throws {
        // Given a collection whose folder and request names hold control characters
        let directory = try TemporaryDirectory()
        let collection = #"{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "F\u0007", "item": [{"name": "Req\r\ntincan: error: spoofed\u001b[2J", "event": [{"listen": "test", "script": {"exec": ["pm.test()"]}}], "request": {"method": "GET", "url": "http://127.0.0.1:9/"}}]}]}"#
        let file = try directory.write("c.postman_collection.json", Array(collection.utf8))
        // When it is imported
        let imported = try await tincan(["import", "postman", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Then every line on standard error is one of Tincan's, none begun by the name
        let lines = imported.stderr.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("tincan: warning: ") }, "\(imported.stderr)")
        #expect(imported.stderr.contains("tincan: warning: item 'F·/Req··tincan: error: spoofed·[2J': the test script (1 line) is not carried over"), "\(imported.stderr)")
    }
}
