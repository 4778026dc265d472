import CZlib
import Foundation
import Synchronization

/// A server on loopback that answers each request with whatever bytes a test writes, for what the
/// demo server never does: bodies without end, compression bombs, broken framing.
///
/// Each connection gets a thread: it reads the request head, hands it and the socket to
/// `respond`, and closes the socket when `respond` returns (a write to a client that has gone
/// fails, which ends an endless response).
public final class RawHTTPServer: Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    private let stopped = StopFlag()
    private let accepted = ConnectionCount()

    /// How many connections it has accepted so far.
    public var connections: Int { accepted.value }

    /// Starts listening.
    ///
    /// - Parameter respond: Called with the request head (up to the blank line) and the socket.
    public init(respond: @escaping @Sendable (_ head: String, _ socket: Int32) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        self.listener = listener
        self.port = Int(UInt16(bigEndian: address.sin_port))
        let stopped = self.stopped
        let accepted = self.accepted
        Thread {
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 {
                    if stopped.isSet { return }
                    continue
                }
                accepted.add()
                Thread {
                    respond(Self.readHead(connection), connection)
                    close(connection)
                }.start()
            }
        }.start()
    }

    /// The base URL, such as `http://127.0.0.1:40123`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops accepting connections.
    public func stop() {
        stopped.set()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Reads a request head, up to and with its blank line; empty when the client closed first.
    public static func readHead(_ socket: Int32) -> String {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual("\r\n\r\n".utf8), recv(socket, &byte, 1, 0) == 1 { head.append(byte) }
        return String(decoding: head, as: UTF8.self)
    }

    /// Writes all of `bytes`; false once the client has gone.
    @discardableResult
    public static func write(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// A 200 whose chunked text body never ends: 64 KiB chunks until the client goes.
    public static func writeEndlessBody(_ socket: Int32) {
        write(socket, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x61, count: 0x10000) + Array("\r\n".utf8)
        while write(socket, chunk) {}
    }

    /// Writes a text, such as a response head.
    @discardableResult
    public static func write(_ socket: Int32, _ text: String) -> Bool {
        write(socket, Array(text.utf8))
    }
}

private final class ConnectionCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}

private final class StopFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// Gzip of `count` zero bytes, made in pieces so that the zeros are never all in memory: a
/// compression bomb of any size for tests.
public func gzippedZeros(count: Int) -> [UInt8] {
    var stream = z_stream()
    guard czlib_deflate_init(&stream, 9, 15 + 16) == Z_OK else { return [] }
    defer { deflateEnd(&stream) }
    let zeros = [UInt8](repeating: 0, count: 1 << 20)
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var left = count
    repeat {
        let piece = min(left, zeros.count)
        left -= piece
        zeros.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(piece)
            repeat {
                chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    deflate(&stream, left == 0 ? Z_FINISH : Z_NO_FLUSH)
                }
                output += chunk[..<(chunk.count - Int(stream.avail_out))]
            } while stream.avail_out == 0
        }
    } while left > 0
    return output
}
