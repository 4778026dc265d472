import Foundation
import Testing
@testable import TincanCore

@Suite("Default headers")
struct DefaultHeaderTests {
    @Test func theStoreSetsGetsAndRemovesCaseInsensitively() {
        let settings = RequestSettings(environment: [:])
        settings.setValue("1", forHTTPHeaderField: "X-One")
        #expect(settings.value(forHTTPHeaderField: "x-one") == "1")
        settings.setValue("2", forHTTPHeaderField: "X-ONE")
        #expect(settings.httpRequestHeaders.fields.filter { HTTPHeaders.same($0.name, "x-one") }.count == 1)
        settings.removeValue(forHTTPHeaderField: "x-One")
        #expect(settings.value(forHTTPHeaderField: "X-One") == nil)
    }

    @Test func theStoreIsSafeToChangeFromManyTasksAtOnce() async {
        let settings = RequestSettings(environment: [:])
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<500 {
                        settings.setValue("\(round)", forHTTPHeaderField: "X-Worker-\(worker)")
                        _ = settings.httpRequestHeaders
                    }
                }
            }
        }
        for worker in 0..<8 {
            #expect(settings.value(forHTTPHeaderField: "X-Worker-\(worker)") == "499")
        }
    }

    @Test("settings made for the process start from its environment's headers, and each starts apart")
    func processSettingsStartFromTheEnvironment() {
        let first = RequestSettings()
        #expect(first.httpRequestHeaders == RequestSettings.defaultHeaders(environment: ProcessEnvironment.values))
        first.setValue("1", forHTTPHeaderField: "X-One")
        // The headers worked out once are a value: a change to one settings is not in the next.
        #expect(RequestSettings().value(forHTTPHeaderField: "X-One") == nil)
    }

    @Test func userAgentNamesTincanLinuxAndSwift() {
        #expect(RequestSettings.userAgent == "tincan/\(Tincan.version) (Linux; Swift \(Tincan.swiftVersion))")
        #expect(RequestSettings(environment: [:]).value(forHTTPHeaderField: "User-Agent") == RequestSettings.userAgent)
    }

    @Test func basicAuthorizationIsBase64OfUserColonPassword() {
        let settings = RequestSettings(environment: [:])
        settings.setAuthorizationHeader(username: "Aladdin", password: "open sesame")
        #expect(settings.value(forHTTPHeaderField: "Authorization") == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        settings.clearAuthorizationHeader()
        #expect(settings.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func perRequestHeadersReplaceDefaultsInPlace() throws {
        let manager = try HTTPSessionManager(baseURL: "http://example.com", requestSerializer: FormRequestSerializer(settings: RequestSettings(environment: [:])))
        let request = try manager.get("x", headers: ["accept": "application/json", "X-New": "1"])
        #expect(request.headers.fields.filter { HTTPHeaders.same($0.name, "Accept") }.map(\.value) == ["application/json"])
        let names = request.headers.fields.map(\.name)
        #expect(names == ["User-Agent", "accept", "Accept-Encoding", "Accept-Language", "X-New"])
    }
}

@Suite("Accept-Language comes from the locale environment")
struct AcceptLanguageTests {
    @Test(arguments: [
        (["LANG": "en_US.UTF-8"], "en-US;q=1"),
        (["LANG": "C.UTF-8"], "en;q=1"),
        ([:], "en;q=1"),
        (["LANGUAGE": "fr_CA:fr:en", "LANG": "fr_CA.UTF-8"], "fr-CA;q=1, fr;q=0.9, en;q=0.8"),
        (["LC_ALL": "de_DE.UTF-8@euro", "LANG": "en_US.UTF-8"], "de-DE;q=1"),
        (["LANGUAGE": "a1:pt_BR", "LANG": "POSIX"], "pt-BR;q=1"),
    ])
    func buildsQValuesFromTheEnvironment(environment: [String: String], expected: String) {
        #expect(AcceptLanguage.headerValue(environment: environment) == expected)
    }

    @Test func listsAtMostSixLanguages() {
        let value = AcceptLanguage.headerValue(environment: ["LANGUAGE": "aa:bb:cc:dd:ee:ff:gg:hh"])
        #expect(value == "aa;q=1, bb;q=0.9, cc;q=0.8, dd;q=0.7, ee;q=0.6, ff;q=0.5")
    }
}

@Suite("Observed request properties")
struct ObservedPropertyTests {
    @Test func onlyChangedPropertiesAreAppliedAndReported() throws {
        let settings = RequestSettings(environment: [:])
        settings.updateObservedProperties {
            $0.timeoutInterval = 5
            $0.httpShouldHandleCookies = true
        }
        let request = try FormRequestSerializer(settings: settings).request(method: "GET", url: URLReference(parsing: "http://x/"), parameters: nil)
        #expect(request.appliedProperties == [.httpShouldHandleCookies, .timeoutInterval])
        #expect(request.properties.timeoutInterval == 5)
        #expect(request.properties.cachePolicy == .useProtocolCachePolicy)
    }

    @Test func settingEveryPropertyAppliesAllSixInAFNetworkingsOrder() throws {
        let settings = RequestSettings(environment: [:])
        settings.updateObservedProperties {
            $0.networkServiceType = .background
            $0.cachePolicy = .reloadIgnoringLocalCacheData
            $0.allowsCellularAccess = false
            $0.httpShouldUsePipelining = true
            $0.httpShouldHandleCookies = false
            $0.timeoutInterval = 1
        }
        let request = try JSONRequestSerializer(settings: settings).request(method: "POST", url: URLReference(parsing: "http://x/"), parameters: nil)
        #expect(request.appliedProperties == ObservedProperty.allCases)
        #expect(!request.properties.allowsCellularAccess)
        #expect(request.properties.networkServiceType == .background)
        #expect(request.properties.cachePolicy == .reloadIgnoringLocalCacheData)
    }

    @Test func forgettingAPropertyStopsApplyingIt() throws {
        let settings = RequestSettings(environment: [:])
        settings.updateObservedProperties { $0.timeoutInterval = 9 }
        settings.updateObservedProperties { $0.timeoutInterval = nil }
        let request = try FormRequestSerializer(settings: settings).request(method: "GET", url: URLReference(parsing: "http://x/"), parameters: nil)
        #expect(request.appliedProperties.isEmpty)
        #expect(request.properties.timeoutInterval == 60)
    }

    @Test("each property carries its AFNetworking name and its session key, the one table the others derive from")
    func namesLiveOnTheProperty() {
        let names = ObservedProperty.listingOrder.map { "\($0.afNetworkingName) \($0.sessionKey)" }
        #expect(names == [
            "timeoutInterval timeout", "cachePolicy cache-policy", "httpShouldHandleCookies cookies",
            "httpShouldUsePipelining pipelining", "allowsCellularAccess cellular", "networkServiceType network-service",
        ])
    }

    @Test("the listing order holds every property once")
    func listingOrderIsComplete() {
        #expect(ObservedProperty.listingOrder.count == ObservedProperty.allCases.count)
        #expect(Set(ObservedProperty.listingOrder) == Set(ObservedProperty.allCases))
    }
}

@Suite("A header written on one line")
struct HeaderLineTests {
    @Test("the name is before the first colon and the value after it, both trimmed")
    func splitsAtTheFirstColon() throws {
        let line = try HeaderLine(parsing: "  X-Time :  12:30:00  ")
        #expect(line == (try HeaderLine(parsing: "X-Time: 12:30:00")))
        #expect((line.name, line.value, line.separator) == ("X-Time", "12:30:00", ":"))
        #expect(try HeaderLine(parsing: "Accept:").value == "")
    }

    @Test("a later separator is used only when the first is absent, as curl's -H reads ';'")
    func separatorsInOrderOfPreference() throws {
        #expect(try HeaderLine(parsing: "X-Empty;", separators: [":", ";"]).separator == ";")
        #expect(try HeaderLine(parsing: "X-A: b;c", separators: [":", ";"]).value == "b;c")
        #expect(throws: HeaderLine.Failure.invalidName("X;a")) { try HeaderLine(parsing: "X;a: b", separators: [":", ";"]) }
    }

    @Test("a line without a separator, or with a name that is not a token, is refused")
    func refusals() {
        #expect(throws: HeaderLine.Failure.noSeparator) { try HeaderLine(parsing: "Accept json") }
        #expect(throws: HeaderLine.Failure.invalidName("Bad Name")) { try HeaderLine(parsing: "Bad Name: x") }
        #expect(throws: HeaderLine.Failure.invalidName("")) { try HeaderLine(parsing: ": x") }
    }
}
