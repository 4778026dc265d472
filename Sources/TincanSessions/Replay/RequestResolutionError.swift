
/// A request that could not be resolved: which one, where, and why.
public struct RequestResolutionError: Error, Sendable, CustomStringConvertible {
    public var request: String
    public var file: String?
    /// The line of the reference at fault when it is known, else of the request; 0 for none.
    public var line: Int
    public var reason: String
    /// The column of the reference at fault, when it is known.
    public var column: Int?

    public var description: String {
        var location = ""
        if let file {
            location = file
            if line > 0 { location += ":\(line)" + (column.map { ":\($0)" } ?? "") }
            location += ": "
        }
        return "\(location)request '\(request)': \(reason)"
    }
}
