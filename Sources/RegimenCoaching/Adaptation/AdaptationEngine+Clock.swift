import RegimenLanguage

/// The week a request is for, and how far back a plan remembers requests.
extension AdaptationEngine {
    /// The latest dated check-in or session of the request.
    static func latestDate(_ input: AdaptationInput) -> CalendarDay? {
        (input.checkIns.compactMap(\.date) + input.sessions.compactMap(\.date)).compactMap(CalendarDay.init).max()
    }

    /// The week without `week:`: counted from the start date (the request's, the plan's, else
    /// the first check-in's) to the request's latest date; `nil` without dates.
    static func derivedWeek(_ input: AdaptationInput, plan: PlanView) -> Int? {
        guard let latest = latestDate(input) else { return nil }
        let start = input.startDate.flatMap(CalendarDay.init) ?? plan.state.startDate
            ?? input.checkIns.compactMap { $0.date.flatMap(CalendarDay.init) }.min()
        guard let start, latest >= start else { return nil }
        // Requests are bounded to 520 weeks (ten years) like an explicit `week:`.
        return min(520, (latest.ordinal - start.ordinal) / 7 + 1)
    }

    /// The latest date a record's check-ins name.
    static func latestDate(of record: AdaptationRecord) -> CalendarDay? {
        record.checkins.compactMap { CalendarDay($0) }.max()
    }

    /// Which records a plan keeps after a request for `week` with latest date `latest`: those of
    /// the rules' `keep_weeks` up to it (all of them when the rules set no bound).
    func keptRecords(week: Int?, latest: CalendarDay?) -> (AdaptationRecord) -> Bool {
        guard let keep = readiness.adjustments?.keepWeeks else { return { _ in true } }
        return { record in
            if let week, let recorded = record.week, recorded <= week - keep { return false }
            if let latest, let recorded = Self.latestDate(of: record), recorded.ordinal <= latest.ordinal - 7 * keep { return false }
            return true
        }
    }

    /// A request older than the records the plan keeps could no longer be recognised as applied:
    /// it is refused as stale rather than applied a second time.
    func refuseStale(_ input: AdaptationInput, plan: PlanView) throws(AdaptationInputError) {
        guard let keep = readiness.adjustments?.keepWeeks else { return }
        var problems = InputProblems(locations: input.fieldLocations)
        if let week = input.week, let newest = plan.adaptations.compactMap(\.week).max(), week <= newest - keep {
            problems.add("week", "\(week) is stale: the plan was adapted up to week \(newest) and keeps \(keep) weeks of records (rules/readiness-rules.yaml adjustments.keep_weeks); adapt a copy of the plan from that time instead")
        } else if let latest = Self.latestDate(input), let newest = plan.adaptations.compactMap(Self.latestDate(of:)).max(),
                  latest.ordinal <= newest.ordinal - 7 * keep {
            problems.add("checkins", "check-ins up to \(latest) are stale: the plan was adapted with check-ins up to \(newest) and keeps \(keep) weeks of records (rules/readiness-rules.yaml adjustments.keep_weeks)")
        }
        if !problems.diagnostics.isEmpty { throw AdaptationInputError(problems.diagnostics) }
    }
}
