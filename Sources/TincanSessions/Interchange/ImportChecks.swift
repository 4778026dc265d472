import Foundation
import OrderedCollections
import Synchronization
import TincanCore

/// What every import does to its session before it is written, whatever the format: so that
/// the file it writes always reads back, and never reads a local file the user did not choose.
///
/// - Variables named like file placeholders are dropped (only the user sets those).
/// - A header named twice (whatever the case) is named once: values that are sent are joined
///   as HTTP joins a repeated field (`a, b`; cookies `a; b`), and a copy turned off beside one
///   that is sent is dropped, each with a warning; a session's `headers:` names a header once.
/// - Local files are kept inside the imported file's folder (``ImportedPaths``).
/// - Each request is built as a replay would, with every variable given a stand-in value: one
///   that cannot be built as written (a GET with a multipart form, a form file that is not
///   there) is named, and kept as it is, so that replay and export report it on its own.
enum ImportChecks {
    /// Finishes `session`, whose relative paths are read from `folder`; returns the warnings.
    static func finish(_ session: inout Session, folder: String, origin: ImportedPaths.Origin, progress: ImportProgress? = nil) -> [String] {
        var warnings = readable(&session)
        warnings += ImportedPaths.dropPlaceholderVariables(&session)
        let variables = Template(variables: Dictionary(session.variables.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }), environment: [:])
        warnings += validNames(&session.defaults.headers, place: "defaults", variables: variables)
        warnings += namingOnce(&session.defaults.headers, place: "defaults")
        for index in session.requests.indices {
            let place = "request '\(session.requests[index].displayName)'"
            warnings += validNames(&session.requests[index].headers, place: place, variables: variables)
            warnings += namingOnce(&session.requests[index].headers, place: place)
            warnings += checkingOnce(&session.requests[index].assertions, place: place)
            if session.requests[index].url.trimmingWhitespace().isEmpty {
                warnings.append("\(place): the collection gives no URL, so it is imported without one; set url: before sending it")
            }
        }
        warnings += ImportedPaths.confine(&session, folder: folder, origin: origin)
        warnings += unsendable(session, folder: folder, progress: progress)
        warnings += environmentReads(session)
        return warnings
    }

    /// Every `{{$env.NAME}}` an import brings, named where it is (a .http file's
    /// `{{$processEnv NAME}}` and Bruno's `{{process.env.NAME}}` become one): replay and the TUI
    /// read that variable of whoever sends the request and send its value where the request
    /// goes, which a collection someone else wrote must not make Tincan do unsaid.
    static func environmentReads(_ session: Session) -> [String] {
        func reads(_ texts: [String]) -> [String] {
            var names: [String] = []
            for text in texts where Template.mayHoldReferences(text) {
                for reference in Template.references(in: text) where reference.hasPrefix("$env.") {
                    let name = String(reference.dropFirst(5))
                    if !names.contains(name) { names.append(name) }
                }
            }
            return names
        }
        var warnings: [String] = []
        func say(_ place: String, _ names: [String]) {
            guard !names.isEmpty else { return }
            let variables = names.count == 1 ? "variable" : "variables"
            warnings.append("\(place): reads the environment \(variables) \(names.joined(separator: ", ")) of whoever sends it, and sends \(names.count == 1 ? "its value" : "their values") where the request goes; check that you mean it to")
        }
        for (name, value) in session.variables { say("variables: \(name)", reads(Session.referenceTexts(in: value))) }
        for (environment, values) in session.environments {
            for (name, value) in values { say("environment '\(environment)': \(name)", reads(Session.referenceTexts(in: value))) }
        }
        for request in session.requests {
            say("request '\(request.displayName)'", reads(request.templateTexts + request.variables.values.flatMap(Session.referenceTexts(in:))))
        }
        return warnings
    }

    /// The session as the session reader takes it, whatever the source tool allowed: a value
    /// the reader would refuse is left out, named, so that what is written always reads back.
    ///
    /// - Variable and capture names that are empty, start with `$` or hold braces.
    /// - An environment without a name is named `environment N`.
    /// - A folder path's empty names are dropped (`a//b` is `a/b`).
    /// - A method that is not an HTTP token is GET.
    /// - `max-redirects:` with redirects not followed (it says nothing then); one or a
    ///   `max-time:` out of the reader's range.
    /// - A body beside an upload, an upload beside a form's files, a form file without a field
    ///   name or a path.
    static func readable(_ session: inout Session) -> [String] {
        var warnings: [String] = []
        func validName(_ name: String) -> Bool {
            !name.isEmpty && !name.hasPrefix("$") && !name.contains("{") && !name.contains("}")
        }
        func keepingValidNames(_ variables: inout OrderedDictionary<String, ParameterValue>, place: String) {
            for name in variables.keys where !validName(name) {
                variables[name] = nil
                warnings.append("\(place): the variable '\(name)' is not carried over: a variable's name cannot be empty, start with $ or hold braces")
            }
        }
        keepingValidNames(&session.variables, place: "variables")
        var environments: OrderedDictionary<String, OrderedDictionary<String, ParameterValue>> = [:]
        for (name, values) in session.environments {
            var values = values
            let named = name.trimmingWhitespace().isEmpty ? "environment \(environments.count + 1)" : name
            keepingValidNames(&values, place: "environment '\(named)'")
            environments[named] = values
        }
        session.environments = environments
        for index in session.requests.indices {
            var request = session.requests[index]
            let place = "request '\(request.displayName)'"
            if let group = request.group {
                let names = group.split(separator: "/", omittingEmptySubsequences: false).filter { !$0.trimmingWhitespace().isEmpty }
                request.group = names.isEmpty ? nil : names.joined(separator: "/")
            }
            if !HTTPMethod.isValid(request.method) {
                warnings.append("\(place): the method '\(request.method)' is not an HTTP method (a token such as GET or PROPFIND), so the request is a GET")
                request.method = "GET"
            }
            keepingValidNames(&request.variables, place: place)
            for name in request.captures.keys where name.isEmpty || name.contains("{") || name.contains("}") {
                request.captures[name] = nil
                warnings.append("\(place): the capture '\(name)' is not carried over: a variable's name cannot be empty or hold braces")
            }
            if request.flow.followRedirects == false { request.flow.maxRedirects = nil }
            if let maximum = request.flow.maxRedirects, (try? NumericRange.redirects.check(Double(maximum), text: String(maximum))) == nil {
                request.flow.maxRedirects = nil
                warnings.append("\(place): max-redirects \(maximum) is not carried over: \(NumericRange.redirects.expected)")
            }
            if let maxTime = request.maxTime, (try? NumericRange.maxTime.check(maxTime, text: ParameterValue.format(maxTime))) == nil {
                request.maxTime = nil
                warnings.append("\(place): the timeout \(ParameterValue.format(maxTime)) s is not carried over: max-time takes \(NumericRange.maxTime.expected)")
            }
            if request.upload != nil, request.body != nil {
                request.body = nil
                warnings.append("\(place): the body is not carried over: the request sends a file (upload:), and a request sends one body")
            }
            if request.upload != nil, !request.files.isEmpty {
                request.upload = nil
                warnings.append("\(place): the file body is not carried over: the request sends a form with files, and a request sends one body")
            }
            request.files = request.files.filter { file in
                guard file.field.isEmpty || file.path.isEmpty else { return true }
                warnings.append("\(place): a form file is not carried over: it has no \(file.field.isEmpty ? "field name" : "path")")
                return false
            }
            session.requests[index] = request
        }
        return warnings
    }

    /// `headers` with names a session can hold: a name made of variables (Insomnia renders
    /// header names) is written out with their values when the session's variables give them,
    /// and left out otherwise; each named.
    static func validNames(_ headers: inout [HeaderSetting], place: String, variables: Template) -> [String] {
        var warnings: [String] = []
        headers = headers.compactMap { header in
            guard !HTTPHeaders.isValidName(header.name) else { return header }
            if Template.mayHoldReferences(header.name), let name = try? variables.expand(header.name), HTTPHeaders.isValidName(name) {
                warnings.append("\(place): the header name \(header.name) is written as \(name), its value in the session's variables (a session's header names hold no variables)")
                return HeaderSetting(name: name, value: header.value, isEnabled: header.isEnabled)
            }
            warnings.append("\(place): the header \(header.name) is not carried over: \(HeaderLine.invalidNameMessage(header.name))")
            return nil
        }
        return warnings
    }

    /// `headers` with each name once (see the type's summary).
    static func namingOnce(_ headers: inout [HeaderSetting], place: String) -> [String] {
        var byName: [String: [Int]] = [:]
        var order: [String] = []
        for (index, header) in headers.enumerated() {
            let key = header.name.lowercased()
            if byName[key] == nil { order.append(key) }
            byName[key, default: []].append(index)
        }
        guard byName.values.contains(where: { $0.count > 1 }) else { return [] }
        var warnings: [String] = []
        var kept: [HeaderSetting] = []
        for key in order {
            let group = byName[key]!.map { headers[$0] }
            guard group.count > 1 else {
                kept.append(group[0])
                continue
            }
            let sent = group.filter(\.isEnabled)
            let off = group.filter { !$0.isEnabled }
            if sent.isEmpty {
                kept.append(off[0])
                for header in off.dropFirst() {
                    warnings.append("\(place): the header \(header.name): \(header.value ?? "") is not carried over: it is turned off, and a session names a header once (\(off[0].name): \(off[0].value ?? "") is kept, turned off)")
                }
                continue
            }
            if sent.count == 1 || sent.contains(where: { $0.value == nil }) {
                // One sent, or a removal among them: the last says what is sent.
                let last = sent.last!
                kept.append(last)
                for header in sent.dropLast() {
                    warnings.append("\(place): the header \(header.name): \(header.value ?? "(removed)") is not carried over: \(last.name) is given again later, which is what is sent")
                }
            } else {
                let separator = HTTPHeaders.same(key, "Cookie") ? "; " : ", "
                let joined = sent.compactMap(\.value).joined(separator: separator)
                kept.append(HeaderSetting(name: sent[0].name, value: joined))
                warnings.append("\(place): the header \(sent[0].name) is given \(sent.count) times; it is sent once as '\(joined)', as HTTP joins a repeated field")
            }
            for header in off {
                warnings.append("\(place): the header \(header.name): \(header.value ?? ""), turned off, is not carried over: the request sends \(header.name) already, and a session names a header once")
            }
        }
        headers = kept
        return warnings
    }

    /// Checks with each target once, as a session's `assert:` names each (the status, a header,
    /// a body path…) once: checks of one target are joined into one predicate; a check of a kind
    /// the predicate has already (a second `equals`) or other filters cannot join it, and is named.
    static func checkingOnce(_ assertions: inout [Assertion], place: String) -> [String] {
        var warnings: [String] = []
        var kept: [Assertion] = []
        var positions: [String: Int] = [:]
        for assertion in assertions {
            guard let (target, predicate) = Self.target(of: assertion) else {
                kept.append(assertion)
                continue
            }
            guard let index = positions[target] else {
                positions[target] = kept.count
                kept.append(assertion)
                continue
            }
            guard let predicate, let (_, existing) = Self.target(of: kept[index]), var merged = existing, merged.filters == predicate.filters else {
                warnings.append("\(place): the check \(CheckLine.text(of: assertion)) is not carried over: the request checks \(target) already, and a session names each check once")
                continue
            }
            for check in predicate.checks where !merged.checks.contains(check) {
                guard !merged.checks.contains(where: { Self.kind(of: $0) == Self.kind(of: check) }) else {
                    warnings.append("\(place): the check \(CheckLine.text(of: assertion)) is not carried over: the request checks \(target) that way already, and a session names each check once")
                    continue
                }
                merged.checks.append(check)
            }
            kept[index] = Self.assertion(kept[index], with: merged)
        }
        assertions = kept
        return warnings
    }

    /// What an assertion checks (`body $.id`, `status`), and its predicate when it has one.
    static func target(of assertion: Assertion) -> (String, Predicate?)? {
        switch assertion {
        case .status: ("status", nil)
        case .header(let name, let predicate): ("header \(name.lowercased())", predicate)
        case .body(let path, let predicate): ("body \(path.text)", predicate)
        case .xpath(let expression, let predicate): ("xpath \(expression)", predicate)
        case .response(let value, let predicate):
            if case .cookie(let name) = value { ("cookie \(name)", predicate) } else { ("response \(value.key)", predicate) }
        case .valid: ("valid", nil)
        case .errors: ("errors", nil)
        case .maxDuration: ("max-duration", nil)
        case .transportError(let predicate): ("transport-error", predicate)
        case .request, .received: nil
        }
    }

    /// The assertion with another predicate.
    static func assertion(_ assertion: Assertion, with predicate: Predicate) -> Assertion {
        switch assertion {
        case .header(let name, _): .header(name, predicate)
        case .body(let path, _): .body(path, predicate)
        case .xpath(let expression, _): .xpath(expression, predicate)
        case .response(let value, _): .response(value, predicate)
        case .transportError: .transportError(predicate)
        default: assertion
        }
    }

    /// The key a check is written under in a predicate's mapping.
    static func kind(of check: Predicate.Check) -> String {
        String(String(describing: check).prefix { $0 != "(" })
    }

    /// The requests that cannot be built as written, each named with why.
    static func unsendable(_ session: Session, folder: String, progress: ImportProgress? = nil) -> [String] {
        var template = Template(variables: Dictionary(session.variables.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }), environment: [:])
        let stoodIn = Mutex<[String]>([])
        template.fallback = { name in
            stoodIn.withLock { if !$0.contains(name) { $0.append(name) } }
            return .string("x")
        }
        var warnings: [String] = []
        for index in session.requests.indices {
            if index % 64 == 0 { progress?(.checking(done: index, total: session.requests.count)) }
            stoodIn.withLock { $0 = [] }
            defer {
                // A `{{$name}}` Tincan has no built-in for (a tool's dynamic variable) is named.
                for name in stoodIn.withLock({ $0 }) where name.hasPrefix("$") && !Template.isBuiltin(name) && session.variables[name] == nil {
                    warnings.append("request '\(session.requests[index].displayName)': {{\(name)}} is a dynamic variable Tincan does not have (its built-ins are {{$uuid}}, {{$timestamp}} and {{$env.NAME}}); set \(name) yourself (--var) before sending")
                }
            }
            do {
                var resolved = try session.resolve(index, template: template, directory: folder, proxyEnvironment: ProxyEnvironment())
                // A URL made of variables is checked when they are set: here only the request.
                if resolved.draft.baseURL == nil { resolved.draft.baseURL = "http://localhost/" }
                if Template.mayHoldReferences(session.requests[index].url) || session.base.map(Template.mayHoldReferences) == true {
                    resolved.draft.url = "http://localhost/"
                    resolved.draft.baseURL = nil
                }
                resolved.draft.standardInput = []
                _ = try resolved.draft.build()
            } catch let error as RequestResolutionError {
                if case .missingVariable = error.reason { continue }
                warnings.append("\(error); it cannot be sent as written, so it is imported as it is, and replay and export report it")
            } catch {
                warnings.append("request '\(session.requests[index].displayName)': cannot be sent as written (\(error)); it is imported as it is, and replay and export report it")
            }
        }
        return warnings
    }
}

extension ImportedCollection {
    /// Runs ``ImportChecks`` on the session, adding its warnings.
    mutating func finish(folder: String, progress: ImportProgress? = nil) {
        notCarried += ImportChecks.finish(&session, folder: folder, origin: .file, progress: progress)
    }
}
