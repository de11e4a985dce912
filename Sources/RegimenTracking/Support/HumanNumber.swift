import Foundation

/// A number as a person writes it: whole numbers without `.0` (`7`), others with at most 12
/// significant digits, so binary rounding noise disappears (`2.8`, not `2.8000000000000003`).
public func humanNumber(_ number: Double) -> String {
    guard number.isFinite else { return number.isNaN ? "NaN" : (number > 0 ? "Infinity" : "-Infinity") }
    if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
    return String(format: "%.12g", number)
}
