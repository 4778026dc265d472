import OrderedCollections
import TincanCore

/// One variable as a request would see it: its value with references expanded, the layer it
/// comes from (the file, the environment, `--var`, a capture), the layers below that it hides,
/// and the process environment variables (`{{$env.NAME}}`) it reads.
public struct VariableSource: Sendable, Equatable {
    /// Where a value is set, lowest precedence first.
    public enum Layer: Sendable, Equatable, CustomStringConvertible {
        /// `variables:` in the file.
        case file
        /// `environments: NAME:`, chosen with `--env NAME`.
        case environment(String)
        /// `--var name=value`.
        case commandLine
        /// Captured from a response.
        case capture

        public var description: String {
            switch self {
            case .file: "file"
            case .environment(let name): "environment \(name)"
            case .commandLine: "--var"
            case .capture: "capture"
            }
        }
    }

    public var name: String
    /// The value with its references expanded, or why it has none (a variable or `$env` name
    /// with no value, a cycle).
    public var value: Result<ParameterValue, MissingVariableError>
    /// The layer whose value wins.
    public var layer: Layer
    /// Lower layers that set it too, and are hidden.
    public var hidden: [Layer]
    /// The process environment variables its value reads (`{{$env.TOKEN}}`), directly or through
    /// the variables it names.
    public var environmentReads: [String]
}

extension Session {
    /// Every variable a request of the session can use, in the file's order, then those only
    /// an environment, `--var` or a capture sets.
    ///
    /// - Parameters:
    ///   - environment: The environment chosen, if any (an unknown name sets nothing).
    ///   - overrides: `--var` values.
    ///   - captured: Values captured from responses so far.
    ///   - processEnvironment: For `{{$env.NAME}}`.
    public func variableSources(environment: String?, overrides: [String: String], captured: [String: ParameterValue],
                                processEnvironment: [String: String]) -> [VariableSource] {
        var layers: OrderedDictionary<String, [(VariableSource.Layer, ParameterValue)]> = [:]
        for (name, value) in variables { layers[name, default: []].append((.file, value)) }
        if let environment, let chosen = environments[environment] {
            for (name, value) in chosen { layers[name, default: []].append((.environment(environment), value)) }
        }
        for name in overrides.keys.sorted() { layers[name, default: []].append((.commandLine, .string(overrides[name] ?? ""))) }
        for name in captured.keys.sorted() { layers[name, default: []].append((.capture, captured[name] ?? .null)) }
        var template = Template(variables: (try? self.variables(environment: environment, overrides: overrides)) ?? [:], environment: processEnvironment)
        template.captured = captured
        // What each variable reads of the process environment, through the variables it names
        // too: `auth: "Bearer {{api}}"` with `api: "{{$env.KEY}}"` shows the key as much as api does.
        var references: [String: [String]] = [:]
        for (name, set) in layers {
            guard let (layer, raw) = set.last, layer != .capture else { continue }
            references[name] = Self.referenceTexts(in: raw).flatMap(Template.references(in:))
        }
        func environmentReads(of name: String) -> [String] {
            var reads: [String] = []
            var seen: Set<String> = [name]
            var pending = [name]
            while let next = pending.popLast() {
                for reference in references[next] ?? [] {
                    if reference.hasPrefix("$env.") {
                        let variable = String(reference.dropFirst(5))
                        if !reads.contains(variable) { reads.append(variable) }
                    } else if seen.insert(reference).inserted {
                        pending.append(reference)
                    }
                }
            }
            return reads
        }
        return layers.compactMap { name, set -> VariableSource? in
            guard let (layer, raw) = set.last else { return nil }
            let value: Result<ParameterValue, MissingVariableError>
            if layer == .capture {
                value = .success(raw)
            } else {
                do throws(MissingVariableError) {
                    value = .success(try template.value(of: name))
                } catch {
                    value = .failure(error)
                }
            }
            // Captured values are never expanded, so they read nothing.
            let reads = layer == .capture ? [] : environmentReads(of: name)
            return VariableSource(name: name, value: value, layer: layer, hidden: set.dropLast().map(\.0), environmentReads: reads)
        }
    }

    /// The texts of a value that may hold references: its strings and keys, at any depth.
    static func referenceTexts(in value: ParameterValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .array(let items): items.flatMap(referenceTexts(in:))
        case .set(let items): items.flatMap(referenceTexts(in:))
        case .dictionary(let members): members.flatMap { [$0.key] + referenceTexts(in: $0.value) }
        default: []
        }
    }
}

extension Session {
    /// The shortest value ``hiddenValues(of:environment:overrides:captured:processEnvironment:)``
    /// returns: shorter ones would hide pieces of ordinary text wherever they occur.
    public static let shortestHiddenValue = 4

    /// The values a history entry or a report about `requests` must not show: those the
    /// variables view hides (a variable with a secret's name, or one that reads the process
    /// environment), and every `{{$env.NAME}}` the requests name themselves, expanded; longest
    /// first, none shorter than ``shortestHiddenValue``. Worked out once per send or per replayed
    /// file, not per request.
    public func hiddenValues(of requests: [SavedRequest], environment: String?, overrides: [String: String], captured: [String: ParameterValue],
                             processEnvironment: [String: String]) -> [String] {
        var values = Set<String>()
        for source in variableSources(environment: environment, overrides: overrides, captured: captured, processEnvironment: processEnvironment)
        where Redaction.isSecret(name: source.name) || !source.environmentReads.isEmpty {
            if case .success(let value) = source.value { values.insert(Template.text(value)) }
            for name in source.environmentReads { if let value = processEnvironment[name] { values.insert(value) } }
        }
        for request in requests {
            for text in request.templateTexts where Template.mayHoldReferences(text) {
                for name in Template.references(in: text) where name.hasPrefix("$env.") {
                    if let value = processEnvironment[String(name.dropFirst(5))] { values.insert(value) }
                }
            }
        }
        return values.filter { $0.count >= Self.shortestHiddenValue }.sorted { $0.count > $1.count }
    }
}

extension SavedRequest {
    /// The texts of the request that variables expand in: URL, headers, query, parameters,
    /// body text and credentials.
    var templateTexts: [String] {
        var texts = [url] + headers.compactMap(\.value) + query.map(\.value)
        if let params { texts += params.stringLeaves }
        if case .text(let text)? = body { texts.append(text) }
        if let auth { texts += [auth.user, auth.password] }
        return texts
    }
}

extension ParameterValue {
    /// Every string in the tree, keys of dictionaries aside.
    var stringLeaves: [String] {
        switch self {
        case .string(let text): [text]
        case .array(let items): items.flatMap(\.stringLeaves)
        case .dictionary(let members): members.values.flatMap(\.stringLeaves)
        case .set(let items): items.flatMap(\.stringLeaves)
        default: []
        }
    }
}
