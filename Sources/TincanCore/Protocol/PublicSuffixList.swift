import Foundation
import Synchronization

/// The public suffix list (publicsuffix.org): the names under which anyone can register a name
/// of their own (`com`, `co.uk`, `github.io`), so that no cookie is set for all of them (RFC 6265
/// §5.3 step 5) and cookies are counted per registrable domain.
///
/// Tincan reads the copy the system keeps current, Debian's `publicsuffix` package
/// (``systemPath``, which `make run` installs), rather than a list of its own that would age. It
/// is read once, and only when a cookie first needs it: most runs set no cookie and never read
/// it. Both sections are used (ICANN's and the private domains'), as browsers use them for cookies.
///
/// When the file is missing or unreadable, ``isAvailable`` is false and nothing is taken for a
/// registrable domain: the cookie jar then keeps every cookie for the host that set it only (a
/// `Domain` attribute naming a parent domain makes it host-only instead of wider), which can never
/// send a cookie to another site, and counts its limits per host.
public final class PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package puts the list (Fedora's and Arch's put it there
    /// too); `TINCAN_PUBLIC_SUFFIX_LIST` names another file.
    public static let systemPath = ProcessEnvironment.values[pathVariable] ?? "/usr/share/publicsuffix/public_suffix_list.dat"

    /// The environment variable that names the list's file instead of the system's.
    public static let pathVariable = "TINCAN_PUBLIC_SUFFIX_LIST"

    /// The system's list, read on first use (a `static let` is made once, when first asked for).
    public static let system: PublicSuffixList = {
        systemRead.store(true, ordering: .relaxed)
        return PublicSuffixList(path: systemPath)
    }()

    /// Whether ``system`` has been read in this process (a cookie jar stored a cookie).
    private static let systemRead = Atomic<Bool>(false)

    /// What a command says at its end when cookies were stored without the system's list, or
    /// nil (the list was there, or no cookie needed it).
    public static var missingSystemListNote: String? {
        guard systemRead.load(ordering: .relaxed), let problem = system.problem else { return nil }
        return "the public suffix list is not available (\(problem); Debian's publicsuffix package installs it), so every cookie was kept for the host that set it only: a Domain attribute did not widen it"
    }

    /// The file read.
    public let path: String
    /// Whether the list could be read; without it no suffix is known.
    public let isAvailable: Bool
    /// Why it could not be read, or nil.
    public let problem: String?

    /// Rules that name a suffix (`com`, `co.uk`).
    private let names: Set<Substring>
    /// Wildcard rules (`*.ck`), by what follows the `*.` (`ck`).
    private let wildcards: Set<Substring>
    /// Exceptions to a wildcard (`!www.ck`), without the `!`: not suffixes.
    private let exceptions: Set<Substring>

    /// The most of a list file read (Debian's is about 230 KB): `TINCAN_PUBLIC_SUFFIX_LIST` may
    /// name any file, and a device or a huge file is refused rather than read without end.
    static let maximumFileBytes = 16 << 20

    /// Reads the list at `path` (its rules are lower case, one a line; `//` starts a comment).
    public init(path: String) {
        self.path = path
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, limit: Self.maximumFileBytes)
        } catch {
            isAvailable = false
            problem = FileManager.default.fileExists(atPath: path) ? "\(path) \(error)" : "\(path) is missing"
            names = []
            wildcards = []
            exceptions = []
            return
        }
        let rules = Self.parse(String(decoding: bytes, as: UTF8.self))
        names = rules.names
        wildcards = rules.wildcards
        exceptions = rules.exceptions
        isAvailable = !names.isEmpty
        problem = isAvailable ? nil : "\(path) holds no rule"
    }

    /// A list of the rules in `text`, for tests.
    public init(rules text: String) {
        path = "(given)"
        let rules = Self.parse(text)
        names = rules.names
        wildcards = rules.wildcards
        exceptions = rules.exceptions
        isAvailable = true
        problem = nil
    }

    /// The rules of the file's text. Each rule is a slice of the one text, so the 10,000 or so
    /// rules cost one string, not one each.
    private static func parse(_ text: String) -> (names: Set<Substring>, wildcards: Set<Substring>, exceptions: Set<Substring>) {
        var names = Set<Substring>(minimumCapacity: 10_000)
        var wildcards = Set<Substring>()
        var exceptions = Set<Substring>()
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            // A rule is the line up to its first white space.
            let rule = line.prefix { $0 != " " && $0 != "\t" && $0 != "\r" }
            if rule.isEmpty || rule.hasPrefix("//") { continue }
            if rule.hasPrefix("!") {
                exceptions.insert(rule.dropFirst())
            } else if rule.hasPrefix("*.") {
                wildcards.insert(rule.dropFirst(2))
            } else {
                names.insert(rule)
            }
        }
        return (names, wildcards, exceptions)
    }

    /// Whether `domain` (lower case, without a trailing dot) is a public suffix. Unknown
    /// top-level names count as suffixes (the list's implicit `*` rule); without the list,
    /// nothing is known and this is false.
    public func isPublicSuffix(_ domain: String) -> Bool {
        guard isAvailable, let suffix = publicSuffixStart(of: domain) else { return false }
        return suffix == domain.startIndex
    }

    /// The registrable domain of `host` (the public suffix and one label before it:
    /// `example.co.uk` for `www.example.co.uk`), or nil for a public suffix itself, an IP
    /// address, or when the list is not available.
    public func registrableDomain(_ host: String) -> String? {
        guard isAvailable, !host.isEmpty, !Self.isAddress(host), let suffix = publicSuffixStart(of: host), suffix != host.startIndex else { return nil }
        // The label before the suffix: back from the dot that ends it.
        let beforeDot = host.index(before: suffix)
        let start = host[..<beforeDot].lastIndex(of: ".").map { host.index(after: $0) } ?? host.startIndex
        return String(host[start...])
    }

    /// Whether `host` is an IP address (RFC 6265 §5.1.3's test): no domain is registrable in one.
    static func isAddress(_ host: some StringProtocol) -> Bool {
        host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
    }

    /// Where the public suffix of `domain` starts, by the list's algorithm: the longest matching
    /// rule, an exception before all, the implicit `*` when none matches.
    private func publicSuffixStart(of domain: String) -> String.Index? {
        guard !domain.isEmpty, !domain.hasSuffix(".") else { return nil }
        var labelStart = domain.startIndex
        // From the whole name down to its last label: the first (longest) match decides.
        while true {
            let candidate = domain[labelStart...]
            if exceptions.contains(candidate) {
                // The exception's own name is registrable: the suffix starts after its first label.
                return candidate.firstIndex(of: ".").map { domain.index(after: $0) }
            }
            if names.contains(candidate) { return labelStart }
            if let dot = candidate.firstIndex(of: ".") {
                let parent = domain[domain.index(after: dot)...]
                if wildcards.contains(parent) { return labelStart }
                labelStart = domain.index(after: dot)
            } else {
                // The implicit `*` rule: the last label.
                return labelStart
            }
        }
    }
}
