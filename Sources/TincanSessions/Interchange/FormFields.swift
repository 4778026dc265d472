import OrderedCollections
import TincanCore

/// Text fields of an imported form, as the session's parameter tree.
enum FormFields {
    /// Adds `name` = `value`; bracketed names nest as on tincan's command line (`tags[]=a`
    /// builds a list), and a plain name given twice is refused, since a parameter holds one value.
    ///
    /// - Parameter source: How the field was written, for errors (`-F 'a=…'`, `api.http:12`).
    static func insert(_ name: String, _ value: String, into fields: inout OrderedDictionary<String, ParameterValue>, source: String) throws(InterchangeError) {
        guard name.contains("[") || fields[name] == nil else {
            throw InterchangeError(.repeatedField(name), at: source)
        }
        do {
            try ParameterPath(parsing: name).insert(.string(value), into: &fields)
        } catch {
            throw InterchangeError(.invalidFieldName(error), at: source)
        }
    }

    /// A field as a form or query encodes it, its `{{variable}}` references left as they are.
    static func escapedAroundReferences(_ pair: QueryStringPair) -> String {
        func escaped(_ text: String) -> String {
            var result = ""
            var rest = Substring(text)
            while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
                result += PercentEscaping.escape(String(rest[..<open.lowerBound])) + rest[open.lowerBound..<close.upperBound]
                rest = rest[close.upperBound...]
            }
            return result + PercentEscaping.escape(String(rest))
        }
        return pair.value.map { escaped(pair.field) + "=" + escaped($0) } ?? escaped(pair.field)
    }

    /// A URL-encoded form's fields (those sent, in order) as the request's body, as the client
    /// sends it: the form serializer's parameters when they say the same, or when they hold
    /// `{{variables}}` (whose values the form serializer encodes when it sends them, as the
    /// client does, where text would hold them as they are); else (a name given twice, a GET,
    /// whose parameters Tincan sends in the query, fields in an order Tincan's would change)
    /// the encoded text itself, with the form's Content-Type.
    static func urlencoded(_ pairs: [(name: String, value: String)], into request: inout SavedRequest, source: String) {
        guard !pairs.isEmpty else {
            if !RequestSettings.defaultMethodsEncodingParametersInURI.contains(request.method) { request.serializer = .form }
            return
        }
        var fields: OrderedDictionary<String, ParameterValue> = [:]
        var fits = !RequestSettings.defaultMethodsEncodingParametersInURI.contains(request.method)
        for (name, value) in pairs where fits {
            do {
                try insert(name, value, into: &fields, source: source)
            } catch {
                fits = false
            }
        }
        // The parameters must encode back to the same fields, in the same order (in any order
        // when they hold variables).
        let encoded = QueryString.pairs(fields).map { [$0.field, $0.value ?? ""] }
        let holdsReferences = pairs.contains { Template.mayHoldReferences($0.name) || Template.mayHoldReferences($0.value) }
        if fits, encoded == pairs.map({ [$0.name, $0.value] }) || (holdsReferences && encoded.sorted { $0.lexicographicallyPrecedes($1) } == pairs.map({ [$0.name, $0.value] }).sorted { $0.lexicographicallyPrecedes($1) }) {
            request.serializer = .form
            request.params = .dictionary(fields)
            return
        }
        request.body = .text(pairs.map { escapedAroundReferences(QueryStringPair(field: $0.name, value: $0.value)) }.joined(separator: "&"))
        if !request.headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") && $0.isEnabled }) {
            request.headers.append(HeaderSetting(name: "Content-Type", value: "application/x-www-form-urlencoded"))
        }
    }
}
