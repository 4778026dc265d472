import Foundation
import TestSupport
import Testing
import TincanCore
import TincanSessions

@Suite("Swagger 2.0 import, and OpenAPI's parameter styles and bounded examples")
struct SwaggerImportTests {
    static let swagger = """
        swagger: "2.0"
        info: {title: Shop, version: "1"}
        host: shop.example:8443
        basePath: /api/v1
        schemes: [http, https]
        consumes: [application/json]
        securityDefinitions:
          basicAuth: {type: basic}
          key: {type: apiKey, in: header, name: X-Key}
          oauth: {type: oauth2, flow: implicit, authorizationUrl: "https://a", scopes: {}}
        security: [{key: []}]
        parameters:
          Page: {name: page, in: query, type: integer, default: 1}
        definitions:
          Item:
            type: object
            properties:
              name: {type: string, example: tea}
              tags: {type: array, items: {type: string}}
        paths:
          /items:
            get:
              operationId: list
              parameters:
                - $ref: '#/parameters/Page'
                - {name: ids, in: query, required: true, type: array, items: {type: integer}, collectionFormat: multi, x-example: [1, 2]}
                - {name: sort, in: query, required: true, type: array, items: {type: string, enum: [a, b]}, collectionFormat: pipes}
                - {name: X-Trace, in: header, type: string, format: uuid}
            post:
              operationId: create
              security: [{basicAuth: []}]
              parameters:
                - {name: body, in: body, required: true, schema: {$ref: '#/definitions/Item'}}
          /items/{id}/photo:
            put:
              operationId: photo
              consumes: [multipart/form-data]
              security: [{oauth: []}]
              parameters:
                - {name: id, in: path, required: true, type: string}
                - {name: caption, in: formData, type: string, default: nice}
                - {name: file, in: formData, type: file, required: true}
          /login:
            post:
              operationId: login
              consumes: [application/x-www-form-urlencoded]
              parameters:
                - {name: user, in: formData, required: true, type: string}
        """

    @Test("host, basePath and schemes are the server: https first, each scheme an environment")
    func servers() throws {
        let session = try imported(.openapi, Self.swagger).session
        #expect(session.variables["baseUrl"] == .string("https://shop.example:8443/api/v1"))
        #expect(session.environments.keys.elements == ["https://shop.example:8443/api/v1", "http://shop.example:8443/api/v1"])
        let relative = try imported(.openapi, "swagger: '2.0'\nbasePath: /v2\npaths:\n  /a:\n    get: {operationId: a}\n")
        #expect(relative.session.variables["baseUrl"] == .string("/v2"))
        #expect(relative.notCarried.contains("server '/v2': a URL relative to where the document is served; set baseUrl to an absolute URL"))
    }

    @Test("Query parameters: collectionFormat multi repeats the field, pipes joins; defaults and x-example are the values; optional ones off")
    func queryParameters() throws {
        let list = try importedRequest(try imported(.openapi, Self.swagger).session, "list")
        #expect(list.query == [
            QuerySetting(name: "page", value: "1", isEnabled: false),
            QuerySetting(name: "ids", value: "1"), QuerySetting(name: "ids", value: "2"),
            QuerySetting(name: "sort", value: "a"),
        ])
        #expect(list.headers.contains(HeaderSetting(name: "X-Trace", value: "3fa85f64-5717-4562-b3fc-2c963f66afa6", isEnabled: false)))
        #expect(list.headers.contains(HeaderSetting(name: "X-Key", value: "{{key}}")), "the document's security: an API key in a header")
    }

    @Test("A body parameter is the JSON body; formData is a URL-encoded form, or multipart with its file named")
    func bodies() throws {
        let result = try imported(.openapi, Self.swagger)
        let create = try importedRequest(result.session, "create")
        #expect(create.serializer == .json)
        #expect(create.params == .dictionary(["name": "tea", "tags": ["string"]]))
        #expect(create.auth == SavedAuth(user: "{{username}}", password: "{{password}}"))
        let photo = try importedRequest(result.session, "photo")
        #expect(photo.serializer == .multipart)
        #expect(photo.params == .dictionary(["caption": "nice"]))
        #expect(result.notCarried.contains("request 'photo': the file field 'file' is not carried over; add it under files: with the file's path"))
        #expect(photo.headers.contains(HeaderSetting(name: "Authorization", value: "Bearer {{token}}")), "OAuth 2 is a bearer token")
        let login = try importedRequest(result.session, "login")
        #expect(login.serializer == .form)
        #expect(login.params == .dictionary(["user": "string"]))
    }

    @Test("OpenAPI 3 query styles: form exploded by default (a field per item, per member), form unexploded, pipes, deepObject")
    func openAPIStyles() throws {
        let spec = """
            openapi: 3.0.0
            paths:
              /a:
                get:
                  operationId: a
                  parameters:
                    - {name: tags, in: query, required: true, schema: {type: array, items: {type: string}}, example: [x, y]}
                    - {name: ids, in: query, required: true, explode: false, schema: {type: array}, example: [1, 2]}
                    - {name: p, in: query, required: true, style: pipeDelimited, example: [a, b]}
                    - {name: f, in: query, required: true, style: deepObject, example: {role: admin, n: 2}}
                    - {name: o, in: query, required: true, schema: {type: object}, example: {k: v}}
            """
        let query = try imported(.openapi, spec).session.requests[0].query.map { "\($0.name)=\($0.value)" }
        #expect(query == ["tags=x", "tags=y", "ids=1,2", "p=a|b", "f[role]=admin", "f[n]=2", "k=v"])
    }

    @Test("A schema whose 40 levels each refer to the next twice ends, its example bounded, and the cut is named where it was made")
    func exponentialSchemasEnd() async throws {
        var schemas = ""
        for level in 0..<40 {
            schemas += "    L\(level):\n      type: object\n      properties:\n"
            if level < 39 {
                schemas += "        left: {$ref: '#/components/schemas/L\(level + 1)'}\n        right: {$ref: '#/components/schemas/L\(level + 1)'}\n"
            } else {
                schemas += "        leaf: {type: string}\n"
            }
        }
        let spec = "openapi: 3.0.0\npaths:\n  /a:\n    post:\n      operationId: a\n      requestBody:\n        content:\n          application/json:\n            schema: {$ref: '#/components/schemas/L0'}\ncomponents:\n  schemas:\n" + schemas
        // The work is bounded by the example's size, not the schema's: counted, not timed.
        let result = try await offThePool { try CollectionFormat.openapi.parse(spec, path: "deep.yaml") }
        let params = try #require(result.session.requests[0].params)
        var count = 0
        var stack = [params]
        while let value = stack.popLast() {
            count += 1
            if case .dictionary(let members) = value { stack += members.values }
        }
        #expect(count <= 2_001)
        #expect(result.notCarried.contains { $0.hasPrefix("request 'a': the example built from the schema is cut at $.left.left.left") && $0.hasSuffix("; fill in the rest by hand") }, "\(result.notCarried)")
        // It reads back, and writes what a reader takes.
        #expect(try Session.parse(result.session.yamlText(), path: "s.yaml").requests == result.session.requests)
    }

    @Test("A document's examples hold 100,000 values at most together; past them each is kept short, said once")
    func documentExamplesAreBounded() throws {
        var spec = "openapi: 3.0.0\npaths:\n"
        for index in 0..<60 {
            spec += "  /a\(index):\n    post:\n      operationId: a\(index)\n      requestBody:\n        content:\n          application/json:\n            schema: {$ref: '#/components/schemas/Wide'}\n"
        }
        spec += "components:\n  schemas:\n    Wide:\n      type: object\n      properties:\n"
        for index in 0..<2_500 { spec += "        p\(index): {type: integer}\n" }
        let result = try CollectionFormat.openapi.parse(spec, path: "big.yaml")
        func count(_ value: ParameterValue?) -> Int {
            guard case .dictionary(let members)? = value else { return 0 }
            return members.count
        }
        let sizes = result.session.requests.map { count($0.params) }
        #expect(sizes.prefix(50).allSatisfy { $0 == 1_999 }, "\(sizes)")
        #expect(sizes.suffix(10).allSatisfy { $0 == 49 }, "\(sizes)")
        #expect(result.notCarried.filter { $0.contains("is cut at") }.count == 50)
        #expect(result.notCarried.contains("the examples of 10 requests are cut short (50 values at most): the document's examples reached 100,000 values, the most an import writes; fill them in by hand"))
    }

    @Test("A wide schema is cut after 2,000 values, and a deep one at 16 levels, each said")
    func wideAndDeepSchemasAreCut() throws {
        var wide = "openapi: 3.0.0\npaths:\n  /a:\n    post:\n      operationId: a\n      requestBody:\n        content:\n          application/json:\n            schema:\n              type: object\n              properties:\n"
        for index in 0..<3_000 { wide += "                p\(index): {type: integer}\n" }
        let cut = try CollectionFormat.openapi.parse(wide, path: "wide.yaml")
        guard case .dictionary(let members)? = cut.session.requests[0].params else {
            Issue.record("no params")
            return
        }
        #expect(members.count == 1_999)
        #expect(cut.notCarried.contains("request 'a': the example built from the schema is cut at $.p1999 (after 2,000 values; the schema's example would be larger); fill in the rest by hand"))
        var deep = "openapi: 3.0.0\npaths:\n  /a:\n    post:\n      operationId: a\n      requestBody:\n        content:\n          application/json:\n            schema:\n"
        var indent = "              "
        for _ in 0..<20 {
            deep += "\(indent)type: object\n\(indent)properties:\n\(indent)  d:\n"
            indent += "    "
        }
        deep += "\(indent)type: string\n"
        let deepCut = try CollectionFormat.openapi.parse(deep, path: "deep.yaml")
        #expect(deepCut.notCarried.contains { $0.contains("is cut at $.d.d.d.d.d.d.d.d.d.d.d.d.d.d.d.d.d (16 levels deep; the schema nests deeper)") }, "\(deepCut.notCarried)")
    }
}
