import Foundation
import OrderedCollections

/// A number as a person writes it: whole numbers without `.0` (`7`), others with at most 12
/// significant digits, so binary rounding noise disappears (`2.8`, not `2.8000000000000003`).
public func humanNumber(_ number: Double) -> String {
    guard number.isFinite else { return number.isNaN ? "NaN" : (number > 0 ? "Infinity" : "-Infinity") }
    if let whole = NumberText.whole(number) { return String(whole) }
    return String(format: "%.12g", number)
}

extension Value {
    /// The value with every float rounded to the 12 significant digits ``humanNumber(_:)`` shows,
    /// so JSON output prints `2.8`, not `2.8000000000000003`. Ints, strings and the rest are kept.
    public var roundedForPeople: Value {
        switch self {
        case .float(let number) where number.isFinite:
            return .float(Double(String(format: "%.12g", number)) ?? number)
        case .list(let items): return .list(items.map(\.roundedForPeople))
        case .map(let entries): return .map(entries.mapValues(\.roundedForPeople))
        default: return self
        }
    }
}
