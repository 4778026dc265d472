import Foundation
import TestSupport
import Testing
import TincanCore

/// The transport's connection settings travel with each task: one manager sends through a proxy
/// and directly, with and without a client certificate, and nothing leaks from one task into the next.
@Suite("Per-task proxies and client certificates")
struct ProxyTransportTests {
    @Test("Two tasks of one manager: the one with a proxy goes through it, the next one without goes direct")
    func proxyDoesNotLeakBetweenTasks() async throws {
        try await withDemoServer { server in
            try await Tinyproxy.with { proxy in
                let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL + "/"))
                let request = try draft("GET", "get", on: server).build()
                var proxied = TaskOptions()
                proxied.proxy = ProxySettings(choice: .server(ProxyServer(kind: .http, host: "127.0.0.1", port: proxy.port)))
                let first = try await manager.send(request, options: proxied)
                #expect(first.response?.statusCode == 200)
                let carried = proxy.log.components(separatedBy: "GET http://127.0.0.1:\(server.port)/get").count - 1
                #expect(carried == 1, "\(proxy.log)")
                let second = try await manager.send(request, options: TaskOptions())
                #expect(second.response?.statusCode == 200)
                #expect(proxy.log.components(separatedBy: "GET http://127.0.0.1:\(server.port)/get").count - 1 == carried)
                try await manager.invalidate(cancelingTasks: true)
            }
        }
    }

    @Test("A redirect to a host on the no-proxy list leaves the proxy for that hop")
    func redirectHopIsRoutedByItsOwnHost() async throws {
        try await withDemoServer { server in
            try await Tinyproxy.with { proxy in
                let manager = URLSessionManager(http: try HTTPSessionManager(baseURL: nil))
                // 127.0.0.1 goes through the proxy; the redirect to localhost does not.
                let target = "http://localhost:\(server.port)/get"
                let request = try RequestDraft(method: "GET", url: "\(server.baseURL)/redirect-to?url=\(target)").build()
                var options = TaskOptions()
                options.proxy = ProxySettings(choice: .server(ProxyServer(kind: .http, host: "127.0.0.1", port: proxy.port)), noProxy: NoProxyList("localhost"))
                let result = try await manager.send(request, options: options)
                #expect(result.response?.statusCode == 200, "\(String(describing: result.transportError))")
                #expect(result.redirects.count == 1)
                #expect(proxy.carried(toPort: server.port), "\(proxy.log)")
                #expect(!proxy.log.contains("GET http://localhost:\(server.port)"), "\(proxy.log)")
                try await manager.invalidate(cancelingTasks: true)
            }
        }
    }

    @Test("A client certificate is presented only by the task that carries it")
    func clientIdentityIsPerTask() async throws {
        let directory = try TemporaryDirectory()
        let authority = try TestCertificate.authority()
        let server = try TestCertificate.issued(by: authority)
        let client = try TestCertificate.issued(by: authority, commonName: "client")
        let caFile = try directory.write("ca.pem", Array(authority.certificatePEM.utf8))
        let certFile = try directory.write("client.pem", Array(client.certificatePEM.utf8))
        let keyFile = try directory.write("client.key", Array(client.privateKeyPEM.utf8))
        try await withDemoServer(tls: try server.serverConfiguration(requiringClientsOf: authority)) { demo in
            var policy = SecurityPolicy.default
            policy.caFile = caFile
            let manager = try URLSessionManager(http: try HTTPSessionManager(baseURL: demo.baseURL + "/"), securityPolicy: policy)
            let request = try draft("GET", "get", on: demo).build()
            var withCertificate = TaskOptions()
            withCertificate.clientIdentity = try ClientIdentity.load(certificate: certFile, key: keyFile, passphrase: nil)
            let accepted = try await manager.send(request, options: withCertificate)
            #expect(accepted.response?.statusCode == 200, "\(String(describing: accepted.transportError))")
            let refused = try await manager.send(request, options: TaskOptions())
            #expect(refused.response == nil)
            #expect(refused.transportError?.description.contains("the server wants a client certificate") == true, "\(String(describing: refused.transportError))")
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("The Explain view's Connection step names the client certificate and the route")
    func explanationNamesTheIdentity() throws {
        let directory = try TemporaryDirectory()
        let client = try TestCertificate.selfSigned(commonName: "client")
        let certFile = try directory.write("client.pem", Array(client.certificatePEM.utf8))
        let keyFile = try directory.write("client.key", Array(client.privateKeyPEM.utf8))
        var options = TaskOptions()
        options.clientIdentity = try ClientIdentity.load(certificate: certFile, key: keyFile, passphrase: nil)
        options.proxy = ProxySettings(environment: ProxyEnvironment(["HTTPS_PROXY": "127.0.0.1:8888"]))
        let step = Explanation.connection(to: URLReference(parsing: "https://example.com/"), options: options)
        #expect(step.lines.map(\.text) == [
            "Via proxy 127.0.0.1:8888 because HTTPS_PROXY is set.",
            "The proxy opens a CONNECT tunnel to `example.com:443`; TLS runs inside it, end to end, so it sees only the tunnel.",
            "Version: HTTP/2 if the server offers it in the TLS handshake, else HTTP/1.1.",
            "Client certificate `\(certFile) (key \(keyFile))` is presented when the server asks for one (mutual TLS).",
        ])
    }
}
