import Testing
@testable import RegimenLanguage

/// Conversions from `Double` give `nil` (or hold to the bounds) where `Int(x)` would stop the
/// process, over a grid of ordinary and extreme values.
@Suite struct CheckedConversionTests {
    static let grid: [Double] = [
        0, -0.0, 0.5, -0.5, 1.5, 2.5, 1e15, -1e15, 9.2e18, 9.223372036854775e18, 9.223372036854775807e18, -9.223372036854775808e18,
        -9.3e18, 1e19, -1e19, 1e308, -1e308, .greatestFiniteMagnitude, .infinity, -.infinity, .nan, .ulpOfOne, 4503599627370497,
    ]

    @Test func roundedConversionsAreNilExactlyWhenTheResultDoesNotFit() {
        for x in Self.grid {
            for rule in [FloatingPointRoundingRule.toNearestOrAwayFromZero, .up, .down, .towardZero] {
                let r = x.rounded(rule)
                let fits = r.isFinite && r >= -9.223372036854775808e18 && r < 9.223372036854775808e18
                #expect((x.roundedInt64(rule) != nil) == fits, "\(x) \(rule)")
                if fits { #expect(Double(x.roundedInt64(rule) ?? 0) == r) }
                let saturated = x.saturatingInt(rule)
                if x.isNaN { #expect(saturated == 0) } else if !fits { #expect(saturated == (r < 0 ? Int.min : Int.max)) }
                _ = x.plainText
            }
        }
        #expect(1e19.plainText == "1e+19" && 90.0.plainText == "90" && (-3.0).plainText == "-3" && 2.5.plainText == "2.5")
    }
}
