extension RegularExpression {
    /// Ways a pattern Firestore's emulator (RE2/J) accepts would be rejected or read differently
    /// by RE2 itself: an empty flag group `(?)`, nested counted repetitions whose counts
    /// multiply past 1000, and `\p` classes that RE2 widens under `(?i)` but RE2/J does not.
    /// Empty for a pattern outside the grammar (that is an error of its own).
    package static func differencesFromRE2(in pattern: String) -> [String] {
        var parser = RegexParser(pattern)
        guard let node = try? parser.parse() else { return [] }
        var notes = parser.differencesFromRE2
        if repetitionBudget(node) == 0 {
            notes.append("RE2 rejects nested counted repetitions whose counts multiply past \(RegexParser.maxRepeat); RE2/J accepts them")
        }
        return notes
    }

    /// RE2's check of nested repetition: starting from 1000, each enclosing count divides what
    /// is left (integer division); 0 anywhere means the pattern is too large for RE2. Walks the
    /// tree with a stack of its own.
    private static func repetitionBudget(_ root: RegexNode) -> Int {
        var lowest = RegexParser.maxRepeat
        var stack: [(RegexNode, Int)] = [(root, RegexParser.maxRepeat)]
        while let (node, budget) = stack.popLast() {
            lowest = Swift.min(lowest, budget)
            switch node {
            case .empty, .set, .assertion:
                break
            case .capture(_, let inner):
                stack.append((inner, budget))
            case .concatenation(let items), .alternation(let items):
                for item in items { stack.append((item, budget)) }
            case .repetition(let inner, let min, let max, _):
                let count = max ?? min
                stack.append((inner, count > 0 ? budget / count : budget))
            }
        }
        return lowest
    }
}
