package import RegimenLanguage

extension CompletionLog {
    /// The log as of `today` when given; otherwise as of its own `today`; otherwise, when it has a
    /// `startDate`, as of the calendar day `present` falls on (day 1 is the start date's UTC day),
    /// so a day still to come cannot count as done.
    package func asOf(today: Int?, present: Timestamp) -> CompletionLog {
        var log = self
        if let today { log.today = today }
        if log.today == nil, let start = log.startDate {
            log.today = Int(clamping: max(1, Self.utcDay(present) - Self.utcDay(start) + 1))
        }
        return log
    }

    /// Whole days since 1970-01-01 UTC, rounding down for times before it.
    private static func utcDay(_ time: Timestamp) -> Int64 {
        time.seconds >= 0 ? time.seconds / 86_400 : (time.seconds - 86_399) / 86_400
    }
}
