import Foundation
import OrderedCollections
import TincanCore

/// Reads a curl command's words into a saved request: one pass over the options, then
/// ``finish()`` applies curl's defaults.
struct CurlCommandReader {
    /// A piece of data from `-d`, `--data-*` or `--json`, in the order given.
    enum DataPiece {
        case bytes([UInt8])
        /// `@file`: `binary` keeps its bytes (`--data-binary`, `--json`), else curl strips its line breaks.
        case file(String, binary: Bool)
    }

    enum FormPart {
        case field(name: String, value: String)
        case file(name: String, path: String, type: String?)
    }

    let workingDirectory: String
    var request = SavedRequest(url: "")
    var method: String?
    var url: String?
    var headers: [HeaderSetting] = []
    /// Data pieces; `separated` is false for `--json`, which curl appends without an `&`.
    var data: [(piece: DataPiece, separated: Bool)] = []
    var formParts: [FormPart] = []
    var json = false
    var get = false
    var head = false
    var location = false
    var compressed = false
    var maximumRedirects: String?
    var upload: String?
    var rate: String?
    var speedLimit: String?
    var connectTimeout: String?
    var retryLimit: Int?
    var retryDelay: Double?
    var warnings: [String] = []

    init(workingDirectory: String) {
        self.workingDirectory = workingDirectory
    }

    // MARK: - Options

    mutating func read(_ words: [[UInt8]]) throws(InterchangeError) {
        var index = 0
        while index < words.count {
            let word = String(decoding: words[index], as: UTF8.self)
            index += 1
            /// The option's value: attached (`-XPOST`, `--data=x`) or the next word, as bytes.
            func value(_ option: String, attached: [UInt8]?) throws(InterchangeError) -> [UInt8] {
                if let attached { return attached }
                guard index < words.count else { throw InterchangeError(.missingValue(option: option)) }
                index += 1
                return words[index - 1]
            }
            if word.hasPrefix("--") {
                var spelling = word
                var attached: [UInt8]?
                if let equals = word.firstIndex(of: "="), CurlOption(long: String(word[..<equals]))?.takesValue == true {
                    spelling = String(word[..<equals])
                    attached = Array(words[index - 1].dropFirst(spelling.utf8.count + 1))
                }
                guard let option = CurlOption(long: spelling) else { throw unsupported(spelling) }
                try apply(option, value: option.takesValue ? value(spelling, attached: attached) : nil)
            } else if word.hasPrefix("-"), word.count > 1 {
                // A cluster of short options (-sSL); a letter that takes a value takes the rest of
                // the word, or the next word (-XPOST, -X POST).
                var letters = words[index - 1].dropFirst()
                while let byte = letters.popFirst() {
                    let letter = Character(Unicode.Scalar(byte))
                    guard let option = CurlOption.shortNames[letter] else { throw unsupported(word.count == 2 ? word : "-\(letter)") }
                    if option.takesValue {
                        try apply(option, value: value("-\(letter)", attached: letters.isEmpty ? nil : Array(letters)))
                        break
                    }
                    try apply(option, value: nil)
                }
            } else {
                guard url == nil else { throw InterchangeError(.twoURLs(url!, word)) }
                url = word
            }
        }
    }

    func unsupported(_ option: String) -> InterchangeError {
        InterchangeError(.unsupportedOption(option))
    }

    /// One option; `bytes` is its value when it takes one.
    mutating func apply(_ option: CurlOption, value bytes: [UInt8]?) throws(InterchangeError) {
        let text = bytes.map { String(decoding: $0, as: UTF8.self) } ?? ""
        switch option {
        case .request: method = text
        case .header:
            let header = try Self.header(text)
            if header.value?.isEmpty == true { warnings.append(CurlCommand.emptyHeaderWarning(header.name)) }
            headers.append(header)
        case .data, .dataASCII, .dataBinary, .dataRaw, .json:
            let content = bytes ?? []
            if option == .json { json = true }
            if option != .dataRaw, content.first == UInt8(ascii: "@") {
                let path = String(decoding: content.dropFirst(), as: UTF8.self)
                guard path != "-" else { throw InterchangeError(.dataFromStandardInput(option: option.spelling)) }
                data.append((.file(path, binary: option == .dataBinary || option == .json), option != .json))
            } else {
                data.append((.bytes(content), option != .json))
            }
        case .dataURLEncode:
            let encoded = CurlData.urlencoded(bytes ?? []) { path in readFile(path) }
            if let unreadable = encoded.unreadable {
                warnings.append(isInside(unreadable)
                    ? "--data-urlencode: \(unreadable) cannot be read, so nothing is sent for it (as curl does)"
                    : "--data-urlencode: \(unreadable) is outside the current folder, and an import reads no file there without your consent, so nothing is sent for it; copy it here, or give its text")
            }
            data.append((.bytes(encoded.bytes), true))
        case .form, .formString:
            if let part = try formPart(text, option: option) { formParts.append(part) }
        case .user:
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            request.auth = SavedAuth(scheme: request.auth?.scheme ?? .basic, user: String(parts[0]), password: parts.count > 1 ? String(parts[1]) : "")
        case .digest:
            request.auth = SavedAuth(scheme: .digest, user: request.auth?.user ?? "", password: request.auth?.password ?? "")
        case .url:
            guard url == nil else { throw InterchangeError(.twoURLs(url!, text)) }
            url = text
        // curl leaves out a User-Agent or Referer given empty.
        case .userAgent: headers.append(HeaderSetting(name: "User-Agent", value: text.isEmpty ? nil : text))
        case .referer: headers.append(HeaderSetting(name: "Referer", value: text.isEmpty ? nil : text))
        case .cookie:
            guard text.contains("=") else { throw InterchangeError(.cookieFile(text)) }
            headers.append(HeaderSetting(name: "Cookie", value: text))
        case .uploadFile:
            guard text != "-", text != "." else { throw InterchangeError(.uploadFromStandardInput(text)) }
            upload = text
        case .maxTime:
            // The whole transfer's deadline, as a request's max-time: says.
            do {
                request.maxTime = try NumericRange.deadline.named("-m").value(parsing: text)
            } catch {
                throw InterchangeError(.invalidNumber(error))
            }
        case .speedTime: request.properties.timeoutInterval = try timeout(text, option: "--speed-time")
        case .speedLimit: speedLimit = text
        case .connectTimeout: connectTimeout = text
        case .output: request.download = text
        case .cacert:
            warnings.append("--cacert \(text): trusted CA files are session-wide in Tincan; add ca-file: \(text) under defaults: security: in the session")
        case .insecure:
            warnings.append("-k: certificate checks are session-wide in Tincan; add insecure: true under defaults: security: in the session")
        // Connection settings are session-wide in Tincan, as the trust settings are.
        case .proxy:
            let shown = (try? ProxyServer(parsing: text).description) ?? ProxyError(text, .noHost).redactedText
            warnings.append("-x \(shown): proxies are session-wide in Tincan; add proxy: \(shown) under defaults: in the session (tincan send --proxy)")
        case .noproxy:
            warnings.append("--noproxy \(text): proxies are session-wide in Tincan; add noproxy: \(text) under defaults: in the session")
        case .cert:
            warnings.append("-E \(text): client certificates are session-wide in Tincan; add cert: \(text) under defaults: tls: in the session (tincan send --cert)")
        case .key:
            warnings.append("--key \(text): client certificates are session-wide in Tincan; add key: \(text) under defaults: tls: in the session (tincan send --key)")
        case .limitRate: rate = text
        case .head: head = true
        case .get: get = true
        case .location: location = true
        case .maxRedirs: maximumRedirects = text
        case .compressed: compressed = true
        case .http2: request.httpVersion = .http2
        case .http11: request.httpVersion = .http1_1
        case .http10:
            warnings.append("\(option.spelling): not kept; Tincan speaks HTTP/1.1 or HTTP/2")
        case .trEncoding:
            warnings.append("\(option.spelling): not kept; Tincan asks for no transfer encoding")
        case .retry, .retryDelay, .retryMaxTime: try readRetry(option, text)
        // --basic is the default; the rest only change curl's output.
        case .basic, .silent, .showError, .verbose, .include, .fail, .failWithBody, .progressBar, .noBuffer, .globoff,
             .disable, .noProgressMeter, .writeOut, .dumpHeader, .cookieJar, .stderr, .trace, .traceASCII:
            break
        }
    }

    static func header(_ text: String) throws(InterchangeError) -> HeaderSetting {
        let line: HeaderLine
        do throws(HeaderLine.Failure) {
            line = try HeaderLine(parsing: text, separators: [":", ";"])
        } catch {
            switch error {
            case .noSeparator: throw InterchangeError(.notAHeader(text))
            case .invalidName(let name): throw InterchangeError(.invalidHeaderName(name), at: "-H '\(text)'")
            }
        }
        // curl: 'Name:' removes a header curl would send, 'Name;' sends it empty.
        return HeaderSetting(name: line.name, value: line.separator == ":" && line.value.isEmpty ? nil : line.value)
    }

    /// `-F name=value`, `name=@file;type=…`, `name=<file` (the file's text as the value); nil
    /// for a `<file` outside the current folder, which is not read.
    mutating func formPart(_ text: String, option: CurlOption) throws(InterchangeError) -> FormPart? {
        guard let equals = text.firstIndex(of: "=") else { throw InterchangeError(.notAFormField(option: option == .form ? "-F" : option.spelling, text: text)) }
        let name = String(text[..<equals])
        let content = String(text[text.index(after: equals)...])
        guard option == .form, let sigil = content.first, sigil == "@" || sigil == "<" else { return .field(name: name, value: content) }
        var path = String(content.dropFirst())
        var attributes: [(String, String)] = []
        if path.hasPrefix("\""), let close = path.dropFirst().firstIndex(of: "\"") {
            let rest = path[path.index(after: close)...]
            path = String(path[path.index(after: path.startIndex)..<close])
            attributes = Self.attributes(rest)
        } else if let semicolon = path.firstIndex(of: ";") {
            attributes = Self.attributes(path[semicolon...])
            path = String(path[..<semicolon])
        }
        var type: String?
        for (key, value) in attributes {
            if key == "type" {
                type = value
            } else if key == "filename", value == (path as NSString).lastPathComponent {
                continue
            } else {
                warnings.append("-F '\(name)=…;\(key)=\(value)': not kept; Tincan sends a file part with its own name and type only")
            }
        }
        guard sigil == "<" else { return .file(name: name, path: path, type: type) }
        // The file's contents as a plain field: read now, as curl reads them when it runs.
        guard isInside(path) else {
            warnings.append("-F '\(name)=<\(path)': the file is outside the current folder, and an import reads no file there without your consent, so the field is left out; copy the file here, or give its text with -F '\(name)=TEXT'")
            return nil
        }
        guard let bytes = readFile(path), let value = String(validating: bytes, as: UTF8.self) else {
            throw InterchangeError(.formFieldFileUnreadable(name: name, path: path))
        }
        if type != nil { warnings.append("-F '\(name)=<\(path);type=…': a field's type is not kept") }
        warnings.append("-F '\(name)=<\(path)': the file's text was read now and saved as the field's value; later changes to the file are not sent")
        return .field(name: name, value: value)
    }

    /// `;key=value` pairs after a form file.
    static func attributes(_ text: Substring) -> [(String, String)] {
        text.split(separator: ";").compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            return (pair[..<equals].trimmingWhitespace(), pair[pair.index(after: equals)...].trimmingScalars { $0 == " " || $0 == "\"" })
        }
    }

    func timeout(_ text: String, option: String) throws(InterchangeError) -> Double {
        do {
            return try NumericRange.timeout.named(option).value(parsing: text)
        } catch {
            throw InterchangeError(.invalidNumber(error))
        }
    }

    /// The most bytes of a file read into an imported body; a larger one stays a file.
    static let fileReadLimit = 16 << 20

    /// Whether a file curl would read is inside the current folder (``ImportedPaths``): only
    /// those are read while importing; the others become placeholders or are left out, named.
    func isInside(_ path: String) -> Bool {
        ImportedPaths.isInside(path, folder: workingDirectory)
    }

    /// A file's bytes, or nil when it is outside the current folder, or not a regular file of
    /// at most ``fileReadLimit`` bytes that can be read: a device or a FIFO (`-d @/dev/zero`)
    /// would never end.
    func readFile(_ path: String) -> [UInt8]? {
        guard isInside(path) else { return nil }
        let full = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
        var info = stat()
        guard stat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try? BoundedFile.read(full, limit: Self.fileReadLimit)
    }

    // MARK: - curl's defaults

    /// Applies what curl does with the options read, and returns the request.
    mutating func finish() throws(InterchangeError) -> CurlCommand.Imported {
        guard let url else { throw InterchangeError(.noURL) }
        request.url = url.contains("://") ? url : "http://" + url
        let hasData = !data.isEmpty
        if json {
            if !headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") }) { headers.append(HeaderSetting(name: "Content-Type", value: "application/json")) }
            if !headers.contains(where: { HTTPHeaders.same($0.name, "Accept") }) { headers.append(HeaderSetting(name: "Accept", value: "application/json")) }
        }
        if get, hasData {
            request.url = CurlData.urlWithQuery(request.url, try joinedData())
        } else if hasData {
            try applyBody()
            if !headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") }) {
                headers.append(HeaderSetting(name: "Content-Type", value: "application/x-www-form-urlencoded"))
            }
        }
        let sendsData = hasData && !get
        if !formParts.isEmpty {
            guard !sendsData else { throw InterchangeError(.formWithData) }
            try applyForm()
        }
        if let upload {
            guard !sendsData, formParts.isEmpty else { throw InterchangeError(.uploadWithBody) }
            request.url = CurlData.uploadURL(request.url, file: upload)
            request.upload = SavedUpload(file: upload, rate: try rate.map(Self.uploadRate))
            // curl sends an upload with no Content-Type; Tincan would name one from the extension.
            if !headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") }) { headers.append(HeaderSetting(name: "Content-Type", value: nil)) }
            warnings.append("-T: curl sends Expect: 100-continue and waits for the server's 100 before the file; Tincan sends the file at once, without that header")
        } else if let rate {
            warnings.append("--limit-rate \(rate): not kept; Tincan limits the rate of uploads (-T) only")
        }
        request.method = method ?? (head ? "HEAD" : upload != nil ? "PUT" : sendsData || !formParts.isEmpty ? "POST" : "GET")
        guard HTTPMethod.isValid(request.method) else { throw InterchangeError(.invalidMethod(request.method)) }
        if !sendsData, formParts.isEmpty, upload == nil { noteBodilessRequest() }
        removeTincanDefaults()
        try noteRedirectsAndTimeouts()
        finishRetry()
        request.headers = headers
        return CurlCommand.Imported(request: request, warnings: warnings)
    }

    /// The data as one body: the sole file curl sends unchanged stays a file; anything else is read now.
    mutating func applyBody() throws(InterchangeError) {
        if data.count == 1, case .file(let path, let binary) = data[0].piece {
            // curl sends it as it is: it stays a file, unread.
            if binary {
                request.body = .file(path)
                return
            }
            guard isInside(path) else {
                warnings.append("-d @\(path): the file is outside the current folder, so it is not read now; it is kept as a file body, and curl's taking the line breaks out of it is not (use --data-binary to say the file is sent as it is)")
                request.body = .file(path)
                return
            }
            guard let bytes = readFile(path) else {
                warnings.append("-d @\(path): the file cannot be read now (missing, not a regular file, or over \(RequestPreview.byteCount(Int64(Self.fileReadLimit)))), so it is kept as a file body; curl takes the line breaks out of it, Tincan will not (use --data-binary to send it as it is)")
                request.body = .file(path)
                return
            }
            if CurlData.textFromFile(bytes) == bytes {
                request.body = .file(path)
                return
            }
            warnings.append("-d @\(path): curl sends the file without its line breaks (CR, LF, and the rest of a line after a CR), which a session cannot say of a file; the body was read now as curl sends it (use --data-binary @\(path) to send the file as it is)")
        } else if data.contains(where: { if case .file = $0.piece { true } else { false } }) {
            warnings.append("data from files (@FILE) joined with other data was read now; later changes to the files are not sent")
        }
        let bytes = try joinedData()
        request.body = String(validating: bytes, as: UTF8.self).map(SavedBody.text) ?? .base64(bytes)
    }

    /// The data pieces joined as curl joins them (`&` before each, except `--json`'s).
    mutating func joinedData() throws(InterchangeError) -> [UInt8] {
        var joined: [UInt8] = []
        for (offset, item) in data.enumerated() {
            if offset > 0, item.separated { joined.append(UInt8(ascii: "&")) }
            switch item.piece {
            case .bytes(let bytes): joined += bytes
            case .file(let path, let binary):
                guard isInside(path) else {
                    warnings.append("@\(path): the file is outside the current folder, and an import reads no file there without your consent, so its data is left out of the body; copy it here")
                    continue
                }
                guard let bytes = readFile(path) else { throw InterchangeError(.joinedFileUnreadable(path: path, directory: workingDirectory)) }
                joined += binary ? bytes : CurlData.textFromFile(bytes)
            }
        }
        return joined
    }

    mutating func applyForm() throws(InterchangeError) {
        request.serializer = .multipart
        var fields: OrderedDictionary<String, ParameterValue> = [:]
        var sawFile = false
        for part in formParts {
            switch part {
            case let .file(name, path, type):
                sawFile = true
                // Without ;type= curl names the type from its own table, which Tincan's may not match.
                let curlType = CurlData.formFileType(path)
                let tincanType = MIMEType.forPathExtension((path as NSString).pathExtension)
                request.files.append(SavedFile(field: name, path: path, type: type ?? (curlType == tincanType ? nil : curlType)))
            case let .field(name, value):
                if sawFile {
                    warnings.append("-F \(name): a field after a file part is sent before the files (Tincan's form puts fields first)")
                }
                try FormFields.insert(name, value, into: &fields, source: "-F '\(name)=…'")
            }
        }
        if !fields.isEmpty { request.params = .dictionary(fields) }
    }

    /// curl's `--limit-rate` (`k`, `M`, `G` are powers of 1024) as a number of bytes.
    static func uploadRate(_ text: String) throws(InterchangeError) -> String {
        let multipliers: [Character: Double] = ["k": 1024, "K": 1024, "m": 1_048_576, "M": 1_048_576, "g": 1_073_741_824, "G": 1_073_741_824]
        var number = Substring(text)
        var multiplier = 1.0
        if let last = number.last, let value = multipliers[last] {
            multiplier = value
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value >= 1 else {
            throw InterchangeError(.invalidRate(text))
        }
        return String(Int((value * multiplier).rounded()))
    }

    /// curl sends a bodiless POST with neither Content-Type nor Content-Length.
    mutating func noteBodilessRequest() {
        let method = request.method
        if !RequestSettings().encodesParametersInURI(method), !headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") }) {
            headers.append(HeaderSetting(name: "Content-Type", value: nil))
        }
        if HTTPRequest.framesEmptyBody(method) {
            warnings.append("\(method) without a body: curl sends no Content-Length; Tincan's transport (AsyncHTTPClient) always sends Content-Length: 0 for \(method)")
        }
    }

    /// Tincan's default headers that curl does not send are removed, unless the command sets them.
    mutating func removeTincanDefaults() {
        for field in RequestSettings.defaultHeaders(environment: [:]) where !CurlCommand.curlDefaultHeaders.contains(field.name) {
            guard !headers.contains(where: { HTTPHeaders.same($0.name, field.name) }) else { continue }
            if compressed, HTTPHeaders.same(field.name, "Accept-Encoding") {
                warnings.append("--compressed: Tincan asks for \(field.value) (what it can decode); curl also asks for br and zstd")
                continue
            }
            headers.append(HeaderSetting(name: field.name, value: nil))
        }
    }

    mutating func noteRedirectsAndTimeouts() throws(InterchangeError) {
        // A request says how it follows redirects (follow-redirects:, max-redirects:), so curl's
        // choice is kept: without -L it stops at the first redirect, with -L it follows up to
        // --max-redirs (50 by default in curl).
        if !location {
            request.flow.followRedirects = false
        } else {
            let maximum: Int
            if let text = maximumRedirects, text.trimmingWhitespace() == "-1" {
                // curl's "no limit"; a session's limit is at most 1,000.
                maximum = Int(NumericRange.redirects.maximum)
                warnings.append("--max-redirs -1: curl's unlimited redirects are kept as Tincan's most, \(maximum)")
            } else if let text = maximumRedirects {
                do {
                    maximum = try NumericRange.redirects.named("--max-redirs").integer(parsing: text)
                } catch {
                    throw InterchangeError(.invalidNumber(error))
                }
            } else {
                maximum = 50  // curl's default
            }
            if maximum != RedirectPolicy.standard.limit { request.flow.maxRedirects = maximum }
            if let method, !["GET", "HEAD"].contains(method) {
                warnings.append("-X \(method) -L: after a 303 redirect curl sends \(method) again, where Tincan switches to GET")
            }
        }
        if let speedLimit, speedLimit != "1" {
            warnings.append("--speed-limit \(speedLimit): not kept; Tincan's timeout fires when no byte moves at all")
        }
        if let connectTimeout {
            let idle = request.properties.timeoutInterval.map(ParameterValue.format)
            if idle != connectTimeout {
                warnings.append("--connect-timeout \(connectTimeout): not kept; Tincan's one timeout (\(idle.map { "\($0) s" } ?? "60 s by default")) covers connecting too")
            }
        }
    }
}
