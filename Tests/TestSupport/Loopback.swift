#if canImport(Glibc)
import Glibc
#endif

/// Calls `body` with 127.0.0.1:`port` as a socket address and its length, as bind and connect take them.
public func withLoopbackAddress<T>(port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
    return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}

/// A TCP socket connected to 127.0.0.1:`port`, for the caller to close; nil when none could be
/// made or nothing accepts there (the socket is closed then).
public func connectToLoopback(port: Int) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    guard withLoopbackAddress(port: port, { connect(descriptor, $0, $1) }) == 0 else {
        close(descriptor)
        return nil
    }
    return descriptor
}

/// A loopback port that refuses connections for as long as this value lives: a socket bound to
/// it that never listens. Held, the port cannot be taken by another test's server, as the port
/// of a server just stopped (or one found free a moment ago) can be.
public final class RefusingPort: Sendable {
    /// The port, on 127.0.0.1.
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SpawnError(message: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withLoopbackAddress(port: 0) { bind(descriptor, $0, $1) } == 0
        let named = bound && withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        } == 0
        guard named else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SpawnError(message: "cannot hold a loopback port: \(reason)")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
