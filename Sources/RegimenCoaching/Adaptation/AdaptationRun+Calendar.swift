/// Which check-ins make up the week: the calendar side of an adaptation.
extension AdaptationRun {
    /// Check-ins in date order (undated ones after, in input order).
    func orderedCheckIns() -> [CheckIn] {
        let indexed = input.checkIns.enumerated().map { ($0, $1, $1.date.flatMap(CalendarDay.init)) }
        return indexed.sorted { a, b in
            switch (a.2, b.2) {
            case (let x?, let y?): return x == y ? a.0 < b.0 : x < y
            case (nil, nil): return a.0 < b.0
            case (.some, nil): return true
            case (nil, .some): return false
            }
        }.map(\.1)
    }

    func latestCheckIn() -> CheckIn? { orderedCheckIns().last }

    /// The check-ins of the week: the 7 days up to the latest dated one, and undated ones.
    func windowCheckIns() -> [CheckIn] {
        let ordered = orderedCheckIns()
        let latestDay = ordered.compactMap { $0.date.flatMap(CalendarDay.init) }.max()
        return ordered.filter { checkIn in
            guard let day = checkIn.date.flatMap(CalendarDay.init), let latestDay else { return true }
            return day.ordinal > latestDay.ordinal - 7
        }
    }
}
