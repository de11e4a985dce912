/// The one deload clock of Regimen: training runs in blocks of `blockWeeks` weeks counted from
/// week 1 of the plan, and the last week of each block is the scheduled deload.
///
/// Its value is `block_weeks` of `rules/readiness-rules.yaml`, written once: `periodize` places
/// its deload weeks by it and `adapt` binds `week_in_block` from it, so both name the same weeks
/// for the same start (adapt may bring a deload forward on low readiness, never move it later).
package struct DeloadClock: Sendable, Hashable {
    /// Weeks in a block, at least 1.
    package let blockWeeks: Int

    package init(blockWeeks: Int) { self.blockWeeks = max(1, blockWeeks) }

    /// 1 … `blockWeeks`: where `week` (1-based) falls in its block; week 7 of 6-week blocks is 1.
    package func weekInBlock(_ week: Int) -> Int { (max(1, week) - 1) % blockWeeks + 1 }

    /// The block `week` falls in, from 0.
    package func block(of week: Int) -> Int { (max(1, week) - 1) / blockWeeks }

    /// Whether the clock schedules a deload in `week`: the last week of its block.
    func isScheduledDeload(_ week: Int) -> Bool { week >= 1 && weekInBlock(week) == blockWeeks }

    /// The scheduled deload weeks among weeks 1 … `weeks`.
    package func scheduledDeloads(through weeks: Int) -> [Int] {
        guard weeks >= blockWeeks else { return [] }
        return Array(stride(from: blockWeeks, through: weeks, by: blockWeeks))
    }
}
