/// "Did you mean …?" suggestions for misspelt keys, kinds, enum values and references.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo
    /// (at most a third of the word's length, and at least one edit allowed). Ties go to the
    /// alphabetically first candidate so messages are stable.
    package static func closest<S: Sequence>(to word: String, among candidates: S) -> String? where S.Element == String {
        let target = Array(word.lowercased().unicodeScalars)
        let allowed = max(1, min(3, target.count / 3))
        var best: (distance: Int, candidate: String)?
        for candidate in candidates where candidate != word {
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            guard distance <= allowed else { continue }
            if let current = best, (current.distance, current.candidate) <= (distance, candidate) { continue }
            best = (distance, candidate)
        }
        return best?.candidate
    }

    /// ` (did you mean 'x'?)` or an empty string, ready to append to a message.
    package static func clause<S: Sequence>(for word: String, among candidates: S) -> String where S.Element == String {
        closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
