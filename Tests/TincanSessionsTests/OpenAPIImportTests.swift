import Foundation
import Testing
import TincanCore
import TincanSessions

@Suite("OpenAPI import")
struct OpenAPIImportTests {
    static let petstore = """
        openapi: 3.0.3
        info:
          title: Petstore
          description: Pets for sale.
        servers:
          - url: https://{region}.pets.example/v1/
            description: Production
            variables:
              region:
                default: eu
                enum: [eu, us]
          - url: http://localhost:8080
        security:
          - bearer: []
        tags:
          - name: pets
        paths:
          /pets:
            get:
              operationId: listPets
              tags: [pets]
              parameters:
                - name: limit
                  in: query
                  schema: {type: integer, minimum: 1}
                - name: status
                  in: query
                  schema: {type: string, enum: [available, sold]}
                - name: X-Trace
                  in: header
                  schema: {type: string, format: uuid}
                - name: session
                  in: cookie
                  example: abc
            post:
              operationId: addPet
              tags: [pets, admin]
              security:
                - basic: []
              requestBody:
                content:
                  application/json:
                    schema:
                      $ref: '#/components/schemas/Pet'
                  application/xml:
                    schema:
                      $ref: '#/components/schemas/Pet'
          /pets/{petId}:
            parameters:
              - name: petId
                in: path
                required: true
                schema: {type: integer, example: 42}
            get:
              operationId: showPet
              tags: [pets]
              security:
                - apiKey: []
                  queryKey: []
              parameters:
                - $ref: '#/components/parameters/Verbose'
            delete:
              summary: Delete a pet
              tags: [pets]
              security:
                - oauth: []
          /pets/{petId}/photo:
            post:
              operationId: uploadPhoto
              tags: [photos]
              requestBody:
                content:
                  multipart/form-data:
                    schema:
                      type: object
                      properties:
                        caption: {type: string, default: Rex}
                        file: {type: string, format: binary}
          /login:
            post:
              operationId: login
              security: []
              requestBody:
                $ref: '#/components/requestBodies/Login'
          /notes:
            put:
              operationId: putNote
              tags: [notes]
              requestBody:
                content:
                  text/plain:
                    example: a note
          /trees:
            post:
              operationId: plantTree
              tags: [notes]
              parameters:
                - $ref: 'common.yaml#/components/parameters/Page'
              requestBody:
                content:
                  application/json:
                    schema:
                      $ref: '#/components/schemas/Tree'
        components:
          parameters:
            Verbose:
              name: verbose
              in: query
              schema: {type: boolean}
          requestBodies:
            Login:
              content:
                application/x-www-form-urlencoded:
                  schema:
                    type: object
                    properties:
                      user: {type: string, format: email}
                      remember: {type: boolean, default: false}
          schemas:
            Pet:
              allOf:
                - $ref: '#/components/schemas/NewPet'
                - type: object
                  properties:
                    id: {type: integer, format: int64}
                    born: {type: string, format: date-time}
                    tags: {type: array, items: {type: string}}
            NewPet:
              type: object
              required: [name]
              properties:
                name: {type: string, example: Rex}
                kind: {type: string, enum: [dog, cat]}
            Tree:
              type: object
              properties:
                name: {type: string}
                children:
                  type: array
                  items:
                    $ref: '#/components/schemas/Tree'
          securitySchemes:
            bearer: {type: http, scheme: bearer}
            basic: {type: http, scheme: basic}
            apiKey: {type: apiKey, in: header, name: X-API-Key}
            queryKey: {type: apiKey, in: query, name: key}
            oauth:
              type: oauth2
              flows:
                implicit:
                  authorizationUrl: https://auth.example/authorize
                  scopes: {}
        """

    @Test("Each operation becomes a request grouped by its first tag, with the path's parameters as variables")
    func operationsBecomeGroupedRequests() throws {
        let result = try imported(.openapi, Self.petstore)
        let session = result.session
        #expect(session.name == "Petstore")
        #expect(session.description == "Pets for sale.")
        #expect(session.requests.map(\.displayName) == ["listPets", "addPet", "showPet", "Delete a pet", "uploadPhoto", "putNote", "plantTree", "login"])
        #expect(session.requests.map(\.group) == ["pets", "pets", "pets", "pets", "photos", "notes", "notes", nil])
        let show = try importedRequest(session, "showPet")
        #expect(show.url == "{{baseUrl}}/pets/{{petId}}")
        #expect(session.variables["petId"] == .string("42"))
        #expect(try importedRequest(session, "Delete a pet").method == "DELETE")
    }

    @Test("Servers become environments of baseUrl, their variables at their defaults, the first one the default")
    func serversBecomeEnvironments() throws {
        let session = try imported(.openapi, Self.petstore).session
        #expect(session.variables["baseUrl"] == .string("https://eu.pets.example/v1"))
        #expect(session.environments["Production"] == ["baseUrl": .string("https://eu.pets.example/v1")])
        #expect(session.environments["http://localhost:8080"] == ["baseUrl": .string("http://localhost:8080")])
    }

    @Test("Query, header and cookie parameters take examples from the schema, optional ones turned off")
    func parametersTakeExamples() throws {
        let list = try importedRequest(try imported(.openapi, Self.petstore).session, "listPets")
        // None of them is required: each is kept, turned off.
        #expect(list.query == [QuerySetting(name: "limit", value: "1", isEnabled: false), QuerySetting(name: "status", value: "available", isEnabled: false)])
        #expect(list.headers.contains(HeaderSetting(name: "X-Trace", value: "3fa85f64-5717-4562-b3fc-2c963f66afa6", isEnabled: false)))
        #expect(list.headers.contains(HeaderSetting(name: "Cookie", value: "session=abc", isEnabled: false)))
        #expect(list.headers.contains(HeaderSetting(name: "Authorization", value: "Bearer {{token}}")))
        let show = try importedRequest(try imported(.openapi, Self.petstore).session, "showPet")
        #expect(show.query.map { "\($0.name)=\($0.value)" } == ["verbose=true", "key={{queryKey}}"])
    }

    @Test("Security schemes become auth with variables; OAuth's flow is named as not carried over")
    func securitySchemesBecomeAuth() throws {
        let result = try imported(.openapi, Self.petstore)
        let session = result.session
        #expect(try importedRequest(session, "addPet").auth == SavedAuth(user: "{{username}}", password: "{{password}}"))
        #expect(try importedRequest(session, "showPet").headers.contains(HeaderSetting(name: "X-API-Key", value: "{{apiKey}}")))
        #expect(try importedRequest(session, "Delete a pet").headers.contains(HeaderSetting(name: "Authorization", value: "Bearer {{token}}")))
        #expect(try importedRequest(session, "login").headers.isEmpty && importedRequest(session, "login").auth == nil)
        for name in ["username", "password", "token", "apiKey", "queryKey"] { #expect(session.variables[name] == .string(""), "\(name)") }
        #expect(result.notCarried.contains("security scheme 'oauth' (oauth2): the flow is not carried over; put an access token in the variable token"))
    }

    @Test("Bodies: JSON as the JSON serializer's parameters (allOf merged), forms as form or multipart, text as the body")
    func bodiesFollowTheirMediaType() throws {
        let result = try imported(.openapi, Self.petstore)
        let session = result.session
        let add = try importedRequest(session, "addPet")
        #expect(add.serializer == .json)
        #expect(add.params == .dictionary(["name": .string("Rex"), "kind": .string("dog"), "id": .integer(0), "born": .string("2024-01-01T00:00:00Z"), "tags": .array([.string("string")])]))
        #expect(result.notCarried.contains("request 'addPet': the body is imported as application/json; the other media types are not carried over: application/xml"))
        let login = try importedRequest(session, "login")
        #expect(login.serializer == .form)
        #expect(login.params == .dictionary(["user": .string("user@example.com"), "remember": .bool(false)]))
        let photo = try importedRequest(session, "uploadPhoto")
        #expect(photo.serializer == .multipart)
        #expect(photo.params == .dictionary(["caption": .string("Rex")]))
        #expect(result.notCarried.contains("request 'uploadPhoto': the file field 'file' is not carried over; add it under files: with the file's path"))
        let note = try importedRequest(session, "putNote")
        #expect(note.body == .text("a note"))
        #expect(note.headers.contains(HeaderSetting(name: "Content-Type", value: "text/plain")))
    }

    @Test("A recursive schema's example stops where it repeats, and an external $ref is named as not carried over")
    func recursionAndExternalReferences() throws {
        let result = try imported(.openapi, Self.petstore)
        let tree = try importedRequest(result.session, "plantTree")
        #expect(tree.params == .dictionary(["name": .string("string"), "children": .array([])]))
        #expect(result.notCarried.contains { $0.hasPrefix("request 'plantTree': the schema #/components/schemas/Tree contains itself") })
        #expect(result.notCarried.contains("request 'plantTree': common.yaml#/components/parameters/Page is not carried over: it is in another file, which an import cannot read"))
    }

    @Test("OpenAPI 3.1 in JSON: type lists, examples lists, escaped pointers, and tabs between tokens")
    func openAPI31InJSON() throws {
        let json = """
            {
            \t"openapi": "3.1.0",
            \t"info": {"title": "Notes \\/ 3.1"},
            \t"servers": [{"url": "http://127.0.0.1:9"}],
            \t"paths": {
            \t\t"/notes/{id}": {
            \t\t\t"patch": {
            \t\t\t\t"operationId": "editNote",
            \t\t\t\t"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}],
            \t\t\t\t"requestBody": {"content": {"application/merge-patch+json": {"schema": {"type": "object", "properties": {
            \t\t\t\t\t"title": {"type": ["string", "null"], "examples": ["Shopping"]},
            \t\t\t\t\t"pinned": {"type": ["null", "boolean"]},
            \t\t\t\t\t"kind": {"const": "note"}
            \t\t\t\t}}}}}
            \t\t\t},
            \t\t\t"get": {"operationId": "getNote", "parameters": [{"$ref": "#/paths/~1notes~1%7Bid%7D/patch/parameters/0"}]}
            \t\t}
            \t}
            }
            """
        let result = try imported(.openapi, json, path: "notes.json")
        #expect(result.session.name == "Notes / 3.1")
        let edit = try importedRequest(result.session, "editNote")
        #expect(edit.method == "PATCH")
        #expect(edit.serializer == .json)
        #expect(edit.params == .dictionary(["title": .string("Shopping"), "pinned": .bool(true), "kind": .string("note")]))
        #expect(result.session.variables["id"] == .string("3fa85f64-5717-4562-b3fc-2c963f66afa6"))
        #expect(try importedRequest(result.session, "getNote").url == "{{baseUrl}}/notes/{{id}}")
        #expect(result.notCarried.isEmpty, "\(result.notCarried)")

        let undescribed = try imported(.openapi, "openapi: 3.1.0\npaths:\n  /users/{user}/keys:\n    get: {operationId: keys}\n")
        #expect(undescribed.session.variables["user"] == .string(""))
        #expect(undescribed.notCarried.contains("request 'keys': the path names {user}, which no parameter describes; the variable user is empty"))
    }

    @Test("Relative servers, ignored header parameters, callbacks, webhooks and unknown schemes are each named")
    func namesWhatIsNotCarried() throws {
        let text = """
            openapi: 3.1.0
            servers: [{url: /v1}]
            paths:
              /hooks:
                post:
                  operationId: subscribe
                  security: [{missing: []}]
                  parameters:
                    - {name: Accept, in: header, schema: {type: string}}
                  callbacks:
                    onEvent: {}
                  requestBody:
                    content:
                      application/octet-stream:
                        schema: {type: string, format: binary}
            webhooks:
              newPet: {}
            """
        let result = try imported(.openapi, text)
        #expect(result.session.variables["baseUrl"] == .string("/v1"))
        #expect(result.notCarried == [
            "server '/v1': a URL relative to where the document is served; set baseUrl to an absolute URL",
            "request 'subscribe': the header parameter Accept is ignored, as OpenAPI says; the body's media type and the security scheme set it",
            "request 'subscribe': the body is a file (application/octet-stream), which is not carried over; add upload: or body: {file: PATH}",
            "security: 'missing' is not in components.securitySchemes, so it is not carried over",
            "request 'subscribe': callbacks (onEvent) are not carried over: they are requests the API sends",
            "webhooks: newPet are not carried over: they are requests the API sends, not ones a client sends",
        ])
        let subscribe = try importedRequest(result.session, "subscribe")
        #expect(subscribe.headers == [HeaderSetting(name: "Content-Type", value: "application/octet-stream")])
        #expect(subscribe.body == nil)

        let serverless = try imported(.openapi, "openapi: 3.0.0\npaths:\n  /a:\n    get: {operationId: a}\n")
        #expect(serverless.session.variables["baseUrl"] == .string(""))
        #expect(serverless.notCarried == ["servers: the document names none, so the variable baseUrl is empty; set it to the API's URL"])
    }

    @Test("A path written without its leading slash (as 33sol-dev/cbz-be's auth/signup) joins the server at a slash, named")
    func aPathWithoutALeadingSlashStillJoinsTheServer() throws {
        let text = """
            openapi: 3.0.0
            servers: [{url: "http://localhost:5000"}]
            paths:
              auth/signup:
                post: {operationId: signup}
              /auth/login:
                post: {operationId: login}
            """
        let result = try imported(.openapi, text)
        #expect(result.session.requests.map(\.url) == ["{{baseUrl}}/auth/signup", "{{baseUrl}}/auth/login"])
        #expect(result.notCarried.contains("path auth/signup: a path starts with /; it is read as /auth/signup"))
    }

    @Test("A file that is neither OpenAPI 3 nor Swagger 2.0 is refused at its place, saying what was expected")
    func refusesOtherFormats() {
        let expected = "expected an OpenAPI 3.x document (an `openapi: 3.x` key) or a Swagger 2.0 one (`swagger: \"2.0\"`)"
        #expect(importError { try CollectionFormat.openapi.parse("info:\n  title: x\n", path: "spec.yaml") } == "spec.yaml:1:1: \(expected)")
        #expect(importError { try CollectionFormat.openapi.parse("swagger: '1.2'\npaths: {}\n", path: "spec.yaml") }
            == "spec.yaml:1:10: expected Swagger 2.0 (`swagger: \"2.0\"`) or OpenAPI 3.x, found swagger: 1.2")
        #expect(importError { try CollectionFormat.openapi.parse("openapi: 2.5\npaths: {}\n", path: "spec.yaml") }
            == "spec.yaml:1:10: expected an OpenAPI 3.x document (an `openapi: 3.x` key) or Swagger 2.0, found openapi: 2.5")
        #expect(importError { try CollectionFormat.openapi.parse("- a\n- b\n", path: "spec.yaml") } == "spec.yaml:1:1: \(expected)")
        #expect(importError { try CollectionFormat.openapi.parse("[1, 2]", path: "spec.json") } == "spec.json:1:1: \(expected)")
    }

    @Test("Broken YAML and JSON are refused with their line and column, JSON by a JSON reader")
    func refusesBrokenSyntax() {
        let yaml = importError { try CollectionFormat.openapi.parse("openapi: 3.0.0\npaths:\n  /a:\n    get: [\n", path: "spec.yaml") }
        #expect(yaml.hasPrefix("spec.yaml:5:1: malformed YAML"), "\(yaml)")
        let json = importError { try CollectionFormat.openapi.parse("{\"openapi\": \"3.0.0\",\n \"paths\": {\"/a\": {}}\n \"info\": {}}", path: "spec.json") }
        #expect(json == "spec.json:3:2: malformed JSON: expected ',' or '}' in the object", "\(json)")
    }

    @Test("A $ref cycle is an error naming the chain, at the reference")
    func refusesReferenceCycles() {
        let text = """
            openapi: 3.0.0
            paths:
              /a:
                get:
                  parameters:
                    - $ref: '#/components/parameters/A'
            components:
              parameters:
                A:
                  $ref: '#/components/parameters/B'
                B:
                  $ref: '#/components/parameters/A'
            """
        #expect(importError { try CollectionFormat.openapi.parse(text, path: "spec.yaml") }
            == "spec.yaml:12:7: the $ref chain #/components/parameters/A → #/components/parameters/B → #/components/parameters/A is a cycle; a reference must lead to a value")
        let missing = text.replacingOccurrences(of: "parameters/B'", with: "parameters/C'")
        #expect(importError { try CollectionFormat.openapi.parse(missing, path: "spec.yaml") }
            == "spec.yaml:10:7: $ref '#/components/parameters/C' names nothing in the document: #/components/parameters has no 'C'")
    }

    @Test("A spec of 1,000 operations imports whole, each with its tag's group and its schema's example body")
    func importsAThousandOperations() async throws {
        var text = "openapi: 3.0.0\ninfo: {title: Big}\nservers: [{url: 'http://127.0.0.1:9'}]\npaths:\n"
        for index in 0..<500 {
            text += "  /items\(index)/{id\(index)}:\n    get:\n      operationId: get\(index)\n      tags: [t\(index % 10)]\n"
            text += "    post:\n      operationId: post\(index)\n      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/S\(index)'}}}}\n"
        }
        text += "components:\n  schemas:\n"
        for index in 0..<500 { text += "    S\(index): {type: object, properties: {n: {type: integer, example: \(index)}}}\n" }
        let session = try await importedWhole(.openapi, text)
        let sample = try importedRequest(session, "post321")
        #expect(sample.url == "{{baseUrl}}/items321/{{id321}}")
        #expect(sample.params == .dictionary(["n": .integer(321)]))
        #expect(try importedRequest(session, "get321").group == "t1")
    }
}
