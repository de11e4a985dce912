import RegimenLanguage
import Foundation

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

    /// An adapt step's calories by the plans' one calorie precedence (``CaloriePrecedence``,
    /// `calorie_precedence` of rules/nutrition.yaml: safety floors > pregnancy > goal band > the
    /// step), with the decision the plan was made with (its goal band and highest floor hold while
    /// the client's facts do), else the decision a plan without one is held to. `nil` without the
    /// nutrition rules, or for a plan with neither a recorded decision nor its TDEE and BMR.
    func calorieDecision(proposed: Double) -> (decision: CaloriePrecedence.Decision, planned: CaloriePrecedence.Decision, precedence: CaloriePrecedence)? {
        guard let precedence = engine.calories else { return nil }
        var planned = original.plannedCalories
        if planned == nil, let tdee = original.tdee, let bmr = original.bmr {
            planned = precedence.unrecordedDecision(goal: goal, tdee: tdee, bmr: bmr)
        }
        guard let planned else { return nil }
        return (precedence.resolveStep(proposed: proposed, planned: planned, goal: goal, bmr: original.bmr), planned, precedence)
    }
}
