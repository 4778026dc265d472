import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
@testable import TincanSessions

/// A session's `proxy:`, `noproxy:` and `tls:` defaults: read and written back, resolved into
/// each request's task options, and used by a replay against a real proxy and a server that
/// requires a client certificate.
@Suite("Proxies and client certificates in sessions")
struct SessionConnectionTests {
    static let yaml = """
        defaults:
          proxy: http://ann:s3cret@127.0.0.1:3128
          noproxy: localhost,.internal
          tls:
            cert: certs/client.pem
            key: certs/client.key
        requests:
          - method: GET
            url: http://127.0.0.1:9/get

        """

    @Test("proxy:, noproxy: and tls: are read and written back to the same bytes")
    func roundTrip() throws {
        let session = try Session.parse(Self.yaml, path: "s.yaml")
        #expect(session.defaults.proxy == "http://ann:s3cret@127.0.0.1:3128")
        #expect(session.defaults.noProxy == "localhost,.internal")
        #expect(session.defaults.tls == ClientCertificateSettings(certificate: "certs/client.pem", key: "certs/client.key"))
        #expect(session.yamlText() == Self.yaml)
    }

    @Test("A proxy URL that cannot be used, and a key without a cert, are refused at their line")
    func refusedAtTheirLine() {
        #expect {
            try Session.parse("defaults:\n  proxy: ftp://p\nrequests: []\n", path: "s.yaml")
        } throws: { error in
            "\(error)".hasPrefix("s.yaml:2:10: 'ftp://p' has the unknown proxy scheme 'ftp'")
        }
        #expect {
            try Session.parse("defaults:\n  tls:\n    key: k.pem\nrequests: []\n", path: "s.yaml")
        } throws: { error in
            "\(error)".contains("tls: has a key but no cert")
        }
        #expect {
            try Session.parse("defaults:\n  tls:\n    pass: x\nrequests: []\n", path: "s.yaml")
        } throws: { error in
            "\(error)".contains("pass")
        }
    }

    @Test("The session's proxy goes into the task options; without one, the proxy variables decide")
    func resolvedIntoOptions() throws {
        var session = try Session.parse("defaults:\n  proxy: 127.0.0.1:3128\n  noproxy: example.com\nrequests:\n  - url: http://127.0.0.1:9/get\n", path: "s.yaml")
        let resolved = try session.resolve(0, template: Template(variables: [:]), directory: "/tmp", proxyEnvironment: ProxyEnvironment(["http_proxy": "127.0.0.1:1"]))
        #expect(resolved.options.proxy.choice == ProxySettings.Choice.server(ProxyServer(kind: .http, host: "127.0.0.1", port: 3128)))
        #expect(resolved.options.proxy.noProxy == NoProxyList("example.com"))
        session.defaults.proxy = nil
        session.defaults.noProxy = nil
        let fromEnvironment = try session.resolve(0, template: Template(variables: [:]), directory: "/tmp", proxyEnvironment: ProxyEnvironment(["http_proxy": "127.0.0.1:1"]))
        #expect(try fromEnvironment.options.proxy.route(to: URLReference(parsing: "http://h/")).because == .variable("http_proxy"))
    }

    @Test("tls: paths are read from the session file's folder; a missing file fails the request naming it")
    func clientCertificatePaths() throws {
        let folder = try TemporaryDirectory()
        let authority = try TestCertificate.authority()
        let client = try TestCertificate.issued(by: authority, commonName: "client")
        try FileManager.default.createDirectory(atPath: folder.path + "/certs", withIntermediateDirectories: true)
        try folder.write("certs/client.pem", Array(client.certificatePEM.utf8))
        try folder.write("certs/client.key", Array(client.privateKeyPEM.utf8))
        let session = try Session.parse(Self.yaml, path: "s.yaml")
        let resolved = try session.resolve(0, template: Template(variables: [:]), directory: folder.path)
        #expect(resolved.options.clientIdentity?.certificatePath == folder.path + "/certs/client.pem")
        #expect {
            try session.resolve(0, template: Template(variables: [:]), directory: "/nonexistent", file: "s.yaml")
        } throws: { error in
            "\(error)".contains("tls: the client certificate file /nonexistent/certs/client.pem does not exist")
        }
    }

    @Test("A replay goes through the session's proxy and presents its client certificate to a server that requires one")
    func replayThroughProxyWithCertificate() async throws {
        let folder = try TemporaryDirectory()
        let authority = try TestCertificate.authority()
        let server = try TestCertificate.issued(by: authority)
        let client = try TestCertificate.issued(by: authority, commonName: "client")
        try folder.write("ca.pem", Array(authority.certificatePEM.utf8))
        try folder.write("client.pem", Array(client.certificatePEM.utf8))
        try folder.write("client.key", Array(client.privateKeyPEM.utf8))
        try await withDemoServer(tls: try server.serverConfiguration(requiringClientsOf: authority)) { demo in
            try await Tinyproxy.with { proxy in
                let session = try Session.parse("""
                    defaults:
                      security:
                        ca-file: ca.pem
                      proxy: \(proxy.url)
                      tls:
                        cert: client.pem
                        key: client.key
                    requests:
                      - url: "{{server}}/get"
                        assert:
                          status: 200
                    """, path: "s.yaml")
                let (report, _) = try await replay(session, path: folder.path + "/s.tincan.yaml", on: demo)
                #expect(report.passed, "\(report.outcomes.map(\.state))")
                #expect(proxy.log.contains("CONNECT 127.0.0.1:\(demo.port)"), "\(proxy.log)")
            }
        }
    }
}
