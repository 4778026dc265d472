import Foundation
import TestSupport
import Testing
import TincanCore
import TincanSessions

@Suite("Bruno collections: .bru files read as bruno-lang reads them, and written back")
struct BrunoTests {
    static let request = """
        meta {
          name: Create pet
          type: http
          seq: 2
        }

        post {
          url: {{host}}/pets/:id?dry=1
          body: json
          auth: basic
        }

        params:query {
          dry: 1
          ~trace: on
        }

        params:path {
          id: 7
        }

        headers {
          X-Team: pets
          ~X-Debug: 1
          "Weird: Name": x
        }

        auth:basic {
          username: ada
          password: {{process.env.PASSWORD}}
        }

        body:json {
          {
            "name": "Rex",
            "tags": ["a"]
          }
        }

        vars:pre-request {
          @number
          limit: 5
          @local: yes
        }

        vars:post-response {
          petId: res.body.id
          etag: res.headers['etag']
          code: res.status
          size: res.body.items.length
          token: res.getBody().token
        }

        assert {
          res.status: eq 201
          res.body.name: eq Rex
          res.body.tags: isArray
          res.body.age: gte 1
          res.headers['content-type']: contains json
          res.responseTime: lt 500
          ~res.body.gone: isDefined
        }

        settings {
          encodeUrl: true
          followRedirects: false
          timeout: 2500
        }

        script:pre-request {
          bru.setVar("a", 1);
        }

        docs {
          # Creates a pet
        }
        """

    @Test("the request file: method, URL with path parameters, query turned off, headers, auth, JSON body, variables, captures, checks, settings")
    func readsARequest() throws {
        let result = try CollectionFormat.bruno.parse(Self.request, path: "/srv/c/Create pet.bru")
        let request = try #require(result.session.requests.first)
        #expect(request.name == "Create pet")
        #expect(request.method == "POST")
        #expect(request.url == "{{host}}/pets/{{id}}?dry=1")
        #expect(result.session.variables["id"] == "7", "a path parameter only this request has")
        #expect(request.query == [QuerySetting(name: "trace", value: "on", isEnabled: false)])
        #expect(request.headers == [HeaderSetting(name: "X-Team", value: "pets"), HeaderSetting(name: "X-Debug", value: "1", isEnabled: false), HeaderSetting(name: "Weird: Name", value: "x")].filter { HTTPHeaders.isValidName($0.name) })
        #expect(result.notCarried.contains { $0.hasPrefix("request 'Create pet': the header Weird: Name is not carried over") })
        #expect(request.auth == SavedAuth(user: "ada", password: "{{$env.PASSWORD}}"))
        #expect(request.serializer == .json)
        #expect(request.params == .dictionary(["name": "Rex", "tags": ["a"]]))
        #expect(request.variables == ["limit": 5, "local": "yes"])
        #expect(request.captures == ["petId": .body(try BodyPath(parsing: "$.id")), "etag": .header("etag"), "code": .status,
                                     "size": .filtered(.body(try BodyPath(parsing: "$.items")), [.count])])
        #expect(result.notCarried.contains("request 'Create pet': the post-response variable token = res.getBody().token is not carried over; Tincan captures res.status, res.body paths and res.headers"))
        #expect(request.assertions == [
            .status("201"), .body(try BodyPath(parsing: "$.name"), Predicate([.equals("Rex")])), .body(try BodyPath(parsing: "$.tags"), Predicate([.type(.array)])),
            .body(try BodyPath(parsing: "$.age"), Predicate([.greaterOrEqual(1)])), .header("content-type", Predicate([.contains("json")])),
            .response(.duration, Predicate([.lessThan(500)])),
        ])
        #expect(result.notCarried.contains("request 'Create pet': the disabled assertion res.body.gone: isDefined is not carried over"))
        #expect(request.flow.followRedirects == false)
        #expect(request.maxTime == 2.5)
        #expect(result.notCarried.contains("request 'Create pet': the pre-request script (1 line) is not carried over; use capture: and assert: instead"))
        #expect(result.notCarried.contains("request 'Create pet': its docs are not carried over"))
    }

    @Test("each body mode as Bruno sends it: text, XML and SPARQL with their types, a form, multipart with files, GraphQL, a file")
    func bodyModes() throws {
        func body(_ mode: String, _ blocks: String, method: String = "post") throws -> SavedRequest {
            try CollectionFormat.bruno.parse("\(method) {\n  url: http://h/\n  body: \(mode)\n}\n\n\(blocks)", path: "/srv/c/r.bru").session.requests[0]
        }
        let text = try body("text", "body:text {\n  hello\n    indented\n}\n")
        #expect(text.body == .text("hello\n  indented"))
        #expect(text.headers == [HeaderSetting(name: "Content-Type", value: "text/plain")])
        #expect(try body("xml", "body:xml {\n  <a/>\n}\n").headers == [HeaderSetting(name: "Content-Type", value: "application/xml")])
        #expect(try body("sparql", "body:sparql {\n  SELECT 1\n}\n").headers == [HeaderSetting(name: "Content-Type", value: "application/sparql-query")])
        let form = try body("formUrlEncoded", "body:form-urlencoded {\n  a: 1\n  ~b: 2\n}\n")
        #expect(form.serializer == .form)
        #expect(form.params == .dictionary(["a": "1"]))
        let multipart = try body("multipartForm", "body:multipart-form {\n  note: hi @contentType(text/plain)\n  photo: @file(a.png|b.png) @contentType(image/png)\n}\n")
        #expect(multipart.files == [SavedFile(field: "photo", path: "a.png", type: "image/png"), SavedFile(field: "photo", path: "b.png", type: "image/png")])
        #expect(multipart.params == .dictionary(["note": "hi"]))
        let graphql = try body("graphql", "body:graphql {\n  { me { id } }\n}\n\nbody:graphql:vars {\n  {\"n\": 1}\n}\n")
        #expect(graphql.body == .graphql(GraphQLQuery(query: "{ me { id } }", variables: ["n": 1])))
        let file = try body("file", "body:file {\n  ~file: @file(old.bin)\n  file: @file(new.json) @contentType(application/json)\n}\n")
        #expect(file.upload == SavedUpload(file: "new.json"))
        #expect(file.headers == [HeaderSetting(name: "Content-Type", value: "application/json")])
        // A GET's JSON body stays text: Tincan puts a GET's parameters in the query.
        let getJSON = try body("json", "body:json {\n  {\"a\": 1}\n}\n", method: "get")
        #expect(getJSON.body == .text("{\"a\": 1}"))
    }

    @Test("a value of several lines in ''', a quoted name and a pair turned off read as bruno-lang reads them")
    func syntax() throws {
        let text = "get {\n  url: http://h/\n}\n\nvars:pre-request {\n  key: '''\n    line one\n      line two\n  '''\n  \"a b\": c\n  ~d: e\n}\n"
        let result = try CollectionFormat.bruno.parse(text, path: "r.bru")
        #expect(result.session.requests[0].variables == ["key": "line one\n  line two", "a b": "c"])
        #expect(result.notCarried.contains("request 'r': the disabled variable d is not carried over"))
    }

    @Test("a .bru file saved with Windows line ends (CRLF) reads as the same file with LF, as bruno-lang reads it")
    func windowsLineEnds() throws {
        let lineFeeds = try CollectionFormat.bruno.parse(Self.request, path: "/srv/c/Create pet.bru")
        let windows = try CollectionFormat.bruno.parse(Self.request.replacingOccurrences(of: "\n", with: "\r\n"), path: "/srv/c/Create pet.bru")
        #expect(windows.session.requests == lineFeeds.session.requests)
        #expect(windows.session.variables == lineFeeds.session.variables)
        #expect(windows.notCarried == lineFeeds.notCarried)
    }

    @Test("a file that is not a .bru file is refused at its line and column, with what was expected", arguments: [
        ("get {\n  url: http://h/\n", "r.bru:1:1: the block get { is not closed: expected } at the start of a line"),
        ("get {\n  url http://h/\n}\n", "r.bru:2:3: expected name: value, found url http://h/"),
        ("meta {\n}\nnonsense here\n", "r.bru:3:1: expected a block such as `get {`, `headers {` or `body:json {`, found nonsense here"),
        ("body:json {\n  {}\n", "r.bru:1:1: the block body:json { is not closed: expected } at the start of a line"),
        ("vars {\n  a: '''\n    x\n}\n", "r.bru:2:1: the value ''' is not closed: expected ''' on a line of its own"),
    ])
    func errors(_ text: String, _ message: String) {
        #expect(importError { try CollectionFormat.bruno.parse(text, path: "r.bru") } == message)
    }

    @Test("a folder: bruno.json names it, folder.bru's auth, headers and variables apply under it, environments/ are environments")
    func aCollectionFolder() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("bruno.json", Array(#"{"version": "1", "name": "Pets", "type": "collection", "ignore": ["skip"]}"#.utf8))
        _ = try directory.write("collection.bru", Array("headers {\n  X-App: pets\n}\n\nauth {\n  mode: bearer\n}\n\nauth:bearer {\n  token: {{token}}\n}\n\nvars:pre-request {\n  page: 1\n}\n".utf8))
        try FileManager.default.createDirectory(atPath: directory.path + "/environments", withIntermediateDirectories: true)
        _ = try directory.write("environments/Prod.bru", Array("vars {\n  host: https://pets.example\n  ~old: x\n}\nvars:secret [\n  token\n]\n".utf8))
        try FileManager.default.createDirectory(atPath: directory.path + "/admin", withIntermediateDirectories: true)
        _ = try directory.write("admin/folder.bru", Array("meta {\n  name: Admin area\n  seq: 1\n}\n\nheaders {\n  X-App: admin\n}\n\nauth {\n  mode: basic\n}\n\nauth:basic {\n  username: root\n  password: pw\n}\n\nvars:pre-request {\n  page: 2\n}\n".utf8))
        _ = try directory.write("admin/b.bru", Array("meta {\n  name: Second\n  seq: 2\n}\n\nget {\n  url: {{host}}/admin?page={{page}}\n  auth: inherit\n}\n".utf8))
        _ = try directory.write("admin/a.bru", Array("meta {\n  name: First\n  seq: 1\n}\n\nget {\n  url: {{host}}/admin\n  auth: none\n}\n".utf8))
        _ = try directory.write("top.bru", Array("meta {\n  name: Top\n  seq: 1\n}\n\nget {\n  url: {{host}}/?page={{page}}\n  auth: inherit\n}\n".utf8))
        try FileManager.default.createDirectory(atPath: directory.path + "/skip", withIntermediateDirectories: true)
        _ = try directory.write("skip/x.bru", Array("nonsense\n".utf8))
        let result = try CollectionFormat.bruno.load(path: directory.path)
        let session = result.session
        #expect(session.name == "Pets")
        #expect(session.requests.map(\.displayName) == ["First", "Second", "Top"])
        #expect(session.requests.map(\.group) == ["Admin area", "Admin area", nil])
        #expect(session.defaults.headers == [HeaderSetting(name: "X-App", value: "pets")])
        #expect(session.environments == ["Prod": ["host": "https://pets.example"]])
        #expect(result.notCarried.contains("environment 'Prod': the secret variables token hold no value in the file; give them with --var or {{$env.NAME}}"))
        let second = try importedRequest(session, "Second")
        #expect(second.auth == SavedAuth(user: "root", password: "pw"), "inherit takes the folder's")
        #expect(second.headers == [HeaderSetting(name: "X-App", value: "admin")])
        #expect(second.variables == ["page": "2"])
        #expect(try importedRequest(session, "First").auth == nil)
        #expect(try importedRequest(session, "Top").headers == [HeaderSetting(name: "Authorization", value: "Bearer {{token}}")], "the collection's auth")
        let template = try session.template(environment: "Prod", overrides: ["token": "t"])
        #expect(try session.resolve(1, template: template, directory: directory.path).draft.url == "https://pets.example/admin?page=2")
        #expect(try session.resolve(2, template: template, directory: directory.path).draft.url == "https://pets.example/?page=1")
    }

    @Test("auth:oauth2 is carried over as auth: oauth2, its credentials where credentials_placement puts them; a session that loads again")
    func oauth2IsCarriedOver() throws {
        let text = "get {\n  url: {{host}}/me\n  auth: oauth2\n}\n\nauth:oauth2 {\n  grant_type: client_credentials\n  access_token_url: {{host}}/oauth/token\n"
            + "  client_id: {{client_id}}\n  client_secret: {{client_secret}}\n  scope: read\n  credentials_placement: basic_auth_header\n}\n"
        let result = try CollectionFormat.bruno.parse(text, path: "me.bru")
        let request = result.session.requests[0]
        #expect(request.auth == SavedAuth(scheme: .oauth2, user: "", password: "", oauth2: SavedOAuth2(
            grant: .clientCredentials, tokenURL: "{{host}}/oauth/token", clientID: "{{client_id}}", clientSecret: "{{client_secret}}", clientAuth: .basic, scope: "read")))
        #expect(!result.notCarried.contains { $0.contains("oauth2") })
        // The session written reads back with the same grant.
        let again = try Session.parse(result.session.yamlText(), path: "me.tincan.yaml")
        #expect(again.requests[0].auth == request.auth)
        // Exported to Bruno, it is the same block, the secret masked unless asked.
        let directory = try TemporaryDirectory()
        let exported = CollectionExport(showsSecrets: false).bruno(result.session, sessionFolder: directory.path, collectionFolder: directory.path + "/out")
        let file = try #require(exported.files.first { $0.path.hasSuffix(".bru") && $0.text.contains("auth:oauth2") }?.text)
        #expect(file.contains("auth: oauth2"))
        #expect(file.contains("auth:oauth2 {\n  grant_type: client_credentials\n  access_token_url: {{host}}/oauth/token\n  client_id: {{client_id}}\n"))
        #expect(file.contains("  credentials_placement: basic_auth_header\n}"))
        #expect(!exported.warnings.contains { $0.contains("oauth2") })
    }

    @Test("Bruno's dynamic variables: {{$guid}} and {{$randomUUID}} are {{$uuid}}, {{$timestamp}} is itself, one Tincan has not is named")
    func dynamicVariables() throws {
        let result = try CollectionFormat.bruno.parse("get {\n  url: http://h/?a={{$guid}}&b={{$timestamp}}&c={{$randomInt}}\n}\n", path: "r.bru")
        #expect(result.session.requests[0].url == "http://h/?a={{$uuid}}&b={{$timestamp}}&c={{$randomInt}}")
        #expect(result.notCarried.contains("request 'r': {{$randomInt}} is a dynamic variable Tincan does not have (its built-ins are {{$uuid}}, {{$timestamp}} and {{$env.NAME}}); set $randomInt yourself (--var) before sending"))
    }

    @Test("Bruno's YAML format: each file read as the .bru file it stands for; opencollection.yml wins over bruno.json, as Bruno reads it")
    func yamlCollection() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("bruno.json", Array(#"{"version": "1", "name": "ignored, as Bruno ignores it", "type": "collection"}"#.utf8))
        _ = try directory.write("opencollection.yml", Array("""
            opencollection: "1.0.0"
            info:
              name: Pets
            extensions:
              bruno:
                ignore: [skip]
            request:
              headers:
                - name: X-App
                  value: pets
              auth:
                type: bearer
                token: "{{token}}"
              variables:
                - name: page
                  value:
                    type: number
                    data: "1"
            """.utf8))
        for folder in ["environments", "admin", "skip"] { try FileManager.default.createDirectory(atPath: directory.path + "/" + folder, withIntermediateDirectories: true) }
        _ = try directory.write("environments/prod.yml", Array("""
            name: Production
            variables:
              - name: host
                value: https://pets.example
              - name: token
                secret: true
              - name: old
                value: x
                disabled: true
            """.utf8))
        _ = try directory.write("admin/folder.yml", Array("""
            info:
              name: Admin area
              type: folder
              seq: 1
            request:
              auth:
                type: basic
                username: root
                password: pw
              scripts:
                - type: before-request
                  code: bru.setVar("a", 1)
            """.utf8))
        _ = try directory.write("admin/create.yml", Array("""
            info:
              name: Create
              type: http
              seq: 2
            http:
              method: POST
              url: "{{host}}/pets/:id?dry=1"
              params:
                - name: dry
                  value: "1"
                  type: query
                - name: trace
                  value: "on"
                  type: query
                  disabled: true
                - name: id
                  value: "7"
                  type: path
              headers:
                - name: X-Debug
                  value: "1"
                  disabled: true
              body:
                type: json
                data: |-
                  {"name": "Rex"}
              auth: inherit
            runtime:
              variables:
                - name: limit
                  value:
                    type: number
                    data: "5"
              actions:
                - type: set-variable
                  phase: after-response
                  selector:
                    expression: res.body.id
                    method: jsonq
                  variable:
                    name: petId
                    scope: runtime
              assertions:
                - expression: res.status
                  operator: eq
                  value: "201"
                - expression: res.body.name
                  operator: isString
              scripts:
                - type: tests
                  code: |-
                    test("ok", () => {});
            settings:
              encodeUrl: true
              followRedirects: false
              maxRedirects: 5
              timeout: 2500
            """.utf8))
        _ = try directory.write("admin/upload.yml", Array("""
            info:
              name: Upload
              type: http
              seq: 1
            http:
              method: POST
              url: "{{host}}/upload"
              body:
                type: multipart-form
                data:
                  - name: note
                    type: text
                    value: hi
                  - name: files
                    type: file
                    value:
                      - a.txt
                      - b.txt
                    contentType: text/plain
              auth:
                type: apikey
                key: X-Key
                value: "{{key}}"
                placement: query
            """.utf8))
        _ = try directory.write("top.yml", Array("info:\n  name: Top\n  type: http\nhttp:\n  method: PROPFIND\n  url: http://h/\n".utf8))
        _ = try directory.write("helpers.yml", Array("info:\n  name: helpers\n  type: script\n".utf8))
        _ = try directory.write("skip/x.yml", Array(": not yaml [".utf8))
        _ = try directory.write("a.txt", Array("a".utf8))
        _ = try directory.write("b.txt", Array("b".utf8))
        let result = try CollectionFormat.bruno.load(path: directory.path)
        let session = result.session
        #expect(session.name == "Pets")
        #expect(session.requests.map(\.displayName) == ["Upload", "Create", "Top"])
        #expect(session.defaults.headers == [HeaderSetting(name: "X-App", value: "pets")])
        // A value one request alone sets (its path parameter) is the session's.
        #expect(session.variables == ["page": 1, "id": "7"])
        #expect(session.environments == ["Production": ["host": "https://pets.example"]])
        #expect(result.notCarried.contains("environment 'Production': the secret variables token hold no value in the file; give them with --var or {{$env.NAME}}"))
        #expect(result.notCarried.contains("environment 'Production': the disabled variable old is not carried over"))
        #expect(result.notCarried.contains("admin/folder.yml: the pre-request script (1 line) is not carried over; use capture: and assert: instead"))
        #expect(result.notCarried.contains("helpers.yml: not carried over: a shared script file, which is no request"))
        let create = try importedRequest(session, "Create")
        #expect(create.url == "{{host}}/pets/{{id}}?dry=1")
        #expect(create.variables == ["limit": 5])
        #expect(create.query == [QuerySetting(name: "trace", value: "on", isEnabled: false)])
        #expect(create.headers.contains(HeaderSetting(name: "X-Debug", value: "1", isEnabled: false)))
        #expect(create.auth == SavedAuth(user: "root", password: "pw"), "inherit takes the folder's")
        #expect(create.serializer == .json && create.params == .dictionary(["name": "Rex"]))
        #expect(create.captures == ["petId": .body(try BodyPath(parsing: "$.id"))])
        #expect(create.assertions == [.status("201"), .body(try BodyPath(parsing: "$.name"), Predicate([.type(.string)]))])
        #expect(create.flow.followRedirects == false && create.flow.maxRedirects == nil)
        #expect(create.maxTime == 2.5)
        let upload = try importedRequest(session, "Upload")
        #expect(upload.params == .dictionary(["note": "hi"]))
        #expect(upload.files == [SavedFile(field: "files", path: "a.txt", type: "text/plain"), SavedFile(field: "files", path: "b.txt", type: "text/plain")])
        #expect(upload.query == [QuerySetting(name: "X-Key", value: "{{key}}")])
        #expect(try importedRequest(session, "Top").method == "PROPFIND")
        #expect(try importedRequest(session, "Top").auth == nil, "a request that names no auth has none")
    }

    @Test("a YAML file that is not YAML is refused at its line and column")
    func yamlErrors() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("opencollection.yml", Array("opencollection: \"1.0.0\"\ninfo:\n  name: P\n".utf8))
        _ = try directory.write("bad.yml", Array("info:\n  name: Bad\n  type: http\nhttp:\n  url: [unclosed\n".utf8))
        let message = importError { try CollectionFormat.bruno.load(path: directory.path) }
        #expect(message.hasPrefix(directory.path + "/bad.yml:"), "\(message)")
        #expect(message.range(of: #"bad\.yml:\d+:\d+: "#, options: .regularExpression) != nil, "\(message)")
    }

    @Test("a symbolic link in a collection is not followed out of it")
    func linksAreNotFollowed() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("bruno.json", Array(#"{"version": "1", "name": "L", "type": "collection"}"#.utf8))
        let elsewhere = try TemporaryDirectory()
        let outside = try elsewhere.write("secret.bru", Array("get {\n  url: http://h/secret\n}\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/linked.bru", withDestinationPath: outside)
        let result = try CollectionFormat.bruno.load(path: directory.path)
        #expect(result.session.requests.isEmpty)
        #expect(result.notCarried.contains("linked.bru: not read: it is a symbolic link, and an import reads no file outside the collection"))
    }
}
