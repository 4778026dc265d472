import Foundation

/// The hosts that are reached directly even when a proxy is set: a `NO_PROXY` value or a
/// `--noproxy` list, matched by curl's rule (lib/noproxy.c, curl 7.86 and later).
///
/// - The whole value `*` matches every host.
/// - Entries are separated by commas and blanks.
/// - A name matches the host itself or any host below it: `example.com` matches `example.com`
///   and `www.example.com`, not `notexample.com`. A leading dot is ignored (`.example.com` is
///   `example.com`), and so are trailing dots, on both sides. Case is ignored.
/// - For a host that is an IP address, an entry is an address, optionally with CIDR bits
///   (`192.168.0.0/16`, `::1`, `fe80::/10`); IPv6 entries are written without brackets.
/// - The target's port plays no part (`example.com` matches `example.com:8080`), and an entry
///   with a port (`example.com:8080`) matches nothing, as in curl.
public struct NoProxyList: Sendable, Hashable, CustomStringConvertible {
    /// The list as written.
    public var text: String

    /// Creates a list from its text.
    public init(_ text: String) {
        self.text = text
    }

    public var description: String { text }

    /// Whether the list is empty: `--noproxy ''` enables the proxy for every host.
    public var isEmpty: Bool { entries.isEmpty && text.trimmingWhitespace() != "*" }

    /// The entries, in order.
    public var entries: [String] {
        text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// The entry that matches `host` (`*` for the wildcard), or nil.
    public func match(host: String) -> String? {
        if text == "*" { return "*" }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard !bare.isEmpty else { return nil }
        if let address = IPAddress(bare) {
            return entries.first { entry in address.matches(entry) }
        }
        let name = Self.trimmingTrailingDot(bare).lowercased()
        return entries.first { entry in
            var token = Substring(Self.trimmingTrailingDot(entry))
            if token.hasPrefix(".") { token = token.dropFirst() }
            let pattern = token.lowercased()
            guard !pattern.isEmpty, pattern.count <= name.count else { return false }
            return name == pattern || name.hasSuffix("." + pattern)
        }
    }

    private static func trimmingTrailingDot<S: StringProtocol>(_ text: S) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : String(text)
    }
}

/// An IPv4 or IPv6 address as bytes, for CIDR matching and for `tincan serve --host`.
public struct IPAddress: Equatable, Sendable {
    /// 4 bytes, or 16.
    public var bytes: [UInt8]

    /// Reads an address in its text form (`127.0.0.1`, `::1`), or nil.
    public init?(_ text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    /// Whether it is a loopback address: 127.0.0.0/8, `::1`, or 127.0.0.0/8 mapped into IPv6.
    public var isLoopback: Bool {
        if bytes.count == 4 { return bytes[0] == 127 }
        if bytes.dropLast().allSatisfy({ $0 == 0 }), bytes.last == 1 { return true }
        return bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }

    /// Whether `entry` (an address with optional `/bits`) covers this address; 0 bits or none
    /// compare the whole address, as curl does.
    func matches(_ entry: String) -> Bool {
        let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let network = IPAddress(String(parts[0])), network.bytes.count == bytes.count else { return false }
        var bits = bytes.count * 8
        if parts.count == 2 {
            guard let given = Int(parts[1]), given >= 0, given <= bytes.count * 8 else { return false }
            if given > 0 { bits = given }
        }
        for index in 0..<bytes.count {
            let remaining = bits - index * 8
            if remaining <= 0 { break }
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if bytes[index] & mask != network.bytes[index] & mask { return false }
        }
        return true
    }
}
