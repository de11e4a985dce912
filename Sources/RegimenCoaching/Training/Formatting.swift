import RegimenLanguage
import Foundation
/// Text forms the seed's contract uses for ranges: an en dash between bounds (`"6–10"`).
enum RangeText {
    static func of(_ range: ClosedRange<Int>, unit: String = "") -> String {
        range.lowerBound == range.upperBound
            ? "\(range.lowerBound)\(unit)" : "\(range.lowerBound)–\(range.upperBound)\(unit)"
    }

    /// A coach-written hold such as `30-45s` with its hyphen shown as the seed's en dash.
    static func hold(_ text: String) -> String {
        text.replacingOccurrences(of: "-", with: "–")
    }

    /// A Double as a short number: `8`, `8.5`.
    static func number(_ value: Double) -> String { NumberText.tenths(value) }
}
