import Testing
import TerminalUI
import TincanCore
import TincanSessions
@testable import TincanTUI

@Suite("The properties panel's rows")
struct PropertyRowTests {
    @Test("the observed properties come first, in the core's listing order, under their AFNetworking names")
    func observedRowsFollowTheCore() {
        let observed = PropertyRow.allCases.prefix { $0.property != nil }
        #expect(observed.compactMap(\.property) == ObservedProperty.listingOrder)
        #expect(observed.map(\.label) == ObservedProperty.listingOrder.map(\.afNetworkingName))
        #expect(observed.map(\.label).first == "timeoutInterval", "the text shown is unchanged")
        #expect(PropertyRow.allCases.dropFirst(observed.count).allSatisfy { $0.property == nil })
    }
}

@Suite("The Props tab's connection rows")
struct ConnectionRowTests {
    /// Opens the Props row `row` of the welcome request and answers its prompt with `text`.
    private func answer(_ row: PropertyRow, _ text: String, in state: inout AppState) throws {
        let downs = try #require(PropertyRow.allCases.firstIndex(of: row))
        state.setFocus(.properties)
        state.propertyList.select(0, count: PropertyRow.allCases.count)
        Fixtures.press(Array(repeating: .key(KeyEvent(.down)), count: downs) + [.key(KeyEvent(.enter)), .key(.ctrl("u"))]
                       + Fixtures.typing(text) + [.key(KeyEvent(.enter))], into: &state)
    }

    @Test("a proxy typed in the Props tab becomes the session's proxy: and goes with the send, its password hidden in the row")
    func proxyRowSetsTheSessionsProxy() throws {
        var state = Fixtures.welcome()
        try answer(.proxy, "http://ann:s3cret@127.0.0.1:3128", in: &state)
        #expect(state.modal == nil)
        #expect(state.editedSession.defaults.proxy == "http://ann:s3cret@127.0.0.1:3128")
        #expect(PropertyRow.proxy.value(in: state) == "http://ann:***@127.0.0.1:3128")
        #expect(PropertyRow.proxy.isChanged(in: state))
        guard case let .send(_, _, plan)? = state.perform(.send).first else {
            Issue.record("send did not send")
            return
        }
        #expect(plan.options.proxy.choice == ProxySettings.Choice.server(ProxyServer(kind: .http, host: "127.0.0.1", port: 3128, credential: Credential(user: "ann", password: "s3cret"))))
    }

    @Test("'-' turns proxies off, empty goes back to the environment, and x resets")
    func proxyRowOffAndReset() throws {
        var state = Fixtures.welcome()
        try answer(.proxy, "-", in: &state)
        #expect(state.editedSession.defaults.proxy == "")
        #expect(PropertyRow.proxy.value(in: state) == "none")
        try answer(.proxy, "", in: &state)
        #expect(state.editedSession.defaults.proxy == nil)
        #expect(PropertyRow.proxy.value(in: state) == "from environment")
        try answer(.noProxy, "localhost", in: &state)
        #expect(state.editedSession.defaults.noProxy == "localhost")
        Fixtures.press([.key(.char("x"))], into: &state)
        #expect(state.editedSession.defaults.noProxy == nil)
    }

    @Test("a proxy URL that cannot be used is refused in the prompt, which stays open with the reason")
    func badProxyIsRefused() throws {
        var state = Fixtures.welcome()
        try answer(.proxy, "ftp://p", in: &state)
        guard case let .prompt(prompt)? = state.modal else {
            Issue.record("the proxy prompt closed")
            return
        }
        #expect(prompt.error?.contains("unknown proxy scheme 'ftp'") == true)
        #expect(state.editedSession.defaults.proxy == nil)
    }

    @Test("the client certificate rows set the session's tls: block; a key needs a cert first")
    func clientCertificateRows() throws {
        var state = Fixtures.welcome()
        try answer(.clientKey, "client.key", in: &state)
        guard case let .prompt(prompt)? = state.modal else {
            Issue.record("the key prompt closed")
            return
        }
        #expect(prompt.error == "set the client certificate first")
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        try answer(.clientCertificate, "client.pem", in: &state)
        try answer(.clientKey, "client.key", in: &state)
        #expect(state.editedSession.defaults.tls == ClientCertificateSettings(certificate: "client.pem", key: "client.key"))
        #expect(PropertyRow.clientKey.value(in: state) == "client.key")
        // The files do not exist: the preview says so, naming the file.
        guard case .error(let message) = state.preview else {
            Issue.record("the preview built without the certificate")
            return
        }
        #expect(message.contains("tls: the client certificate file"), "\(message)")
    }
}
