/// What the ranking needs to know about an exercise.
package struct RankingCandidate: Sendable, Hashable {
    package var id: String
    /// Primary muscles.
    package var muscles: [String]
    /// Movement pattern (`horizontal_push`, `squat`, …).
    package var pattern: String

    package init(id: String, muscles: [String], pattern: String) {
        self.id = id
        self.muscles = muscles
        self.pattern = pattern
    }
}

/// A candidate's place in the ranking, with the reasons its score rests on.
package struct RankedCandidate: Sendable, Hashable {
    package var id: String
    package var score: Double
    package var reasons: SelectionRanking.Candidate
}

extension SelectionRanking {
    /// Ranks `candidates` by the rule file's score, highest first, ties by id.
    ///
    /// The reasons (docs/requirements.md#exercise-ranking) come from the session so far: a
    /// candidate is in the library when the user's library holds it; emphasized when one of its
    /// muscles is emphasized; under-represented when one of its muscles has fewer chosen exercises
    /// than the most-trained muscle among those already chosen; and repeats a pattern when a
    /// chosen exercise has its movement pattern.
    package func rank(_ candidates: [RankingCandidate], library: Set<String>, emphasis: Set<String>,
                     chosen: [RankingCandidate]) throws -> [RankedCandidate] {
        var counts: [String: Int] = [:]
        for exercise in chosen { for muscle in exercise.muscles { counts[muscle, default: 0] += 1 } }
        let most = counts.values.max() ?? 0
        let patterns = Set(chosen.map(\.pattern))
        var ranked: [RankedCandidate] = []
        for candidate in candidates {
            let reasons = Candidate(
                inLibrary: library.contains(candidate.id),
                emphasized: candidate.muscles.contains(where: emphasis.contains),
                underRepresented: most > 0 && candidate.muscles.contains { counts[$0, default: 0] < most },
                patternRepeated: patterns.contains(candidate.pattern))
            ranked.append(RankedCandidate(id: candidate.id, score: try score(reasons), reasons: reasons))
        }
        return ranked.sorted { ($0.score, $1.id) > ($1.score, $0.id) }
    }
}
