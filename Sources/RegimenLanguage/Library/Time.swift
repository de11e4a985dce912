/// Timestamp and duration arithmetic with range checks (results outside Firestore's range are errors).
enum Time {
    static func invalidTimestamp(_ span: SourceSpan?) -> EvaluationError {
        EvaluationError(.overflow, "Timestamp is not valid. Seconds must be in range [-62,135,596,800, +253,402,300,799]. Nanos must be in range [0, +999,999,999].", span: span)
    }

    static func negated(_ d: DurationValue) -> DurationValue { DurationValue(seconds: -d.seconds, nanos: -d.nanos) }

    static func normalized(seconds: Int64, nanos: Int64, _ span: SourceSpan) throws(EvaluationError) -> (Int64, Int32) {
        var s = seconds
        var n = nanos
        let (carry, remainder) = n.quotientAndRemainder(dividingBy: 1_000_000_000)
        let (sum, overflow) = s.addingReportingOverflow(carry)
        guard !overflow else { throw EvaluationError.overflow(span) }
        s = sum
        n = remainder
        return (s, Int32(n))
    }

    static func add(_ a: DurationValue, _ b: DurationValue, _ span: SourceSpan) throws(EvaluationError) -> DurationValue {
        let (s, overflow) = a.seconds.addingReportingOverflow(b.seconds)
        guard !overflow else { throw EvaluationError.overflow(span) }
        var (seconds, nanos) = try normalized(seconds: s, nanos: Int64(a.nanos) + Int64(b.nanos), span)
        // Keep the sign of seconds and nanos consistent.
        if seconds > 0 && nanos < 0 {
            seconds -= 1
            nanos += 1_000_000_000
        } else if seconds < 0 && nanos > 0 {
            seconds += 1
            nanos -= 1_000_000_000
        }
        return DurationValue(seconds: seconds, nanos: nanos)
    }

    static func add(_ t: Timestamp, _ d: DurationValue, _ span: SourceSpan) throws(EvaluationError) -> Timestamp {
        let (s, overflow) = t.seconds.addingReportingOverflow(d.seconds)
        guard !overflow else { throw EvaluationError.overflow(span) }
        var (seconds, nanos) = try normalized(seconds: s, nanos: Int64(t.nanos) + Int64(d.nanos), span)
        if nanos < 0 {
            seconds -= 1
            nanos += 1_000_000_000
        }
        let result = Timestamp(seconds: seconds, nanos: nanos)
        guard result.isInRange else { throw invalidTimestamp(span) }
        return result
    }

    static func difference(_ a: Timestamp, _ b: Timestamp, _ span: SourceSpan) throws(EvaluationError) -> DurationValue {
        try add(DurationValue(seconds: a.seconds, nanos: a.nanos), DurationValue(seconds: -b.seconds, nanos: -b.nanos), span)
    }

    /// `duration.value(n, unit)`.
    static func duration(_ amount: Int64, unit: String, _ span: SourceSpan) throws(EvaluationError) -> DurationValue {
        let nanosPerUnit: Int64
        switch unit {
        case "w": nanosPerUnit = 7 * 86_400 * 1_000_000_000
        case "d": nanosPerUnit = 86_400 * 1_000_000_000
        case "h": nanosPerUnit = 3_600 * 1_000_000_000
        case "m": nanosPerUnit = 60 * 1_000_000_000
        case "s": nanosPerUnit = 1_000_000_000
        case "ms": nanosPerUnit = 1_000_000
        case "ns": nanosPerUnit = 1
        default:
            // The emulator's own wording for an unknown unit.
            throw EvaluationError(.invalidArgument, "Invalid regular expression pattern. Pattern: \(unit).", span: span)
        }
        let (total, overflow) = amount.multipliedReportingOverflow(by: nanosPerUnit)
        guard !overflow, let value = DurationValue(totalNanos: total) else { throw EvaluationError.overflow(span) }
        return value
    }
}
