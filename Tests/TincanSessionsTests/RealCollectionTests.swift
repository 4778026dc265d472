import Foundation
import TestSupport
import Testing
import TincanCore
import TincanSessions

/// Every real collection in Tests/Fixtures/collections, imported as its format and read back.
@Suite("Real collections import, and what they import reads back")
struct RealCollectionTests {
    static let files: [(CollectionFormat, String)] = {
        let folders: [(CollectionFormat, String)] = [
            (.openapi, "openapi"), (.openapi, "swagger"), (.postman, "postman-v2.1"), (.postman, "postman-v2.0"),
            (.insomnia, "insomnia-v4"), (.insomnia, "insomnia-v5"),
        ]
        return folders.flatMap { format, folder in ((try? collectionFixtures(folder)) ?? []).map { (format, $0) } }
            + ["testbench", "yml-testbench", "yml-descriptions", "opencollection-cli"].map { (.bruno, (collectionFixturesDirectory as NSString).appendingPathComponent("bruno/\($0)")) }
    }()

    @Test("there are real files of every format to test")
    func everyFormatHasFiles() {
        for folder in ["openapi", "swagger", "postman-v2.1", "postman-v2.0", "insomnia-v4", "insomnia-v5"] {
            #expect((try? collectionFixtures(folder).count) ?? 0 >= 2, "\(folder)")
        }
    }

    @Test("each file imports, and the session it makes reads back the same with the session reader", arguments: files)
    func importsAndReadsBack(_ format: CollectionFormat, _ path: String) throws {
        let imported = try format.load(path: path)
        #expect(!imported.session.requests.isEmpty || path.contains("webhook"), "\(path) imported no request")
        let text = imported.session.yamlText()
        let reread = try Session.parse(text, path: "out.tincan.yaml")
        #expect(reread.requests == imported.session.requests, "\(path)")
        #expect(reread.variables == imported.session.variables, "\(path)")
        #expect(reread.environments == imported.session.environments, "\(path)")
        #expect(reread.defaults == imported.session.defaults, "\(path)")
        // Written again, the text is the same: the file is stable.
        #expect(reread.yamlText() == text, "\(path)")
    }

    static func fixture(_ path: String) -> String {
        (collectionFixturesDirectory as NSString).appendingPathComponent(path)
    }

    @Test("OpenAPI 3 and Swagger 2.0: the petstore's operations, its server, optional query parameters off and a JSON body")
    func petstores() throws {
        for (path, base) in [("openapi/petstore-expanded.yaml", "https://petstore.swagger.io/v2"), ("swagger/petstore-expanded.json", "http://petstore.swagger.io/api")] {
            let session = try CollectionFormat.openapi.load(path: Self.fixture(path)).session
            #expect(session.requests.map(\.displayName) == ["findPets", "addPet", "find pet by id", "deletePet"], "\(path)")
            #expect(session.variables["baseUrl"] == .string(base), "\(path)")
            let find = try importedRequest(session, "findPets")
            #expect(find.query == [QuerySetting(name: "tags", value: "string", isEnabled: false), QuerySetting(name: "limit", value: "0", isEnabled: false)], "\(path)")
            let add = try importedRequest(session, "addPet")
            #expect(add.serializer == .json)
            #expect(add.params == .dictionary(["name": "string", "tag": "string"]), "\(path)")
            #expect(try importedRequest(session, "deletePet").url == "{{baseUrl}}/pets/{{id}}")
        }
    }

    @Test("Swagger 2.0: Uber's required query parameters are on, its API key goes in the query, and https comes from schemes")
    func uber() throws {
        let session = try CollectionFormat.openapi.load(path: Self.fixture("swagger/uber.yaml")).session
        #expect(session.variables["baseUrl"] == .string("https://api.uber.com/v1"))
        let products = try importedRequest(session, "Product Types")
        #expect(products.query.map(\.name) == ["latitude", "longitude", "server_token"])
        #expect(products.query.last?.value == "{{apikey}}")
        #expect(!products.query.contains { !$0.isEnabled })
    }

    @Test("Postman v2.0: auth settings written as objects are read as v2.1's lists are")
    func postmanVersion2() throws {
        let bearer = try CollectionFormat.postman.load(path: Self.fixture("postman-v2.0/bearerAuthTest.json")).session.requests[0]
        #expect(bearer.headers == [HeaderSetting(name: "Authorization", value: "Bearer wkjehbxoqnunc2k3")])
        let apiKey = try CollectionFormat.postman.load(path: Self.fixture("postman-v2.0/apikeyAuthTest.json")).session.requests[0]
        // The request's own x-api-key header is replaced by the auth's, as Postman's runtime does.
        #expect(apiKey.headers == [HeaderSetting(name: "x-api-key", value: "ABC123")])
    }

    @Test("Insomnia v5: folder environments cascade over the base and sub-environments, the nearest folder winning")
    func insomniaCascade() throws {
        let session = try CollectionFormat.insomnia.load(path: Self.fixture("insomnia-v5/environment-cascade-collection.yaml")).session
        #expect(session.variables == ["cascadeVar": "fromBase", "subOnlyVar": "subOnly_base"])
        #expect(session.environments["SubEnvA"] == ["cascadeVar": "fromSubA", "subOnlyVar": "subOnly_A"])
        #expect(try importedRequest(session, "cascade request no folder").variables.isEmpty)
        #expect(try importedRequest(session, "cascade request").variables == ["cascadeVar": "fromFolder", "folderOverride": "fromOuterFolder"])
        #expect(try importedRequest(session, "inner request").variables == ["cascadeVar": "fromFolder", "folderOverride": "fromInnerFolder"])
        // With an environment chosen, the folder's value still wins, as in Insomnia.
        let template = try session.template(environment: "SubEnvA", overrides: [:])
        let resolved = try session.resolve(1, template: template, directory: "/tmp")
        #expect(resolved.draft.parameters == .dictionary(["cascadeVar": "fromFolder", "subOnlyVar": "subOnly_A"]))
    }

    @Test("Insomnia v5: a header name made of a variable is written out; basic auth applies beside a disabled Authorization header")
    func insomniaHeadersAndAuth() throws {
        let headers = try CollectionFormat.insomnia.load(path: Self.fixture("insomnia-v5/header-templates.yaml")).session.requests[0]
        #expect(headers.headers.last == HeaderSetting(name: "X-Foo-Bar", value: "baz"))
        let auth = try importedRequest(CollectionFormat.insomnia.load(path: Self.fixture("insomnia-v5/auth-types.yaml")).session, "sends request with basic authentication")
        #expect(auth.auth == SavedAuth(user: "user", password: "pass"))
    }

    @Test("Bruno: Bruno's own test collection, in its order, with inherited auth, collection headers and environments")
    func brunoTestbench() throws {
        let imported = try CollectionFormat.bruno.load(path: Self.fixture("bruno/testbench"))
        let session = imported.session
        #expect(session.name == "bruno-testbench")
        #expect(session.requests.count == 15)
        #expect(session.requests.first?.group == "asserts", "folders come before the requests at the top, by name")
        #expect(session.requests.last?.name == "ping")
        #expect(session.defaults.headers.map(\.name) == ["check", "token", "collection-header"])
        #expect(session.environments.keys.elements == ["Local", "Prod"])
        #expect(session.variables["coll_num"] == .integer(100), "@number makes a number")
        // auth: inherit takes the collection's bearer token.
        #expect(try importedRequest(session, "inherit Bearer Auth 200").headers == [HeaderSetting(name: "Authorization", value: "Bearer {{bearer_auth_token}}")])
        #expect(try importedRequest(session, "max-redirect").flow.maxRedirects == 5)
        let basic = try importedRequest(session, "Basic Auth 200")
        #expect(basic.auth == SavedAuth(user: "bruno", password: "{{basic_auth_password}}"))
        #expect(basic.assertions.first == .status("200"))
        #expect(imported.notCarried.contains { $0.contains("the secret variables github_client_secret") })
    }

    @Test("Bruno's YAML format: Bruno's own YAML test collection, typed variables of the collection, folder, request and environment")
    func brunoYAMLTestbench() throws {
        let imported = try CollectionFormat.bruno.load(path: Self.fixture("bruno/yml-testbench"))
        let session = imported.session
        #expect(session.name == "bruno-yml-testbench")
        #expect(session.requests.map(\.displayName) == ["typed vars", "form-urlencoded", "multipart"])
        #expect(session.requests.allSatisfy { $0.group == "variable-datatypes" })
        #expect(session.variables["coll_num"] == .integer(100))
        #expect(session.variables["coll_bool"] == .bool(false))
        #expect(session.variables["coll_obj"] == .dictionary(["scope": "collection"]))
        #expect(session.environments["Local"]?["typed_env_num"] == .integer(300))
        let typed = try importedRequest(session, "typed vars")
        #expect(typed.variables["req_num"] == .integer(42))
        #expect(typed.headers.first == HeaderSetting(name: "x-h-str", value: "{{req_str}}"))
        #expect(typed.flow.maxRedirects == 5, "Bruno follows five redirects unless told")
        let form = try importedRequest(session, "form-urlencoded")
        #expect(form.serializer == .form)
        #expect(form.params == .dictionary(["fu_str": "{{fu_str}}", "fu_num": "{{fu_num}}", "fu_bool": "{{fu_bool}}", "fu_obj": "{{fu_obj}}"]))
        #expect(imported.notCarried.contains("request 'typed vars': the test script (124 lines) is not carried over; use capture: and assert: instead"))

        // The same requests as a .bru collection and as YAML import alike.
        let cli = try CollectionFormat.bruno.load(path: Self.fixture("bruno/opencollection-cli")).session
        #expect(cli.defaults.headers == [HeaderSetting(name: "X-Collection-Header", value: "collection-header-value")])
        #expect(cli.environments == ["Development": ["baseUrl": "https://api.dev.example.com", "apiKey": "dev-api-key-123"]])
        #expect(cli.requests.map(\.group) == ["Users", nil])
        let descriptions = try CollectionFormat.bruno.load(path: Self.fixture("bruno/yml-descriptions"))
        let request = try importedRequest(descriptions.session, "request-with-descriptions")
        #expect(request.assertions.first == .status("200"))
        #expect(request.headers.map(\.name) == ["X-Version", "X-Multi", "X-Plain"])
        #expect(try importedRequest(descriptions.session, "multipart-with-descriptions").params == .dictionary(["username": "alice", "email": "alice@example.com", "plain-field": "no-desc"]))
    }
}
