/// A line diff (longest common subsequence), for comparing two sends.
enum LineDiff {
    enum Change: Sendable, Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The most lines of the differing middle compared line by line; past it, the middle shows
    /// as all removed then all added.
    static let limit = 2_000

    /// The changes that turn `old` into `new`: common lines first and last are matched directly,
    /// the middle through a longest-common-subsequence table.
    static func diff(_ old: [String], _ new: [String]) -> [Change] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let a = Array(old[prefix..<(old.count - suffix)])
        let b = Array(new[prefix..<(new.count - suffix)])
        var middle: [Change] = []
        if a.count > limit || b.count > limit {
            middle = a.map(Change.removed) + b.map(Change.added)
        } else if !a.isEmpty || !b.isEmpty {
            // lengths[i][j]: the LCS of a[i...] and b[j...], in one flat table.
            let width = b.count + 1
            var lengths = [Int32](repeating: 0, count: (a.count + 1) * width)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    lengths[i * width + j] = a[i] == b[j] ? lengths[(i + 1) * width + j + 1] + 1 : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
                }
            }
            var i = 0
            var j = 0
            while i < a.count || j < b.count {
                if i < a.count, j < b.count, a[i] == b[j] {
                    middle.append(.same(a[i])); i += 1; j += 1
                } else if i < a.count, j == b.count || lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
                    // Removals first, as diff -u writes a changed line.
                    middle.append(.removed(a[i])); i += 1
                } else {
                    middle.append(.added(b[j])); j += 1
                }
            }
        }
        return old[..<prefix].map(Change.same) + middle + old[(old.count - suffix)...].map(Change.same)
    }
}
