import Foundation
import OrderedCollections
import TincanCore

extension Session {
    /// The session as the YAML Tincan writes: keys in a fixed order, only what is set.
    /// Reading this text back gives an equal session, and writing that gives the same bytes.
    public func yamlText() -> String {
        var pairs = KeyedPairs<SessionKey.TopLevel>()
        if let name { pairs.append((.name, .string(name))) }
        if let description { pairs.append((.description, .string(description))) }
        if let base { pairs.append((.base, .string(base))) }
        let defaults = defaults.yamlPairs()
        if !defaults.isEmpty { pairs.append((.defaults, .mapping(defaults))) }
        if !variables.isEmpty { pairs.append((.variables, YAMLValue(.dictionary(variables)))) }
        if !environments.isEmpty {
            pairs.append((.environments, .mapping(environments.map { ($0.key, YAMLValue(.dictionary($0.value))) })))
        }
        if let cookieFile { pairs.append((.cookies, .mapping([(SessionKey.Cookies.file.rawValue, .string(cookieFile))]))) }
        if let lesson { pairs.append((.lesson, .mapping(lesson.yamlPairs()))) }
        pairs.append((.requests, .sequence(requests.map { .mapping($0.yamlPairs()) })))
        return YAMLWriter.write(.mapping(pairs.pairs))
    }
}

extension RequestDefaults {
    func yamlPairs() -> [(String, YAMLValue)] {
        var pairs = KeyedPairs<SessionKey.Defaults>()
        if let serializer { pairs.append((.serializer, .string(serializer.rawValue))) }
        if !headers.isEmpty { pairs.append((.headers, headers.yaml)) }
        if !properties.changed.isEmpty { pairs.append((.properties, .mapping(properties.yamlPairs()))) }
        let response = response.yamlPairs()
        if !response.isEmpty { pairs.append((.response, .mapping(response))) }
        let security = security.yamlPairs()
        if !security.isEmpty { pairs.append((.security, .mapping(security))) }
        if let proxy { pairs.append((.proxy, .string(proxy))) }
        if let noProxy { pairs.append((.noproxy, .string(noProxy))) }
        var tlsPairs = KeyedPairs<SessionKey.TLS>()
        if let certificate = tls.certificate { tlsPairs.append((.cert, .string(certificate))) }
        if let key = tls.key { tlsPairs.append((.key, .string(key))) }
        if !tlsPairs.pairs.isEmpty { pairs.append((.tls, .mapping(tlsPairs.pairs))) }
        if let httpVersion { pairs.append((.httpVersion, httpVersion.yaml)) }
        if let retryPolicy { pairs.append((.retryPolicy, .mapping(retryPolicy.yamlPairs()))) }
        if let auth { pairs.append((.auth, .mapping(auth.yamlPairs()))) }
        return pairs.pairs
    }
}

extension SavedAuth {
    func yamlPairs() -> [(String, YAMLValue)] {
        var part = KeyedPairs<SessionKey.Auth>()
        if scheme != .basic { part.append((.type, .string(scheme.rawValue))) }
        guard let oauth2, scheme == .oauth2 else {
            part.append((.user, .string(user)))
            part.append((.password, .string(password)))
            return part.pairs
        }
        part.append((.grant, .string(oauth2.grant.rawValue)))
        part.append((.tokenURL, .string(oauth2.tokenURL)))
        if let url = oauth2.authURL { part.append((.authURL, .string(url))) }
        if let url = oauth2.deviceURL { part.append((.deviceURL, .string(url))) }
        if let uri = oauth2.redirectURI { part.append((.redirectURI, .string(uri))) }
        part.append((.clientID, .string(oauth2.clientID)))
        if let secret = oauth2.clientSecret { part.append((.clientSecret, .string(secret))) }
        if let method = oauth2.clientAuth { part.append((.clientAuth, .string(method.rawValue))) }
        if let scope = oauth2.scope { part.append((.scope, .string(scope))) }
        if let audience = oauth2.audience { part.append((.audience, .string(audience))) }
        if oauth2.grant == .password {
            part.append((.user, .string(user)))
            part.append((.password, .string(password)))
        }
        if let token = oauth2.refreshToken { part.append((.refreshToken, .string(token))) }
        if !oauth2.tokenParams.isEmpty {
            part.append((.tokenParams, .mapping(oauth2.tokenParams.map { ($0.name, YAMLValue.string($0.value)) })))
        }
        return part.pairs
    }
}

extension SavedRequest {
    func yamlPairs() -> [(String, YAMLValue)] {
        var pairs = KeyedPairs<SessionKey.Request>()
        if let name { pairs.append((.name, .string(name))) }
        if let group { pairs.append((.group, .string(group))) }
        if !variables.isEmpty { pairs.append((.variables, YAMLValue(.dictionary(variables)))) }
        pairs.append((.method, .string(method)))
        pairs.append((.url, .string(url)))
        if let serializer { pairs.append((.serializer, .string(serializer.rawValue))) }
        if !headers.isEmpty { pairs.append((.headers, headers.yaml)) }
        if !query.isEmpty { pairs.append((.query, query.yaml)) }
        if let params { pairs.append((.params, YAMLValue(params))) }
        if let body {
            switch body {
            case .text(let text): pairs.append((.body, .string(text)))
            case .base64(let bytes): pairs.append((.body, .mapping([(SessionKey.Body.base64.rawValue, .string(Data(bytes).base64EncodedString()))])))
            case .file(let path): pairs.append((.body, .mapping([(SessionKey.Body.file.rawValue, .string(path))])))
            case .graphql(let operation): pairs.append((.body, .mapping([(SessionKey.Body.graphql.rawValue, operation.yaml)])))
            }
        }
        if !files.isEmpty {
            pairs.append((.files, .sequence(files.map { file in
                var part = KeyedPairs<SessionKey.FilePart>()
                part.append((.field, .string(file.field)))
                part.append((.path, .string(file.path)))
                if let type = file.type { part.append((.type, .string(type))) }
                return .mapping(part.pairs)
            })))
        }
        if let auth { pairs.append((.auth, .mapping(auth.yamlPairs()))) }
        if let download { pairs.append((.download, .string(download))) }
        if let upload {
            if let rate = upload.rate {
                pairs.append((.upload, .mapping([(SessionKey.Upload.file.rawValue, .string(upload.file)), (SessionKey.Upload.rate.rawValue, .string(rate))])))
            } else {
                pairs.append((.upload, .string(upload.file)))
            }
        }
        if !properties.changed.isEmpty { pairs.append((.properties, .mapping(properties.yamlPairs()))) }
        let response = response.yamlPairs()
        if !response.isEmpty { pairs.append((.response, .mapping(response))) }
        if !captures.isEmpty { pairs.append((.capture, .mapping(captures.map { ($0.key, $0.value.yaml) }))) }
        if !assertions.isEmpty { pairs.append((.assert, .mapping(Assertion.yamlPairs(assertions)))) }
        if let value = flow.followRedirects { pairs.append((.followRedirects, .literal(value ? "true" : "false"))) }
        if let value = flow.maxRedirects { pairs.append((.maxRedirects, .literal(String(value)))) }
        if let value = flow.retry { pairs.append((.retry, .literal(String(value)))) }
        if let value = flow.retryInterval { pairs.append((.retryInterval, .string(Assertion.durationText(value)))) }
        if let value = flow.delay { pairs.append((.delay, .string(Assertion.durationText(value)))) }
        if let value = flow.repeatCount { pairs.append((.repeat, .literal(String(value)))) }
        if let httpVersion { pairs.append((.httpVersion, httpVersion.yaml)) }
        if let maxTime { pairs.append((.maxTime, .string(Assertion.durationText(maxTime)))) }
        if let retryPolicy { pairs.append((.retryPolicy, .mapping(retryPolicy.yamlPairs()))) }
        if let webSocket { pairs.append((.websocket, .mapping(webSocket.yamlPairs()))) }
        if let recorded { pairs.append((.recorded, .mapping(recorded.yamlPairs()))) }
        return pairs.pairs
    }
}

extension HTTPVersionPreference {
    /// `auto`, `"1.1"`, `"2"`: quoted so the numbers stay text.
    var yaml: YAMLValue { self == .automatic ? .literal(rawValue) : .string(rawValue) }
}

extension [QuerySetting] {
    /// Each name once, in the order of its first field: one value as text, a name given more
    /// than once as the list of its values (so the mapping never names a key twice); a field
    /// turned off as `{value: V, enabled: false}`.
    var yaml: YAMLValue {
        var values: OrderedDictionary<String, [YAMLValue]> = [:]
        for field in self {
            let value: YAMLValue = field.isEnabled ? .string(field.value)
                : .mapping([(SessionKey.QueryField.value.rawValue, .string(field.value)), (SessionKey.QueryField.enabled.rawValue, .literal("false"))])
            values[field.name, default: []].append(value)
        }
        return .mapping(values.map { ($0.key, $0.value.count == 1 ? $0.value[0] : .sequence($0.value)) })
    }
}

extension [HeaderSetting] {
    var yaml: YAMLValue {
        .mapping(map { header in
            let value = header.value.map(YAMLValue.string) ?? .literal("null")
            return (header.name, header.isEnabled ? value : .mapping([(SessionKey.Header.value.rawValue, value), (SessionKey.Header.enabled.rawValue, .literal("false"))]))
        })
    }
}

extension ObservedProperties {
    /// The properties set, under their ``ObservedProperty/sessionKey``s in listing order.
    func yamlPairs() -> [(String, YAMLValue)] {
        ObservedProperty.listingOrder.compactMap { property in yamlValue(of: property).map { (property.sessionKey, $0) } }
    }

    private func yamlValue(of property: ObservedProperty) -> YAMLValue? {
        switch property {
        case .timeoutInterval:
            timeoutInterval.map { YAMLValue($0 == $0.rounded() && abs($0) < 1e15 ? .integer(Int64($0)) : .double($0)) }
        case .cachePolicy: cachePolicy.map { .string($0.rawValue) }
        case .httpShouldHandleCookies: httpShouldHandleCookies.map { YAMLValue(.bool($0)) }
        case .httpShouldUsePipelining: httpShouldUsePipelining.map { YAMLValue(.bool($0)) }
        case .allowsCellularAccess: allowsCellularAccess.map { YAMLValue(.bool($0)) }
        case .networkServiceType: networkServiceType.map { .string($0.rawValue) }
        }
    }
}

extension ResponseContract {
    func yamlPairs() -> [(String, YAMLValue)] {
        var pairs = KeyedPairs<SessionKey.Response>()
        if let serializer { pairs.append((.serializer, .string(serializer.rawValue))) }
        if let acceptStatus { pairs.append((.acceptStatus, .string(acceptStatus))) }
        if let acceptTypes { pairs.append((.acceptType, .sequence(acceptTypes.map(YAMLValue.string)))) }
        if let removesNulls { pairs.append((.removeNulls, YAMLValue(.bool(removesNulls)))) }
        if let maxBody { pairs.append((.maxBody, .string(maxBody))) }
        return pairs.pairs
    }
}

extension SecuritySettings {
    func yamlPairs() -> [(String, YAMLValue)] {
        var pairs = KeyedPairs<SessionKey.Security>()
        if let caFile { pairs.append((.caFile, .string(caFile))) }
        if !pins.isEmpty {
            pairs.append((.pins, .sequence(pins.map(YAMLValue.string))))
            pairs.append((.pinMode, .string(SessionKey.PinMode(pinMode).rawValue)))
        }
        if insecure { pairs.append((.insecure, .literal("true"))) }
        if minimumTLSVersion != .standard { pairs.append((.tlsMin, .string(minimumTLSVersion.rawValue))) }
        return pairs.pairs
    }
}

extension RequestCheck {
    /// Adds the check under its key of `request:` (or `received:`).
    func add(to checks: inout GroupedPairs<SessionKey.RequestAssert>) {
        switch self {
        case .method(let predicate): checks.append(.method, predicate.yaml)
        case .url(let predicate): checks.append(.url, predicate.yaml)
        case .query(let name, let predicate): checks.add((name, predicate.yaml), to: .query)
        case .header(let name, let predicate): checks.add((name, predicate.yaml), to: .headers)
        case .body(let path, let predicate): checks.add((path.text, predicate.yaml), to: .body)
        }
    }
}

extension CaptureSource {
    var yaml: YAMLValue {
        switch self {
        case .body(let path): .string(path.text)
        case .status: .string(SessionKey.Capture.status.rawValue)
        case .header, .regex, .xpath, .response, .filtered: .mapping(yamlPairs)
        }
    }

    /// The capture as a mapping: its source, then its filters.
    private var yamlPairs: [(String, YAMLValue)] {
        switch self {
        case .body(let path): [(SessionKey.Capture.json.rawValue, .string(path.text))]
        case .header(let name): [(SessionKey.Capture.header.rawValue, .string(name))]
        case .status: [(SessionKey.Capture.status.rawValue, .literal("true"))]
        case .regex(let pattern): [(SessionKey.Capture.regex.rawValue, .string(pattern))]
        case .xpath(let expression): [(SessionKey.Capture.xpath.rawValue, .string(expression))]
        case .response(.cookie(let name)): [(SessionKey.Capture.cookie.rawValue, .string(name))]
        case .response(let value): [(value.key, .literal("true"))]
        case .filtered(let source, let filters): source.yamlPairs + [(SessionKey.Capture.filters.rawValue, ValueFilter.yaml(filters))]
        }
    }
}

extension ValueFilter {
    /// `filters:` as written: plain names, and one-key mappings for the filters that take a value.
    static func yaml(_ filters: [ValueFilter]) -> YAMLValue {
        .sequence(filters.map { filter in
            let argument: YAMLValue? = switch filter {
            case .nth(let index): .literal(String(index))
            case .split(let separator): .string(separator)
            case .regex(let pattern): .string(pattern)
            default: nil
            }
            return argument.map { .mapping([(filter.key.rawValue, $0)]) } ?? .string(filter.key.rawValue)
        })
    }
}

extension Assertion {
    /// Assertions under their keys in the order of the file: the checks of headers, body paths,
    /// XPath, cookies and the request gathered into one mapping each, where the first stood.
    static func yamlPairs(_ assertions: [Assertion]) -> [(String, YAMLValue)] {
        var pairs = GroupedPairs<SessionKey.Assert>()
        var requestChecks = GroupedPairs<SessionKey.RequestAssert>()
        var receivedChecks = GroupedPairs<SessionKey.RequestAssert>()
        for assertion in assertions {
            switch assertion {
            case .status(let text):
                let value: YAMLValue = Int(text).map { .literal(String($0)) } ?? .string(text)
                pairs.append(.status, value)
            case .valid(let valid): pairs.append(.valid, .literal(valid ? "true" : "false"))
            case .maxDuration(let seconds): pairs.append(.maxDuration, .string(Self.durationText(seconds)))
            case .transportError(let predicate): pairs.append(.transportError, predicate.yaml)
            case .errors(let expectations):
                pairs.append(.errors, .sequence(expectations.map { expectation in
                    var part = KeyedPairs<SessionKey.ExpectedError>()
                    if let code = expectation.code { part.append((.code, .literal(String(code)))) }
                    if let domain = expectation.domain { part.append((.domain, .string(domain))) }
                    if let message = expectation.message { part.append((.message, message.yaml)) }
                    return .mapping(part.pairs)
                }))
            case .header(let name, let predicate): pairs.add((name, predicate.yaml), to: .headers)
            case .body(let path, let predicate): pairs.add((path.text, predicate.yaml), to: .body)
            case .xpath(let expression, let predicate): pairs.add((expression, predicate.yaml), to: .xpath)
            case .response(.cookie(let name), let predicate): pairs.add((name, predicate.yaml), to: .cookies)
            case .response(let value, let predicate):
                if let key = SessionKey.Assert(rawValue: value.key) { pairs.append(key, predicate.yaml) }
            case .request(let check):
                if requestChecks.isEmpty { pairs.append(.request, .mapping([])) }
                check.add(to: &requestChecks)
            case .received(let check):
                if receivedChecks.isEmpty { pairs.append(.received, .mapping([])) }
                check.add(to: &receivedChecks)
            }
        }
        return pairs.pairs.map { pair in
            switch pair.0 {
            case SessionKey.Assert.request.rawValue: (pair.0, .mapping(requestChecks.pairs))
            case SessionKey.Assert.received.rawValue: (pair.0, .mapping(receivedChecks.pairs))
            default: pair
            }
        }
    }

    /// Seconds as the file writes a duration: `500ms`, `2s`.
    public static func durationText(_ seconds: Double) -> String {
        let milliseconds = seconds * 1000
        if milliseconds == milliseconds.rounded(), milliseconds.truncatingRemainder(dividingBy: 1000) != 0 { return "\(Int(milliseconds))ms" }
        return ParameterValue.format(seconds) + "s"
    }
}

extension Predicate {
    var yaml: YAMLValue {
        if filters.isEmpty, checks.count == 1, case .equals(let value) = checks[0], !value.isCollection { return YAMLValue(value) }
        let filterPairs: [(String, YAMLValue)] = filters.isEmpty ? [] : [(SessionKey.Check.filters.rawValue, ValueFilter.yaml(filters))]
        return .mapping(filterPairs + checks.map { check -> (String, YAMLValue) in
            let (key, written): (SessionKey.Check, YAMLValue) = switch check {
            case .equals(let value): (.equals, YAMLValue(value))
            case .notEquals(let value): (.notEquals, YAMLValue(value))
            case .contains(let text): (.contains, .string(text))
            case .matches(let pattern): (.matches, .string(pattern))
            case .exists(let exists): (.exists, .literal(exists ? "true" : "false"))
            case .type(let type): (.type, .string(type.rawValue))
            case .lessThan(let bound): (.lessThan, YAMLValue(.double(bound)).compactNumber)
            case .greaterThan(let bound): (.greaterThan, YAMLValue(.double(bound)).compactNumber)
            case .count(let count): (.count, .literal(String(count)))
            case .oneOf(let options): (.oneOf, .sequence(options.map(YAMLValue.init)))
            case .startsWith(let text): (.startsWith, .string(text))
            case .endsWith(let text): (.endsWith, .string(text))
            case .isEmpty(let empty): (.isEmpty, .literal(empty ? "true" : "false"))
            case .isDate(let date): (.isDate, .literal(date ? "true" : "false"))
            case .not(let inner): (.not, inner.yaml)
            case .lessOrEqual(let bound): (.lessOrEqual, YAMLValue(.double(bound)).compactNumber)
            case .greaterOrEqual(let bound): (.greaterOrEqual, YAMLValue(.double(bound)).compactNumber)
            }
            return (key.rawValue, written)
        })
    }
}

extension YAMLValue {
    /// A whole number without its `.0`.
    var compactNumber: YAMLValue {
        if case .literal(let text) = self, text.hasSuffix(".0") { return .literal(String(text.dropLast(2))) }
        return self
    }
}

extension ParameterValue {
    var isCollection: Bool {
        switch self {
        case .array, .dictionary, .set: true
        default: false
        }
    }
}

extension RecordedResponse {
    func yamlPairs() -> [(String, YAMLValue)] {
        var pairs = KeyedPairs<SessionKey.Recorded>()
        pairs.append((.status, .literal(String(status))))
        if !headers.isEmpty { pairs.append((.headers, headers.yaml)) }
        if let body { pairs.append((.body, .string(body))) }
        if let bodyBase64 { pairs.append((.bodyBase64, .string(Data(bodyBase64).base64EncodedString()))) }
        if !ignore.isEmpty { pairs.append((.ignore, .sequence(ignore.map { .string($0.text) }))) }
        return pairs.pairs
    }
}

/// A mapping's pairs under the keys of one ``SessionKey`` enum, so the writer writes only keys
/// the reader reads.
struct KeyedPairs<Key: RawRepresentable<String>> {
    private(set) var pairs: [(String, YAMLValue)] = []

    var isEmpty: Bool { pairs.isEmpty }

    mutating func append(_ pair: (Key, YAMLValue)) {
        pairs.append((pair.0.rawValue, pair.1))
    }
}

/// Pairs in which some keys gather entries into one mapping, written where the first entry stood
/// (`headers:`, `body:` and the like in `assert:`).
struct GroupedPairs<Key: RawRepresentable<String> & Hashable> {
    /// The keys in order, each with its value, or nil for a group.
    private var items: [(key: Key, value: YAMLValue?)] = []
    private var groups: [Key: [(String, YAMLValue)]] = [:]

    var isEmpty: Bool { items.isEmpty }

    mutating func append(_ key: Key, _ value: YAMLValue) {
        items.append((key, value))
    }

    /// Adds an entry to `key`'s mapping, which takes its place at its first entry.
    mutating func add(_ entry: (String, YAMLValue), to key: Key) {
        if groups[key] == nil {
            items.append((key, nil))
            groups[key] = []
        }
        groups[key]?.append(entry)
    }

    var pairs: [(String, YAMLValue)] {
        items.map { ($0.key.rawValue, $0.value ?? .mapping(groups[$0.key] ?? [])) }
    }
}

extension GraphQLQuery {
    /// `graphql:`'s mapping: the query, then the variables and the operation name when given.
    var yaml: YAMLValue {
        var pairs = KeyedPairs<SessionKey.GraphQL>()
        pairs.append((.query, .string(query)))
        if let variables { pairs.append((.variables, YAMLValue(variables))) }
        if let operationName { pairs.append((.operationName, .string(operationName))) }
        return .mapping(pairs.pairs)
    }
}
