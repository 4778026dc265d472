import OrderedCollections
import TincanCore

/// Text fields of an imported multipart form, as the session's parameter tree.
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
}
