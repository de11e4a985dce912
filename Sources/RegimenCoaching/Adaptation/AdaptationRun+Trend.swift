import RegimenLanguage

/// The measured weight trend and the calorie band a trend change stays in.
extension AdaptationRun {
    /// Adds the request's dated weigh-ins to the plan's and keeps those of the trend window.
    mutating func recordWeighIns() {
        var byDate: [CalendarDay: Double] = [:]
        for weighIn in state.weighIns { byDate[weighIn.date] = weighIn.kg }
        for checkIn in input.checkIns {
            guard let kg = checkIn.weightKg, let day = checkIn.date.flatMap(CalendarDay.init) else { continue }
            byDate[day] = kg
        }
        guard let latest = byDate.keys.max() else { return }
        let window = readiness.weightTrend?.windowDays ?? 14
        state.weighIns = byDate.filter { $0.key.ordinal > latest.ordinal - window }
            .map { AdaptationState.WeighIn(date: $0.key, kg: $0.value) }.sorted { $0.date < $1.date }
    }

    /// The goal whose band and target rate apply: the plan's, else the request's.
    var goal: String? { original.goal ?? input.goal }

    /// The weight trend as percent of body weight per week: the least-squares slope of the
    /// window's weigh-ins over their mean; `nil` with too few or too close weigh-ins.
    func measuredRatePercentPerWeek() -> Double? {
        guard let rule = readiness.weightTrend else { return nil }
        let points = state.weighIns
        guard points.count >= rule.minWeighIns, let first = points.first, let last = points.last,
              last.date.ordinal - first.date.ordinal >= rule.minSpanDays else { return nil }
        let xs = points.map { Double($0.date.ordinal - first.date.ordinal) }
        let ys = points.map(\.kg)
        let n = Double(points.count)
        let meanX = xs.reduce(0, +) / n
        let meanY = ys.reduce(0, +) / n
        var sxy = 0.0
        var sxx = 0.0
        for (x, y) in zip(xs, ys) {
            sxy += (x - meanX) * (y - meanY)
            sxx += (x - meanX) * (x - meanX)
        }
        guard sxx > 0, meanY > 0 else { return nil }
        return sxy / sxx * 7 / meanY * 100
    }

    /// The trend the rules read: the request's typed `weight_trend_2w` (an override), else the
    /// measured rate against the goal's target; a note says which.
    mutating func weightTrend() -> WeightTrend? {
        if let typed = input.weightTrend { return typed }
        guard let rate = measuredRatePercentPerWeek() else { return nil }
        guard let goal, let target = readiness.weightTrend?.targetPercentPerWeek[goal] else {
            notes.append("weight trend \(ValueText.signed(rate, decimals: 2))%/week measured, but the plan names no goal with a target rate; calories unchanged by the trend")
            return nil
        }
        let trend: WeightTrend = rate > target.upperBound ? .above : (rate < target.lowerBound ? .below : .onTarget)
        let days = readiness.weightTrend?.windowDays ?? 14
        notes.append("weight trend \(ValueText.signed(rate, decimals: 2))%/week over \(state.weighIns.count) weigh-ins in \(days) days; "
            + "target for \(goal) \(ValueText.number(target.lowerBound, decimals: 2)) to \(ValueText.number(target.upperBound, decimals: 2))%/week: "
            + trend.rawValue.replacingOccurrences(of: "_", with: " "))
        return trend
    }

    /// Days (or weeks × 7) since the last calorie change, when it is inside the trend window.
    func daysSinceRecentKcalChange() -> Int? {
        guard let last = state.lastKcalChange else { return nil }
        let window = readiness.weightTrend?.windowDays ?? 14
        let days: Int?
        if let then = last.date, let now = AdaptationEngine.latestDate(input) {
            days = now.ordinal - then.ordinal
        } else if let then = last.week, let now = input.week {
            days = (now - then) * 7
        } else {
            days = nil
        }
        guard let days, days < window else { return nil }
        return max(0, days)
    }

    /// The effective calorie band of an adapt step, by the plans' one calorie precedence (safety
    /// floors > pregnancy > goal band > adapt steps, `calorie_precedence` of rules/nutrition.yaml):
    /// the band and floor the precedence decided when the plan was made; for a plan from before
    /// it, the goal's band of `calories.<goal>.multiplier` times TDEE. Never below `floor` (the
    /// readiness rules' own floor). Each edge comes with the words the log uses for it.
    func effectiveCalorieBand(floor: Double?) -> (band: ClosedRange<Double>, low: String, high: String)? {
        let tdee = original.tdee ?? 0
        let name = goal.map { "the \(ValueText.label($0).lowercased()) band" } ?? "the goal's band"
        var band: ClosedRange<Double>
        var low: String
        var high: String
        var safety = floor ?? 0
        if let decided = original.calorieBounds {
            band = decided.band
            low = "\(name), \(ValueText.number(band.lowerBound.rounded(.up))) kcal"
            high = "\(name), \(ValueText.number(band.upperBound.rounded(.down))) kcal"
            safety = max(safety, decided.floor)
        } else if let goal, let multipliers = engine.calorieBands[goal], tdee > 0 {
            band = (tdee * multipliers.lowerBound)...(tdee * multipliers.upperBound)
            low = "\(name), \(ValueText.number(multipliers.lowerBound, decimals: 2)) × TDEE \(ValueText.number(tdee)) = \(ValueText.number(band.lowerBound.rounded(.up))) kcal"
            high = "\(name), \(ValueText.number(multipliers.upperBound, decimals: 2)) × TDEE \(ValueText.number(tdee)) = \(ValueText.number(band.upperBound.rounded(.down))) kcal"
        } else {
            return nil
        }
        band = band.lowerBound.rounded(.up)...max(band.lowerBound.rounded(.up), band.upperBound.rounded(.down))
        // A floor above the band's edge wins over it, as in the precedence.
        let floorKcal = safety.rounded(.up)
        if floorKcal > band.lowerBound {
            low = "the safety floor, \(ValueText.number(floorKcal)) kcal"
            if floorKcal >= band.upperBound { high = low }
            band = floorKcal...max(floorKcal, band.upperBound)
        }
        return (band, low, high)
    }
}
