import Foundation
import Testing
import TincanCore
import TincanSessions

@Suite("Postman import")
struct PostmanImportTests {
    static let collection = #"""
        {
          "info": {
            "_postman_id": "5c1e",
            "name": "Shop",
            "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
          },
          "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}", "type": "string"}]},
          "variable": [
            {"key": "baseUrl", "value": "http://127.0.0.1:9"},
            {"key": "old", "value": "x", "disabled": true}
          ],
          "event": [{"listen": "prerequest", "script": {"type": "text/javascript", "exec": ["pm.variables.set('a', 1);"]}}],
          "item": [
            {
              "name": "Orders",
              "variable": [{"key": "page", "value": "1"}],
              "item": [
                {
                  "name": "Admin",
                  "auth": {"type": "basic", "basic": [{"key": "username", "value": "ada"}, {"key": "password", "value": "{{secret}}"}]},
                  "item": [
                    {
                      "name": "Create order",
                      "event": [{"listen": "test", "script": {"exec": ["pm.test('ok', () => {});", "pm.expect(1).to.eql(1);"]}}],
                      "request": {
                        "method": "POST",
                        "header": [
                          {"key": "Content-Type", "value": "application/json"},
                          {"key": "X-Debug", "value": "1", "disabled": true}
                        ],
                        "body": {"mode": "raw", "raw": "{\"item\": \"tea\", \"count\": 2}", "options": {"raw": {"language": "json"}}},
                        "url": {
                          "raw": "{{baseUrl}}/orders/:orderId?page={{page}}&debug=1",
                          "host": ["{{baseUrl}}"],
                          "path": ["orders", ":orderId"],
                          "query": [{"key": "page", "value": "{{page}}"}, {"key": "debug", "value": "1"}, {"key": "trace", "value": "on", "disabled": true}],
                          "variable": [{"key": "orderId", "value": "7"}]
                        }
                      },
                      "response": [{"name": "Created", "code": 201}]
                    }
                  ]
                },
                {
                  "name": "Search",
                  "request": {
                    "method": "GET",
                    "auth": {"type": "apikey", "apikey": [{"key": "key", "value": "api_key"}, {"key": "value", "value": "{{key}}"}, {"key": "in", "value": "query"}]},
                    "url": "{{baseUrl}}/orders"
                  }
                }
              ]
            },
            {
              "name": "Login",
              "request": {
                "method": "POST",
                "auth": {"type": "noauth"},
                "body": {"mode": "urlencoded", "urlencoded": [{"key": "user", "value": "ada"}, {"key": "otp", "value": "1", "disabled": true}]},
                "url": {"raw": "{{baseUrl}}/login", "host": ["{{baseUrl}}"], "path": ["login"]}
              }
            },
            {
              "name": "Upload",
              "request": {
                "method": "POST",
                "body": {"mode": "formdata", "formdata": [
                  {"key": "title", "value": "cat", "type": "text"},
                  {"key": "photo", "type": "file", "src": "photos/cat.png"}
                ]},
                "url": "{{baseUrl}}/photos"
              }
            },
            {
              "name": "Put file",
              "request": {"method": "PUT", "body": {"mode": "file", "file": {"src": "/data/blob.bin"}}, "url": "{{baseUrl}}/blob"}
            },
            {
              "name": "Query",
              "request": {
                "method": "POST",
                "auth": {"type": "oauth2", "oauth2": []},
                "body": {"mode": "graphql", "graphql": {"query": "query { orders { id } }", "variables": "{\"first\": 3}"}},
                "url": "{{baseUrl}}/graphql"
              }
            },
            {
              "name": "Note",
              "request": {"method": "POST", "header": ["X-Note: yes"], "body": {"mode": "raw", "raw": "plain {{word}}"}, "url": "{{baseUrl}}/notes"}
            }
          ]
        }
        """#

    @Test("Folders become groups, path variables variables, and disabled headers stay disabled")
    func foldersAndRequests() throws {
        let result = try imported(.postman, Self.collection, path: "shop.postman_collection.json")
        let session = result.session
        #expect(session.name == "Shop")
        #expect(session.requests.map(\.displayName) == ["Create order", "Search", "Login", "Upload", "Put file", "Query", "Note"])
        #expect(session.requests.map(\.group) == ["Orders/Admin", "Orders", nil, nil, nil, nil, nil])
        let create = try importedRequest(session, "Create order")
        #expect(create.method == "POST")
        #expect(create.url == "{{baseUrl}}/orders/{{orderId}}?page={{page}}&debug=1")
        #expect(create.headers.contains(HeaderSetting(name: "X-Debug", value: "1", isEnabled: false)))
        #expect(session.variables == ["baseUrl": .string("http://127.0.0.1:9"), "page": .string("1"), "orderId": .string("7")])
    }

    @Test("Auth is inherited from the nearest folder: basic, bearer, API key in the query, none")
    func authIsInherited() throws {
        let result = try imported(.postman, Self.collection)
        let session = result.session
        #expect(try importedRequest(session, "Create order").auth == SavedAuth(user: "ada", password: "{{secret}}"))
        #expect(try importedRequest(session, "Search").query.map { "\($0.name)=\($0.value)" } == ["api_key={{key}}"])
        #expect(try importedRequest(session, "Login").headers.isEmpty)
        #expect(try importedRequest(session, "Upload").headers == [HeaderSetting(name: "Authorization", value: "Bearer {{token}}")])
        #expect(result.notCarried.contains("item 'Query': its OAuth 2.0 auth has no token URL or no client id, and is not carried over"))
    }

    @Test("OAuth 2.0 auth is carried over as auth: oauth2: the grant, endpoints, client, scope and where the credentials go")
    func oauth2IsCarriedOver() throws {
        func auth(_ settings: String) throws -> (SavedAuth?, [String]) {
            let text = #"{"info": {"name": "O", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "Me", "request": {"method": "GET", "url": "https://api.example/me", "header": [{"key": "Authorization", "value": "Bearer old"}], "auth": {"type": "oauth2", "oauth2": ["#
                + settings + #"]}}}]}"#
            let result = try imported(.postman, text)
            let request = try importedRequest(result.session, "Me")
            if request.auth != nil {
                #expect(!request.headers.contains { $0.name == "Authorization" }, "the auth's header replaces the request's, as Postman sends it")
            }
            return (request.auth, result.notCarried)
        }
        func setting(_ key: String, _ value: String) -> String { #"{"key": "\#(key)", "value": "\#(value)", "type": "string"}"# }

        let credentials = try auth([setting("grant_type", "client_credentials"), setting("accessTokenUrl", "https://{{auth}}/token"), setting("clientId", "app"),
                                    setting("clientSecret", "{{secret}}"), setting("scope", "read write"), setting("client_authentication", "body")].joined(separator: ","))
        #expect(credentials.0 == SavedAuth(scheme: .oauth2, user: "", password: "", oauth2: SavedOAuth2(
            grant: .clientCredentials, tokenURL: "https://{{auth}}/token", clientID: "app", clientSecret: "{{secret}}", clientAuth: .body, scope: "read write")))
        #expect(credentials.1.isEmpty)

        let code = try auth([setting("grant_type", "authorization_code_with_pkce"), setting("accessTokenUrl", "https://id.example/token"),
                             setting("authUrl", "https://id.example/authorize"), setting("clientId", "app"),
                             setting("redirect_uri", "https://oauth.pstmn.io/v1/callback")].joined(separator: ","))
        #expect(code.0?.oauth2?.grant == .authorizationCode)
        #expect(code.0?.oauth2?.authURL == "https://id.example/authorize")
        #expect(code.0?.oauth2?.redirectURI == nil, "Tincan's own loopback redirect")
        #expect(code.1 == ["item 'Me': the redirect URI https://oauth.pstmn.io/v1/callback is not carried over: Tincan listens on a loopback redirect (http://127.0.0.1:<free port>/callback unless redirect-uri: names one), which the authorization server must allow"])

        let password = try auth([setting("grant_type", "password_credentials"), setting("accessTokenUrl", "https://id.example/token"), setting("clientId", "app"),
                                 setting("username", "ada"), setting("password", "{{pw}}")].joined(separator: ","))
        #expect(password.0?.oauth2?.grant == .password)
        #expect(password.0?.user == "ada" && password.0?.password == "{{pw}}")

        let implicit = try auth([setting("grant_type", "implicit"), setting("authUrl", "https://id.example/authorize"), setting("clientId", "app")].joined(separator: ","))
        #expect(implicit.0 == nil)
        #expect(implicit.1 == ["item 'Me': the OAuth 2.0 implicit grant is not carried over; Tincan's grants are client credentials, authorization code (with PKCE), device code, password and refresh token"])
    }

    @Test("Bodies: JSON raw as parameters, urlencoded, form data with files, a file as the upload, GraphQL as a graphql body, other raw as text")
    func bodies() throws {
        let result = try imported(.postman, Self.collection)
        let session = result.session
        let create = try importedRequest(session, "Create order")
        #expect(create.serializer == .json)
        #expect(create.params == .dictionary(["item": .string("tea"), "count": .integer(2)]))
        let login = try importedRequest(session, "Login")
        #expect(login.serializer == .form)
        #expect(login.params == .dictionary(["user": .string("ada")]))
        let upload = try importedRequest(session, "Upload")
        #expect(upload.serializer == .multipart)
        #expect(upload.params == .dictionary(["title": .string("cat")]))
        #expect(upload.files == [SavedFile(field: "photo", path: "photos/cat.png")])
        // An absolute path is outside the collection's folder: a placeholder the user sets.
        #expect(try importedRequest(session, "Put file").upload == SavedUpload(file: "{{file:blob.bin}}"))
        let query = try importedRequest(session, "Query")
        #expect(query.serializer == nil)
        #expect(query.body == .graphql(GraphQLQuery(query: "query { orders { id } }", variables: ["first": 3])))
        #expect(try importedRequest(session, "Note").body == .text("plain {{word}}"))
        #expect(try importedRequest(session, "Note").headers.first == HeaderSetting(name: "X-Note", value: "yes"))
    }

    @Test("Scripts, disabled form fields, disabled variables, saved responses and local files are listed item by item")
    func listsWhatIsNotCarried() throws {
        let notCarried = try imported(.postman, Self.collection).notCarried
        #expect(Array(notCarried.prefix(8)) == [
            "collection: the disabled variable old is not carried over",
            "collection: the pre-request script (1 line) is not carried over; use capture: and assert: instead",
            "item 'Orders/Admin/Create order': the test script (2 lines) is not carried over; use capture: and assert: instead",
            "item 'Orders/Admin/Create order': 1 saved example response is not carried over",
            "item 'Login': the disabled form field otp is not carried over (a session's form fields cannot be turned off)",
            "item 'Query': its OAuth 2.0 auth has no token URL or no client id, and is not carried over",
            "request 'Upload': the form file photo reads the local file photos/cat.png, in the imported file's folder",
            "request 'Put file': the upload names /data/blob.bin, outside the imported file's folder; Tincan reads no such file without your consent, so the request keeps {{file:blob.bin}}: set it to the file (--var 'file:blob.bin=PATH', or file:blob.bin: PATH under variables:)",
        ])
        // photos/cat.png is not there: the request is imported as it is, and named.
        #expect(notCarried.count == 9)
        #expect(notCarried.last?.hasPrefix("request 'Upload': cannot be sent as written (File not reachable:") == true, "\(notCarried)")
    }

    @Test("A disabled query field is kept, turned off; Postman never writes it in raw")
    func disabledQueryFieldsAreKeptOff() throws {
        let create = try importedRequest(try imported(.postman, Self.collection).session, "Create order")
        #expect(create.query == [QuerySetting(name: "trace", value: "on", isEnabled: false)])
    }

    @Test("A v1 collection or another format is refused at its place, saying what was expected")
    func refusesOtherFormats() {
        #expect(importError { try CollectionFormat.postman.parse("{\"id\": \"x\", \"name\": \"old\",\n \"order\": [], \"requests\": []}", path: "c.json") }
            == "c.json:2:27: this is a Postman v1 collection; expected v2.1 or v2.0 (export it again from Postman as Collection v2.1)")
        #expect(importError { try CollectionFormat.postman.parse("openapi: 3.0.0\n", path: "c.yaml") }
            == "c.yaml:1:1: expected a Postman collection (`info.schema` naming collection/v2.1.0 or v2.0.0)")
        let broken = importError { try CollectionFormat.postman.parse("{\"info\": {\n  \"name\": \"x\",,\n}}", path: "c.json") }
        #expect(broken == "c.json:2:15: malformed JSON: expected a key in double quotes", "\(broken)")
    }

    @Test("A collection of 1,000 requests imports whole, each with its body")
    func importsAThousandRequests() async throws {
        var items: [String] = []
        for index in 0..<1_000 {
            items.append(#"{"name": "r\#(index)", "request": {"method": "POST", "url": {"raw": "{{baseUrl}}/items/\#(index)"}, "body": {"mode": "raw", "raw": "{\"n\": \#(index)}", "options": {"raw": {"language": "json"}}}}}"#)
        }
        let text = #"{"info": {"name": "Big", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "all", "item": ["# + items.joined(separator: ",\n") + "]}]}"
        let session = try await importedWhole(.postman, text)
        let sample = try importedRequest(session, "r654")
        #expect(sample.url == "{{baseUrl}}/items/654")
        #expect(sample.params == .dictionary(["n": .integer(654)]))
        #expect(sample.group == "all")
    }

    static let folders = #"""
        {"info": {"name": "F", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"},
         "variable": [{"key": "host", "value": "http://h"}, {"key": "page", "value": 1}],
         "auth": {"type": "basic", "basic": {"username": "root", "password": "{{pw}}"}},
         "item": [
          {"name": "A", "variable": [{"key": "page", "value": "2"}, {"id": "only", "value": "a"}],
           "auth": {"type": "apikey", "apikey": {"key": "X-Key", "value": "{{key}}", "in": "header"}},
           "event": [{"listen": "prerequest", "script": {"exec": "pm.variables.set('x', 1)"}}],
           "item": [{"name": "in A", "request": {"method": "GET", "url": "{{host}}/a?page={{page}}&id={{$guid}}&n={{$randomInt}}",
                     "header": "Accept: text/plain\nX-Two: 2"}}]},
          {"name": "B", "variable": [{"key": "page", "value": "3"}],
           "item": [{"name": "in B", "request": {"method": "POST", "url": "{{host}}/b", "auth": {"type": "inherit"},
                     "body": {"mode": "raw", "raw": "<a/>", "options": {"raw": {"language": "xml"}}}},
                     "protocolProfileBehavior": {"followRedirects": false, "strictSSL": false}}]},
          {"name": "top", "request": {"method": "GET", "url": "localhost:8080/{{page}}"}}
         ]}
        """#

    @Test("Folder variables apply to the requests under them, the nearest winning; a name only one folder sets is the session's")
    func folderVariables() throws {
        let session = try imported(.postman, Self.folders, path: "f.json").session
        #expect(session.variables == ["host": "http://h", "page": 1, "only": "a"])
        #expect(try importedRequest(session, "in A").variables == ["page": "2"])
        #expect(try importedRequest(session, "in B").variables == ["page": "3"])
        #expect(try importedRequest(session, "top").variables.isEmpty)
        let template = try session.template(environment: nil, overrides: ["$randomInt": "7", "key": "k", "pw": "p"])
        #expect(try session.resolve(0, template: template, directory: "/tmp").draft.url.hasPrefix("http://h/a?page=2&id="))
        #expect(try session.resolve(2, template: template, directory: "/tmp").draft.url == "http://localhost:8080/1", "a URL without a scheme is http, as Postman sends it")
    }

    @Test("v2.0 auth objects and folder auth: the nearest folder's, else the collection's")
    func version2Auth() throws {
        let session = try imported(.postman, Self.folders, path: "f.json").session
        #expect(try importedRequest(session, "in A").headers.contains(HeaderSetting(name: "X-Key", value: "{{key}}")))
        #expect(try importedRequest(session, "in B").auth == SavedAuth(user: "root", password: "{{pw}}"))
    }

    @Test("Headers written as lines, dynamic variables, a raw body's language and redirects are read as Postman sends them")
    func postmanDetails() throws {
        let result = try imported(.postman, Self.folders, path: "f.json")
        let inA = try importedRequest(result.session, "in A")
        #expect(inA.headers.prefix(2) == [HeaderSetting(name: "Accept", value: "text/plain"), HeaderSetting(name: "X-Two", value: "2")])
        #expect(inA.url.contains("id={{$uuid}}"))
        #expect(result.notCarried.contains("request 'in A': {{$randomInt}} is a dynamic variable Tincan does not have (its built-ins are {{$uuid}}, {{$timestamp}} and {{$env.NAME}}); set $randomInt yourself (--var) before sending"))
        let inB = try importedRequest(result.session, "in B")
        #expect(inB.body == .text("<a/>"))
        #expect(inB.headers == [HeaderSetting(name: "Content-Type", value: "application/xml")])
        #expect(inB.flow.followRedirects == false)
        #expect(result.notCarried.contains("item 'B/in B': the setting strictSSL is not carried over"))
        #expect(result.notCarried.contains("item 'A': the pre-request script (1 line) is not carried over; use capture: and assert: instead"))
    }

    @Test("A collection the Postman API returns, under collection:, imports")
    func apiWrapper() throws {
        let text = #"{"collection": {"info": {"name": "W", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "r", "request": "http://h/"}]}}"#
        #expect(try imported(.postman, text, path: "c.json").session.requests.map(\.url) == ["http://h/"])
    }
}
