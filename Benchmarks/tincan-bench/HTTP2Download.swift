import Foundation
import TincanDemoServer

/// A 1 GiB download over HTTP/2 (TLS, ALPN) from the in-process demo server: `tincan send --http2`
/// against `curl --http2`, alternating runs. Both must say they spoke HTTP/2 and write the same bytes.
func benchmarkHTTP2Download() async throws {
    let size = 1 << 30
    let rounds = 3
    let directory = try makeScratchDirectory("http2")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // A certificate for 127.0.0.1 that both clients are told to trust.
    let certificate = directory + "/server.pem"
    let key = directory + "/server.key"
    _ = try await measure(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                     "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate],
                    standardOutput: directory + "/openssl.log", limit: .seconds(30))
    try require(fileSize(certificate) > 0, "openssl wrote no certificate")
    let server = try await DemoServer.start(tls: try DemoServer.tlsConfiguration(certificate: certificate, key: key))
    defer { Task { await server.stop() } }

    let url = "\(server.baseURL)/bytes/\(size)"
    let curlFile = directory + "/curl.bin"
    let tincanFile = directory + "/tincan.bin"
    let output = directory + "/output"
    var curl: [ProcessCost] = []
    var tincan: [ProcessCost] = []
    for _ in 0..<rounds {
        settle(removing: [curlFile, tincanFile])
        curl.append(try await measure(["curl", "-s", "-f", "--http2", "--cacert", certificate, "-w", "%{http_version}", "-o", curlFile, url], standardOutput: output, limit: .seconds(180)))
        let curlVersion = try String(contentsOfFile: output, encoding: .utf8)
        try require(curlVersion == "2", "curl spoke HTTP/\(curlVersion), not HTTP/2")
        settle(removing: [curlFile, tincanFile])
        tincan.append(try await measure([tincanBinary, "send", "--http2", "--ca-file", certificate, "--download", tincanFile, "GET", url], standardOutput: output, limit: .seconds(180)))
        let tincanOutput = try String(contentsOfFile: output, encoding: .utf8)
        try require(tincanOutput.contains("HTTP/2 200"), "tincan did not get HTTP/2 200: \(tincanOutput.prefix(80))")
    }
    _ = try await measure(["curl", "-s", "-f", "--http2", "--cacert", certificate, "-o", curlFile, url], limit: .seconds(180))
    try require(fileSize(curlFile) == size, "curl wrote \(fileSize(curlFile)) bytes of \(size)")
    try require(FileManager.default.contentsEqual(atPath: curlFile, andPath: tincanFile), "tincan's file differs from curl's")
    report("Download 1 GiB over HTTP/2 (TLS) from the demo server (median of \(rounds), peak RSS the highest)",
           rows: [("curl --http2 -o", median(curl)), ("tincan send --http2 --download", median(tincan))], bytes: size)
    print(String(format: "tincan over HTTP/2: %.2fx curl's throughput (target at least 1.0x); files identical", median(curl).seconds / median(tincan).seconds))
}
