/// Volume accounting: how the plan's sets count toward each muscle's weekly band, exactly as
/// the plan counted them.
extension AdaptationRun {
    /// The muscles one set of `block` counts toward, with the share of a set each gets and
    /// whether it counts as a direct set (a primary muscle, or the block's own muscle).
    static func contributions(of block: PlanView.Block, _ engine: AdaptationEngine) -> [(muscle: String, share: Double)] {
        muscles(of: block, engine).map { ($0.muscle, $0.direct ? engine.setCredit.direct : engine.setCredit.indirect) }
    }

    static func muscles(of block: PlanView.Block, _ engine: AdaptationEngine) -> [(muscle: String, direct: Bool)] {
        guard let facts = engine.exercises[block.exerciseId] else { return [(block.muscle, true)] }
        var out: [(String, Bool)] = facts.primaryMuscles.map { ($0, true) }
        if !facts.primaryMuscles.contains(block.muscle) { out.append((block.muscle, true)) }
        out += facts.secondaryMuscles.filter { !facts.primaryMuscles.contains($0) && $0 != block.muscle }.map { ($0, false) }
        return out
    }

    /// Direct and indirect sets per muscle, the two parts of the weekly-set count.
    static func setParts(_ plan: PlanView, _ engine: AdaptationEngine) -> [String: (direct: Int, indirect: Int)] {
        var parts: [String: (direct: Int, indirect: Int)] = [:]
        for block in plan.allBlocks {
            for (muscle, direct) in muscles(of: block, engine) {
                var entry = parts[muscle] ?? (0, 0)
                if direct { entry.direct += block.sets } else { entry.indirect += block.sets }
                parts[muscle] = entry
            }
        }
        return parts
    }

    /// Counted weekly sets per muscle: full sets for primary muscles, the secondary share for others.
    static func countedSets(_ plan: PlanView, _ engine: AdaptationEngine) -> [String: Double] {
        var totals: [String: Double] = [:]
        for block in plan.allBlocks {
            for (muscle, share) in contributions(of: block, engine) { totals[muscle, default: 0] += Double(block.sets) * share }
        }
        return totals
    }

    /// Whether `extra` more sets of `block` keep every muscle it counts toward within its band's top.
    /// A muscle the plan gives no band cannot be raised: without a cap there is no safe increase.
    func canAdd(_ extra: Int, to block: PlanView.Block) -> Bool {
        let counted = Self.countedSets(plan, engine)
        for (muscle, share) in Self.contributions(of: block, engine) where share > 0 {
            guard let band = plan.bands[muscle] else { return false }
            if (counted[muscle] ?? 0) + Double(extra) * share > band.upperBound + 1e-9 { return false }
        }
        return true
    }
}
