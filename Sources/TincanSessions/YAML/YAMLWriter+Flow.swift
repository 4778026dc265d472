/// YAML on one line, for values shown and edited where a block would not fit (a check line).
extension YAMLWriter {
    /// A value in flow style: `[a, b]`, `{type: array, count: 2}`, text quoted only when a
    /// plain scalar would read back as something else.
    public static func flow(_ value: YAMLValue) -> String {
        switch value {
        case .literal(let text): text
        case .string(let string): scalar(string, flow: true)
        case .sequence(let items): "[" + items.map(flow).joined(separator: ", ") + "]"
        case .mapping(let pairs): "{" + pairs.map { scalar($0.0, flow: true) + ": " + flow($0.1) }.joined(separator: ", ") + "}"
        }
    }
}
