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

    /// A URL-encoded form's fields (those sent, in order) as the request's body, as the client
    /// sends it: the form serializer's parameters when they say the same; else (a name given
    /// twice, a GET, whose parameters Tincan sends in the query) the encoded text itself, with
    /// the form's Content-Type.
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
        // The parameters must encode back to the same fields, in the same order.
        if fits, QueryString.pairs(fields).map({ [$0.field, $0.value ?? ""] }) == pairs.map({ [$0.name, $0.value] }) {
            request.serializer = .form
            request.params = .dictionary(fields)
            return
        }
        request.body = .text(pairs.map { QueryStringPair(field: $0.name, value: $0.value).escaped }.joined(separator: "&"))
        if !request.headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") && $0.isEnabled }) {
            request.headers.append(HeaderSetting(name: "Content-Type", value: "application/x-www-form-urlencoded"))
        }
    }
}
