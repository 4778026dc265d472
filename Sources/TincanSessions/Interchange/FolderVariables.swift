import OrderedCollections
import TincanCore

/// The variables folders set for the requests under them (Postman's folder `variable`,
/// Insomnia's folder environment, Bruno's `folder.bru` vars), placed in a session whose own
/// variables are shared by every request.
///
/// The nearest folder's value wins, over the collection's and over an environment's, as Insomnia
/// and Bruno apply them. A name that only folders set, to one value, becomes a session variable;
/// one set to different values, or that the session or an environment also sets, becomes the
/// request's own `variables:` in each request under such a folder, so each request sends what
/// its folder says and `--var` still wins.
struct FolderVariables {
    /// Each request's folder variables, by its index in the session: outermost folder first,
    /// so a later value replaces an earlier one.
    private var byRequest: [Int: OrderedDictionary<String, ParameterValue>] = [:]

    /// Notes the variables request `index` gets from its folders, outermost first.
    mutating func note(_ layers: [OrderedDictionary<String, ParameterValue>], forRequest index: Int) {
        var merged: OrderedDictionary<String, ParameterValue> = [:]
        for layer in layers {
            for (name, value) in layer { merged[name] = value }
        }
        if !merged.isEmpty { byRequest[index] = merged }
    }

    /// Puts the noted variables into `session`.
    func place(into session: inout Session) {
        guard !byRequest.isEmpty else { return }
        var values: OrderedDictionary<String, Set<ParameterValue>> = [:]
        for index in byRequest.keys.sorted() {
            for (name, value) in byRequest[index] ?? [:] { values[name, default: []].insert(value) }
        }
        var scoped: Set<String> = []
        for (name, distinct) in values {
            let inEnvironment = session.environments.values.contains { $0[name] != nil }
            if distinct.count == 1, let only = distinct.first, !inEnvironment, session.variables[name] == nil || session.variables[name] == only {
                session.variables[name] = only
            } else {
                scoped.insert(name)
            }
        }
        guard !scoped.isEmpty else { return }
        for (index, variables) in byRequest where session.requests.indices.contains(index) {
            for (name, value) in variables where scoped.contains(name) && session.requests[index].variables[name] == nil {
                session.requests[index].variables[name] = value
            }
        }
    }
}
