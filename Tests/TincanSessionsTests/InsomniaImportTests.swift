import Foundation
import Testing
import TincanCore
import TincanSessions

@Suite("Insomnia import")
struct InsomniaImportTests {
    static let export = #"""
        {
          "_type": "export",
          "__export_format": 4,
          "__export_source": "insomnia.desktop.app:v2023.5.8",
          "resources": [
            {"_id": "req_1", "_type": "request", "parentId": "fld_2", "name": "Create pet", "method": "post",
             "url": "{{ _.base_url }}/pets", "headers": [{"name": "X-Debug", "value": "1", "disabled": true}, {"name": "X-Env", "value": "{{ _.api.region }}"}],
             "parameters": [{"name": "dry", "value": "true"}, {"name": "trace", "value": "on", "disabled": true}],
             "body": {"mimeType": "application/json", "text": "{\"name\": \"{{ _.pet }}\", \"age\": 3}"},
             "authentication": {"type": "bearer", "token": "{{ _.token }}", "prefix": ""}},
            {"_id": "wrk_1", "_type": "workspace", "parentId": null, "name": "Pets API"},
            {"_id": "fld_1", "_type": "request_group", "parentId": "wrk_1", "name": "Pets", "environment": {"pet": "Rex"}},
            {"_id": "fld_2", "_type": "request_group", "parentId": "fld_1", "name": "Admin", "environment": {}},
            {"_id": "req_2", "_type": "request", "parentId": "fld_1", "name": "Login", "method": "POST", "url": "{{base_url}}/login",
             "body": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "user", "value": "ada"}, {"name": "otp", "value": "1", "disabled": true}]},
             "authentication": {"type": "basic", "username": "ada", "password": "{{ _.secret }}"}},
            {"_id": "req_3", "_type": "request", "parentId": "wrk_1", "name": "Upload", "method": "POST", "url": "{{ _.base_url }}/photos",
             "body": {"mimeType": "multipart/form-data", "params": [{"name": "title", "value": "cat"}, {"name": "photo", "type": "file", "fileName": "/tmp/cat.png"}]},
             "authentication": {"type": "apikey", "key": "X-API-Key", "value": "{{ _.key }}", "addTo": "header"}},
            {"_id": "req_4", "_type": "request", "parentId": "wrk_1", "name": "Query", "method": "POST", "url": "{{ _.base_url }}/graphql",
             "body": {"mimeType": "application/graphql", "text": "{\"query\":\"{ pets { id } }\",\"variables\":{\"first\":2}}"},
             "authentication": {"type": "oauth2", "grantType": "password", "accessTokenUrl": "https://{{ _.auth }}/token", "clientId": "app", "clientSecret": "{{ _.secret }}", "username": "ada", "password": "pw", "credentialsInBody": true, "scope": "read"}},
            {"_id": "req_5", "_type": "request", "parentId": "wrk_1", "name": "Blob", "method": "PUT", "url": "{{ _.base_url }}/blob",
             "body": {"mimeType": "application/octet-stream", "fileName": "/data/blob.bin"}},
            {"_id": "req_6", "_type": "request", "parentId": "wrk_1", "name": "Chained", "method": "GET",
             "url": "{{ _.base_url }}/pets/{% response 'body', 'req_1', '$.id' %}", "body": {}},
            {"_id": "env_1", "_type": "environment", "parentId": "wrk_1", "name": "Base Environment", "data": {"base_url": "http://127.0.0.1:9", "api": {"region": "eu"}}},
            {"_id": "env_2", "_type": "environment", "parentId": "env_1", "name": "Production", "data": {"base_url": "https://pets.example"}},
            {"_id": "jar_1", "_type": "cookie_jar", "parentId": "wrk_1", "name": "Default Jar", "cookies": []}
          ]
        }
        """#

    @Test("Requests keep their folders (parent chains) as groups, and Insomnia's {{ _.name }} becomes {{name}}")
    func requestsAndFolders() throws {
        let session = try imported(.insomnia, Self.export, path: "pets.json").session
        #expect(session.name == "Pets API")
        #expect(session.requests.map(\.displayName) == ["Create pet", "Login", "Upload", "Query", "Blob", "Chained"])
        #expect(session.requests.map(\.group) == ["Pets/Admin", "Pets", nil, nil, nil, nil])
        let create = try importedRequest(session, "Create pet")
        #expect(create.method == "POST")
        #expect(create.url == "{{base_url}}/pets")
        #expect(create.headers == [HeaderSetting(name: "X-Debug", value: "1", isEnabled: false), HeaderSetting(name: "X-Env", value: "{{api.region}}"), HeaderSetting(name: "Authorization", value: "Bearer {{token}}")])
        #expect(create.query == [QuerySetting(name: "dry", value: "true"), QuerySetting(name: "trace", value: "on", isEnabled: false)])
    }

    @Test("The base environment becomes variables (nested data as dotted names), sub-environments environments")
    func environments() throws {
        let session = try imported(.insomnia, Self.export).session
        // The base environment's variables, then those only a folder sets (Pets' pet).
        #expect(session.variables == ["base_url": .string("http://127.0.0.1:9"), "api.region": .string("eu"), "pet": .string("Rex")])
        #expect(session.environments == ["Production": ["base_url": .string("https://pets.example")]])
    }

    @Test("Bodies and auth: JSON, form, multipart with files, GraphQL, a file; basic, bearer, API key, OAuth 2.0")
    func bodiesAndAuth() throws {
        let session = try imported(.insomnia, Self.export).session
        let create = try importedRequest(session, "Create pet")
        #expect(create.serializer == .json)
        #expect(create.params == .dictionary(["name": .string("{{pet}}"), "age": .integer(3)]))
        let login = try importedRequest(session, "Login")
        #expect(login.serializer == .form)
        #expect(login.params == .dictionary(["user": .string("ada")]))
        #expect(login.auth == SavedAuth(user: "ada", password: "{{secret}}"))
        let upload = try importedRequest(session, "Upload")
        #expect(upload.serializer == .multipart)
        // Absolute paths are outside the export's folder: placeholders the user sets.
        #expect(upload.files == [SavedFile(field: "photo", path: "{{file:cat.png}}")])
        #expect(upload.headers == [HeaderSetting(name: "X-API-Key", value: "{{key}}")])
        let query = try importedRequest(session, "Query")
        #expect(query.body == .graphql(GraphQLQuery(query: "{ pets { id } }", variables: ["first": 2])))
        // OAuth 2.0 as auth: oauth2, the credentials in the form as credentialsInBody says.
        #expect(query.auth == SavedAuth(scheme: .oauth2, user: "ada", password: "pw", oauth2: SavedOAuth2(
            grant: .password, tokenURL: "https://{{auth}}/token", clientID: "app", clientSecret: "{{secret}}", clientAuth: .body, scope: "read")))
        #expect(try importedRequest(session, "Blob").upload == SavedUpload(file: "{{file:blob.bin}}"))
    }

    @Test("Disabled fields, other auth types, template tags and other resources are listed item by item")
    func listsWhatIsNotCarried() throws {
        let notCarried = try imported(.insomnia, Self.export).notCarried
        #expect(notCarried == [
            "request 'Login': the disabled form field otp is not carried over (a session's form fields cannot be turned off)",
            "request 'Chained': a template tag ({% … %}) in '{{ _.base_url }}/pets/{% response 'body', 'req_1', '$.id' %}' is kept as written; Tincan does not run Insomnia's tags",
            "request 'Upload': the form file photo names /tmp/cat.png, outside the imported file's folder; Tincan reads no such file without your consent, so the request keeps {{file:cat.png}}: set it to the file (--var 'file:cat.png=PATH', or file:cat.png: PATH under variables:)",
            "request 'Blob': the upload names /data/blob.bin, outside the imported file's folder; Tincan reads no such file without your consent, so the request keeps {{file:blob.bin}}: set it to the file (--var 'file:blob.bin=PATH', or file:blob.bin: PATH under variables:)",
        ])
    }

    @Test("A file that is not an Insomnia v4 export, or whose folders are their own parents, is refused at its place")
    func refusesOtherFormats() {
        #expect(importError { try CollectionFormat.insomnia.parse("{\"_type\": \"export\",\n \"__export_format\": 3, \"resources\": []}", path: "i.json") }
            == "i.json:2:21: expected an Insomnia v4 export (`__export_format: 4`) or v5, found format 3; export it again from a current Insomnia")
        #expect(importError { try CollectionFormat.insomnia.parse("type: mock.insomnia.rest/5.0\n", path: "i.yaml") }
            == "i.yaml:1:7: this is an Insomnia mock.insomnia.rest/5.0 file; expected a collection (collection.insomnia.rest/5.0) or a design document with one (spec.insomnia.rest/5.0)")
        #expect(importError { try CollectionFormat.insomnia.parse("name: x\n", path: "i.yaml") }
            == "i.yaml:1:1: expected an Insomnia export: v4 (`_type: export`, `__export_format: 4`) or v5 (`type: collection.insomnia.rest/5.0`)")
        let cycle = #"""
            {"_type": "export", "__export_format": 4, "resources": [
              {"_id": "fld_1", "_type": "request_group", "parentId": "fld_2", "name": "A"},
              {"_id": "fld_2", "_type": "request_group", "parentId": "fld_1", "name": "B"},
              {"_id": "req_1", "_type": "request", "parentId": "fld_1", "name": "R", "url": "http://x/"}
            ]}
            """#
        #expect(importError { try CollectionFormat.insomnia.parse(cycle, path: "i.json") }
            == "i.json:2:3: the folder fld_1 is its own parent (through parentId); expected a chain that ends at the workspace")
    }

    @Test("An export of 1,000 requests in ten folders imports whole, each request in its folder")
    func importsAThousandRequests() async throws {
        var resources = [#"{"_id": "wrk", "_type": "workspace", "name": "Big"}"#]
        for folder in 0..<10 {
            resources.append(#"{"_id": "fld_\#(folder)", "_type": "request_group", "parentId": "wrk", "name": "f\#(folder)"}"#)
        }
        for index in 0..<1_000 {
            resources.append(#"{"_id": "req_\#(index)", "_type": "request", "parentId": "fld_\#(index % 10)", "name": "r\#(index)", "method": "GET", "url": "{{ _.base }}/items/\#(index)"}"#)
        }
        let text = #"{"_type": "export", "__export_format": 4, "resources": ["# + resources.joined(separator: ",\n") + "]}"
        let session = try await importedWhole(.insomnia, text)
        let sample = try importedRequest(session, "r437")
        #expect(sample.url == "{{base}}/items/437")
        #expect(sample.group == "f7")
    }

    static let folders = #"""
        {"_type": "export", "__export_format": 4, "resources": [
          {"_id": "wrk", "_type": "workspace", "name": "W"},
          {"_id": "env", "_type": "environment", "parentId": "wrk", "name": "Base", "data": {"host": "http://h", "region": "eu", "api-key": "k1"}},
          {"_id": "fld_out", "_type": "request_group", "parentId": "wrk", "name": "Outer",
           "authentication": {"type": "bearer", "token": "{{ _['api-key'] }}"},
           "headers": [{"name": "X-Team", "value": "outer"}, {"name": "X-Off", "value": "1", "disabled": true}],
           "environment": {"region": "us", "depth": "outer"},
           "preRequestScript": "insomnia.environment.set('a', 1);\nconsole.log(2);", "afterResponseScript": ""},
          {"_id": "fld_in", "_type": "request_group", "parentId": "fld_out", "name": "Inner",
           "authentication": {}, "headers": [{"name": "X-Team", "value": "inner"}], "environment": {"depth": "inner"}},
          {"_id": "req_inherit", "_type": "request", "parentId": "fld_in", "name": "Inherits", "method": "GET", "url": "{{ _.host }}/{{ _['region'] }}/{{ _.depth }}", "authentication": {}},
          {"_id": "req_none", "_type": "request", "parentId": "fld_out", "name": "No auth", "method": "GET", "url": "{{ _.host }}/x", "authentication": {"type": "none"}},
          {"_id": "req_own", "_type": "request", "parentId": "fld_in", "name": "Own header", "method": "GET", "url": "{{ _.host }}/y",
           "headers": [{"name": "Authorization", "value": "Token abc"}], "authentication": {}},
          {"_id": "req_top", "_type": "request", "parentId": "wrk", "name": "Top", "method": "GET", "url": "{{host}}/{{ region }}"}
        ]}
        """#

    @Test("A folder's auth serves the requests under it that set none ({} inherits, {type: none} does not)")
    func folderAuth() throws {
        let session = try imported(.insomnia, Self.folders, path: "i.json").session
        let inherits = try importedRequest(session, "Inherits")
        #expect(inherits.headers.contains(HeaderSetting(name: "Authorization", value: "Bearer {{api-key}}")))
        #expect(!(try importedRequest(session, "No auth")).headers.contains { $0.name == "Authorization" })
        // A request's own Authorization header is what Insomnia sends: the folder's auth is not added.
        #expect(try importedRequest(session, "Own header").headers.filter { $0.name == "Authorization" } == [HeaderSetting(name: "Authorization", value: "Token abc")])
    }

    @Test("Folders' headers go before the request's, outermost first; a name given twice is sent with both values, as Insomnia's libcurl joins them")
    func folderHeaders() throws {
        let inherits = try importedRequest(try imported(.insomnia, Self.folders, path: "i.json").session, "Inherits")
        #expect(inherits.headers.filter { $0.name.hasPrefix("X-") } == [HeaderSetting(name: "X-Team", value: "outer, inner"), HeaderSetting(name: "X-Off", value: "1", isEnabled: false)])
    }

    @Test("Folders' environments are the requests' variables, the nearest folder over the base environment")
    func folderEnvironments() throws {
        let session = try imported(.insomnia, Self.folders, path: "i.json").session
        #expect(session.variables == ["host": "http://h", "region": "eu", "api-key": "k1"])
        let template = try session.template(environment: nil, overrides: [:])
        #expect(try session.resolve(0, template: template, directory: "/tmp").draft.url == "http://h/us/inner")
        #expect(try importedRequest(session, "Top").url == "{{host}}/{{region}}")
        #expect(try session.resolve(3, template: template, directory: "/tmp").draft.url == "http://h/eu")
    }

    @Test("{{ _['name-with-dashes'] }}, {{ _[\"x\"] }} and {{ _.a['b'] }} are written as Tincan's references")
    func bracketReferences() throws {
        let export = #"{"_type": "export", "__export_format": 4, "resources": [{"_id": "r", "_type": "request", "name": "r", "method": "GET", "url": "http://h/{{ _['name-with-dashes'] }}/{{ _[\"x\"] }}/{{ _.a['b-c'] }}/{{ _['a']['d'] }}/{{ _.x | upper }}"}]}"#
        #expect(try imported(.insomnia, export, path: "i.json").session.requests[0].url == "http://h/{{name-with-dashes}}/{{x}}/{{a.b-c}}/{{a.d}}/{{_.x | upper}}")
    }

    @Test("Every script is named, a folder's included")
    func folderScripts() throws {
        let notCarried = try imported(.insomnia, Self.folders, path: "i.json").notCarried
        #expect(notCarried.contains("folder 'Outer': the pre-request script (2 lines) is not carried over; use capture: and assert: instead"))
        #expect(!notCarried.contains { $0.contains("after-response") }, "an empty script is not named")
    }

    @Test("v5: the collection's tree, folders' auth, headers, environment and scripts, settings and path parameters")
    func version5() throws {
        let text = """
            type: collection.insomnia.rest/5.0
            name: Shop
            collection:
              - name: Orders
                authentication: {type: basic, username: ada, password: "{{ _.secret }}"}
                headers: [{name: X-Team, value: shop}]
                environment: {page: 2}
                scripts: {preRequest: "insomnia.log(1)"}
                children:
                  - url: "{{ _.base }}/orders/:id"
                    name: Get order
                    method: GET
                    pathParameters: [{name: id, value: "42"}]
                    parameters: [{name: page, value: "{{ _.page }}"}, {name: debug, value: "1", disabled: true}]
                    settings: {followRedirects: "off", encodeUrl: true}
                    scripts: {afterResponse: "insomnia.test('x', () => {})"}
                  - url: "{{ _.base }}/orders"
                    name: New order
                    method: POST
                    body: {mimeType: application/json, text: '{"item": "tea"}'}
                    authentication: {type: bearer, token: t, prefix: Token}
            environments:
              name: Base
              data: {base: "http://h", secret: s}
              subEnvironments:
                - name: Prod
                  data: {base: "https://shop.example"}
            """
        let result = try imported(.insomnia, text, path: "shop.yaml")
        let session = result.session
        #expect(session.name == "Shop")
        // A folder's page and a path parameter that only one request has become session variables.
        #expect(session.variables == ["base": "http://h", "secret": "s", "page": 2, "id": "42"])
        #expect(session.environments == ["Prod": ["base": "https://shop.example"]])
        let get = try importedRequest(session, "Get order")
        #expect(get.group == "Orders")
        #expect(get.url == "{{base}}/orders/{{id}}")
        #expect(get.query == [QuerySetting(name: "page", value: "{{page}}"), QuerySetting(name: "debug", value: "1", isEnabled: false)])
        #expect(get.headers == [HeaderSetting(name: "X-Team", value: "shop")])
        #expect(get.auth == SavedAuth(user: "ada", password: "{{secret}}"))
        #expect(get.flow.followRedirects == false)
        let new = try importedRequest(session, "New order")
        #expect(new.headers.last == HeaderSetting(name: "Authorization", value: "Token t"))
        #expect(new.auth == nil, "its own auth wins over the folder's")
        #expect(new.params == .dictionary(["item": "tea"]))
        #expect(result.notCarried.contains("folder 'Orders': the pre-request script (1 line) is not carried over; use capture: and assert: instead"))
        #expect(result.notCarried.contains("request 'Get order': the after-response script (1 line) is not carried over; use capture: and assert: instead"))
        let template = try session.template(environment: nil, overrides: [:])
        #expect(try session.resolve(0, template: template, directory: "/tmp").draft.url == "http://h/orders/42")
    }
}
