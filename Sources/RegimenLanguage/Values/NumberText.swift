import Foundation

/// How a `Double` is written for people, in one place: reports, messages and JSON values that
/// show a number go through these, so `90` never prints as `90.0` and no number (±∞, NaN,
/// `1e308`, `-0`) stops the process: every path checks before it converts.
public enum NumberText {
    /// Magnitudes from here on keep Double's own form (`1000000000000000.0`, `1e+16`): an `Int64` would hold them, but
    /// sixteen digits of a measured number are noise, and the exponent shows the scale.
    static let wholeLimit = 1e15

    /// `x` as an integer when it is finite, whole and below 10¹⁵ in magnitude; otherwise `nil`.
    /// (`-0` is `0`.)
    public static func whole(_ x: Double) -> Int64? {
        guard x.isFinite, x.magnitude < wholeLimit, x.rounded(.towardZero) == x else { return nil }
        return Int64(exactly: x)
    }

    /// Whole numbers without `.0` (`90`, `-3`), the rest as Swift prints them (`2.5`, `1e+16`,
    /// `inf`, `nan`).
    public static func plain(_ x: Double) -> String {
        whole(x).map { String($0) } ?? String(x)
    }

    /// Rounded half away from zero to one decimal place, then as ``plain(_:)``: `8`, `8.5`.
    public static func tenths(_ x: Double) -> String {
        plain((x * 10).rounded(.toNearestOrAwayFromZero) / 10)
    }

    /// Rounded half away from zero to at most `decimals` places, trailing zeros dropped: `5`,
    /// `2.5`, `313.5`. Not finite: as Swift prints it.
    public static func rounded(_ x: Double, decimals: Int) -> String {
        guard x.isFinite else { return String(x) }
        let places = max(0, min(decimals, 15))
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let rounded = (x * scale).rounded(.toNearestOrAwayFromZero) / scale
        if let whole = whole(rounded) { return String(whole) }
        var text = String(format: "%.\(places)f", rounded)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}

extension Value {
    /// A number as a rules value: `.int` when ``NumberText/whole(_:)`` says it is whole (so JSON
    /// shows `120`, not `120.0`), `.float` otherwise.
    public static func number(_ x: Double) -> Value {
        NumberText.whole(x).map(Value.int) ?? .float(x)
    }
}
