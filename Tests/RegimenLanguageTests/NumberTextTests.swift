import Foundation
@testable import RegimenLanguage
import RegimenTestSupport
import Testing

/// The one number formatter, over a grid of hard values and seeded random ones: it never traps,
/// answers the same every time, reads back as the number it wrote, and shows whole numbers
/// without `.0`.
struct NumberTextTests {
    /// Edges by hand (±∞, NaN, ±0, the whole-number limit either side, Int64's edge, subnormals)
    /// plus seeded values across every exponent.
    static let grid: [Double] = {
        var values: [Double] = [
            .infinity, -.infinity, .nan, 0, -0.0, 1, -1, 0.1, 0.5, -0.5, 2.5, -2.5, 1.0 / 3, 313.456, 8.05, 0.95,
            1e15, -1e15, 1e15 - 1, -(1e15 - 1), 999_999_999_999_999.5, 9.2e18, -9.2e18, 9.3e18, 1e19, 1e300, -1e308,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
            .leastNormalMagnitude, 1e-300, 0.000_001, 123_456_789.125,
        ]
        var generator = SeededGenerator(seed: 0x4E55_4D42)
        for _ in 0..<400 {
            values.append(Double(bitPattern: generator.next()))
            let exponent = Double(Int.random(in: -20...20, using: &generator))
            values.append(Double.random(in: -1...1, using: &generator) * pow(10, exponent))
            values.append(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 8)
        }
        return values
    }()

    @Test("whole: exactly the finite whole numbers below 10^15, and the same number")
    func wholeNumbers() {
        for x in Self.grid {
            let expectWhole = x.isFinite && x.rounded() == x && abs(x) < 1e15
            let whole = NumberText.whole(x)
            #expect((whole != nil) == expectWhole, "\(x)")
            if let whole { #expect(Double(whole) == x, "\(x)") }
        }
    }

    @Test("plain: deterministic, reads back as the same number, whole numbers without a point")
    func plainReadsBack() {
        for x in Self.grid {
            let text = NumberText.plain(x)
            #expect(text == NumberText.plain(x))
            #expect(x.plainText == text)
            if x.isNaN {
                #expect(text == "nan")
            } else {
                #expect(Double(text) == x, "\(x) → \(text)")
            }
            if NumberText.whole(x) != nil { #expect(!text.contains(".") && !text.contains("e"), "\(x) → \(text)") }
        }
        #expect(NumberText.plain(-0.0) == "0")
        #expect(NumberText.plain(90) == "90")
        #expect(NumberText.plain(2.5) == "2.5")
        #expect(NumberText.plain(1e16) == "1e+16")
        #expect(NumberText.plain(-.infinity) == "-inf")
    }

    @Test("rounded: within half a unit of the last place, no trailing zeros, never traps", arguments: [0, 1, 2, 3, -1, 40])
    func roundedToPlaces(decimals: Int) {
        let places = max(0, min(decimals, 15))
        for x in Self.grid {
            let text = NumberText.rounded(x, decimals: decimals)
            #expect(text == NumberText.rounded(x, decimals: decimals))
            guard x.isFinite else {
                #expect(text == String(x))
                continue
            }
            if text.contains(".") { #expect(!text.hasSuffix("0") && !text.hasSuffix("."), "\(x) → \(text)") }
            guard abs(x) < 1e12, let back = Double(text) else { continue }
            let unit = pow(10, -Double(places))
            #expect(abs(back - x) <= unit / 2 + abs(x) * 1e-15 + 1e-300, "\(x) to \(decimals) → \(text)")
        }
        #expect(NumberText.rounded(313.456, decimals: 2) == "313.46")
        #expect(NumberText.rounded(2.5, decimals: 0) == "3")
        #expect(NumberText.rounded(-2.5, decimals: 0) == "-3")
        #expect(NumberText.rounded(5.001, decimals: 2) == "5")
    }

    @Test("tenths: one decimal at most, half away from zero")
    func tenths() {
        for x in Self.grid {
            let text = NumberText.tenths(x)
            #expect(text == NumberText.tenths(x))
            if let dot = text.firstIndex(of: "."), !text.contains("e") { #expect(text[dot...].count <= 2, "\(x) → \(text)") }
        }
        #expect(NumberText.tenths(8.25) == "8.3")
        #expect(NumberText.tenths(-8.25) == "-8.3")
        #expect(NumberText.tenths(7.96) == "8")
    }

    @Test("Value.number: .int for whole numbers, .float (the same number) otherwise, ±∞ included")
    func valueNumber() {
        for x in Self.grid {
            switch Value.number(x) {
            case .int(let whole): #expect(Double(whole) == x && NumberText.whole(x) == whole)
            case .float(let float): #expect(NumberText.whole(x) == nil && (float == x || (x.isNaN && float.isNaN)))
            default: Issue.record("\(x) became neither an int nor a float")
            }
        }
        #expect(Value.number(.infinity) == .float(.infinity))
        #expect(Value.number(1e300) == .float(1e300))
    }
}
