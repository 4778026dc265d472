/// The curl options Tincan knows, by their long names: what an import keeps, what it reports,
/// and what only changes curl's own output. Any other option is refused by name.
enum CurlOption: String, CaseIterable {
    case request, header, data, dataASCII = "data-ascii", dataBinary = "data-binary", dataRaw = "data-raw"
    case dataURLEncode = "data-urlencode", json, form, formString = "form-string"
    case user, digest, basic, url, userAgent = "user-agent", referer, cookie, uploadFile = "upload-file", output
    case maxTime = "max-time", speedTime = "speed-time", speedLimit = "speed-limit", connectTimeout = "connect-timeout"
    case cacert, insecure, limitRate = "limit-rate", head, get, location, maxRedirs = "max-redirs", compressed
    case http2, http10 = "http1.0", http11 = "http1.1", trEncoding = "tr-encoding", retry
    case retryDelay = "retry-delay", retryMaxTime = "retry-max-time"
    case proxy, noproxy, cert, key
    // Only what curl prints or keeps on disk.
    case silent, showError = "show-error", verbose, include, fail, failWithBody = "fail-with-body", progressBar = "progress-bar"
    case noBuffer = "no-buffer", globoff, disable, noProgressMeter = "no-progress-meter", writeOut = "write-out"
    case dumpHeader = "dump-header", cookieJar = "cookie-jar", stderr, trace, traceASCII = "trace-ascii"

    /// The options that shape the request (the rest only change what curl prints or saves).
    static var requestOptions: some Collection<CurlOption> { allCases.prefix { $0 != .silent } }

    /// The letters that stand for options (`-X`, `-sSL`).
    static let shortNames: [Character: CurlOption] = [
        "X": .request, "H": .header, "d": .data, "F": .form, "u": .user, "A": .userAgent, "e": .referer, "b": .cookie,
        "T": .uploadFile, "m": .maxTime, "o": .output, "y": .speedTime, "Y": .speedLimit, "w": .writeOut, "D": .dumpHeader,
        "c": .cookieJar, "s": .silent, "S": .showError, "v": .verbose, "i": .include, "L": .location, "f": .fail,
        "#": .progressBar, "N": .noBuffer, "g": .globoff, "q": .disable, "I": .head, "G": .get, "k": .insecure,
        "x": .proxy, "E": .cert,
    ]

    /// The option spelled `--name`, or nil.
    init?(long word: String) {
        guard word.hasPrefix("--") else { return nil }
        self.init(rawValue: String(word.dropFirst(2)))
    }

    /// How curl spells it.
    var spelling: String { "--" + rawValue }

    /// Whether the option takes a value (the next word, or the rest of `-XPOST`).
    var takesValue: Bool {
        switch self {
        case .request, .header, .data, .dataASCII, .dataBinary, .dataRaw, .dataURLEncode, .json, .form, .formString, .user, .url,
             .userAgent, .referer, .cookie, .uploadFile, .output, .maxTime, .speedTime, .speedLimit, .connectTimeout, .cacert,
             .limitRate, .maxRedirs, .retry, .retryDelay, .retryMaxTime, .writeOut, .dumpHeader, .cookieJar, .stderr, .trace, .traceASCII,
             .proxy, .noproxy, .cert, .key:
            true
        case .digest, .basic, .insecure, .head, .get, .location, .compressed, .http2, .http10, .http11, .trEncoding, .silent,
             .showError, .verbose, .include, .fail, .failWithBody, .progressBar, .noBuffer, .globoff, .disable, .noProgressMeter:
            false
        }
    }
}
