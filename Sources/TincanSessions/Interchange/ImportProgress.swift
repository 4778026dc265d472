/// Where an import stands, for a progress line on a terminal when it takes a while.
public enum ImportStage: Sendable, Equatable {
    /// The file (or a Bruno collection's files) being read: the bytes read so far.
    case reading(bytes: Int)
    /// The text being parsed (JSON or YAML): its size.
    case parsing(bytes: Int)
    /// Requests made so far.
    case importing(requests: Int)
    /// Requests checked so far (each is built once, to name those that cannot be sent as written).
    case checking(done: Int, total: Int)
}

/// Told each stage of an import, from the importing thread; it must be cheap and thread-safe.
public typealias ImportProgress = @Sendable (ImportStage) -> Void
