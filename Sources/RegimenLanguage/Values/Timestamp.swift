import Foundation

/// An instant in UTC with nanosecond precision.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since the Unix epoch.
    public var seconds: Int64
    /// Nanoseconds within the second, 0..<1_000_000_000.
    public var nanos: Int32

    /// A timestamp `seconds` after the Unix epoch plus `nanos` nanoseconds.
    public init(seconds: Int64, nanos: Int32 = 0) {
        self.seconds = seconds
        self.nanos = nanos
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }

    /// Firestore's valid range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
    public static let minSeconds: Int64 = -62_135_596_800
    /// The latest second Firestore accepts (9999-12-31T23:59:59Z).
    public static let maxSeconds: Int64 = 253_402_300_799

    /// Whether the timestamp lies within Firestore's valid range.
    public var isInRange: Bool { seconds >= Self.minSeconds && seconds <= Self.maxSeconds }

    /// Civil date and time fields in UTC.
    public var components: (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (y, m, d) = Self.civil(fromDays: days)
        return (y, m, d, secondOfDay / 3600, (secondOfDay % 3600) / 60, secondOfDay % 60)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    static func isValidDate(year: Int64, month: Int64, day: Int64) -> Bool {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[Int(month - 1)]
    }

    /// RFC 3339 in UTC, with fractional seconds only when non-zero: `2024-01-01T00:00:00Z`.
    public var description: String {
        let c = components
        var text = String(format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld", c.year, c.month, c.day, c.hour, c.minute, c.second)
        if nanos != 0 {
            var fraction = String(format: "%09d", nanos)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    /// Parses RFC 3339 / ISO-8601 date-times (`2024-01-01T10:00:00Z`, offsets, fractions) and
    /// plain dates (`2024-01-01`, taken as midnight UTC). Returns `nil` for anything else.
    public init?(iso8601 text: String) {
        let scalars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= scalars.count else { return nil }
            var value: Int64 = 0
            for i in from..<(from + count) {
                let c = scalars[i]
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int64(c - 48)
            }
            return value
        }
        guard scalars.count >= 10, let year = number(0, 4), scalars[4] == 45, let month = number(5, 2),
              scalars[7] == 45, let day = number(8, 2), Self.isValidDate(year: year, month: month, day: day)
        else { return nil }
        var seconds = Self.days(year: year, month: month, day: day) * 86_400
        var nanos: Int32 = 0
        if scalars.count == 10 {
            self.init(seconds: seconds)
            return
        }
        guard scalars.count >= 19, scalars[10] == 84 || scalars[10] == 116 || scalars[10] == 32,
              let hour = number(11, 2), scalars[13] == 58, let minute = number(14, 2), scalars[16] == 58,
              let second = number(17, 2), hour < 24, minute < 60, second < 61
        else { return nil }
        seconds += hour * 3600 + minute * 60 + second
        var index = 19
        if index < scalars.count, scalars[index] == 46 {
            index += 1
            var digits = 0
            var fraction: Int64 = 0
            while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57 {
                if digits < 9 {
                    fraction = fraction * 10 + Int64(scalars[index] - 48)
                    digits += 1
                }
                index += 1
            }
            guard digits > 0 else { return nil }
            while digits < 9 {
                fraction *= 10
                digits += 1
            }
            nanos = Int32(fraction)
        }
        guard index < scalars.count else { return nil }
        if scalars[index] == 90 || scalars[index] == 122 {
            guard index + 1 == scalars.count else { return nil }
        } else if scalars[index] == 43 || scalars[index] == 45 {
            guard index + 6 == scalars.count, let oh = number(index + 1, 2), scalars[index + 3] == 58,
                  let om = number(index + 4, 2)
            else { return nil }
            let offset = oh * 3600 + om * 60
            seconds += scalars[index] == 43 ? -offset : offset
        } else {
            return nil
        }
        self.init(seconds: seconds, nanos: nanos)
    }
}

/// A signed span of time with nanosecond precision (the language's `duration`).
public struct DurationValue: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds; the sign of the duration.
    public var seconds: Int64
    /// Nanoseconds with the same sign as `seconds` (or zero), |nanos| < 1e9.
    public var nanos: Int32

    /// A duration of `seconds` plus `nanos` nanoseconds, both with the duration's sign.
    public init(seconds: Int64, nanos: Int32 = 0) {
        self.seconds = seconds
        self.nanos = nanos
    }

    /// A normalized duration from a total count of nanoseconds.
    public init?(totalNanos: Int64) {
        self.init(seconds: totalNanos / 1_000_000_000, nanos: Int32(totalNanos % 1_000_000_000))
    }

    /// Total nanoseconds, or `nil` on overflow.
    public var totalNanos: Int64? {
        let (s, o1) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (t, o2) = s.addingReportingOverflow(Int64(nanos))
        return o1 || o2 ? nil : t
    }

    public static func < (lhs: DurationValue, rhs: DurationValue) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }

    /// Protobuf-JSON style: `90s`, `1.5s`.
    public var description: String {
        if nanos == 0 { return "\(seconds)s" }
        var fraction = String(format: "%09d", abs(Int(nanos)))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = (seconds < 0 || nanos < 0) ? "-" : ""
        return "\(sign)\(abs(seconds)).\(fraction)s"
    }
}
