/// Conversions from `Double` that never trap.
///
/// `Int(x)` stops the process when `x` is not finite or does not fit, and numbers from profiles,
/// plans, check-ins and rule files can be anything (`1e308`). Every conversion of such a number
/// goes through these and handles the `nil`.
extension Double {
    /// This number rounded by `rule`, when the result is finite and fits in an `Int64`.
    package func roundedInt64(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int64? {
        Int64(exactly: rounded(rule))
    }

    /// This number rounded by `rule`, when the result is finite and fits in an `Int`.
    package func roundedInt(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int? {
        Int(exactly: rounded(rule))
    }

    /// This number rounded by `rule`, held to `Int`'s range (NaN gives 0). For arithmetic on
    /// numbers already checked against their fields' ranges, where an out-of-range result can only
    /// come from a rule file's extreme value and must not stop the process.
    package func saturatingInt(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int {
        if isNaN { return 0 }
        return roundedInt(rule) ?? (self < 0 ? Int.min : Int.max)
    }

    /// This number as written in messages: whole numbers without `.0` (`90`, `-3`), the rest as
    /// Swift prints them (`2.5`, `1e+19`, `inf`).
    package var plainText: String { NumberText.plain(self) }
}
