import RegimenLanguage

/// A `YYYY-MM-DD` date as a day number, for "the last 7 days".
struct CalendarDay: Comparable, Hashable {
    let ordinal: Int

    /// Only a plain date (ten characters); the language's timestamp parser validates it.
    init?(_ text: String) {
        guard text.utf8.count == 10, let midnight = Timestamp(iso8601: text) else { return nil }
        ordinal = Int(midnight.seconds / 86_400)
    }

    static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.ordinal < rhs.ordinal }
}
