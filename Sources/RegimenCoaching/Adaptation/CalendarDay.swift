import RegimenLanguage

/// A `YYYY-MM-DD` date as a day number, for "the last 7 days".
struct CalendarDay: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    let ordinal: Int

    /// Only a plain date (ten characters); the language's timestamp parser validates it.
    init?(_ text: String) {
        guard text.utf8.count == 10, let midnight = Timestamp(iso8601: text) else { return nil }
        ordinal = Int(midnight.seconds / 86_400)
    }

    init(ordinal: Int) { self.ordinal = ordinal }

    static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.ordinal < rhs.ordinal }

    /// `YYYY-MM-DD` (the proleptic Gregorian calendar's civil date of the day number).
    var description: String {
        let z = ordinal + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ n: Int, _ width: Int) -> String {
            let text = String(n)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }
}
