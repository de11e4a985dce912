@testable import RegimenKit
import Testing

/// The impact report writes any before/after number and any relative change without trapping and
/// the same way every time: ±∞, NaN, ±0, subnormal and magnitudes far past Int64 included (a
/// rule edit can move a value from 1e-300 to 1e300).
@Suite struct ImpactNumberTextTests {
    static let values: [Double] = [0, -0.0, 0.04, 0.05, 0.95, 1, -1, 2.5, 99.95, 1e15, -1e15, 9.3e18, 1e300, -1e300,
                                   .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude]

    @Test func everyNumberAndPercentIsWritten() {
        for value in Self.values {
            let percent = PlanFacts.percentText(value)
            // A finite change reads back as itself: whole percents, tenths below 1%.
            if value.isFinite {
                let written = Double(String(percent.dropFirst().dropLast()))
                #expect(written != nil, "\(value): \(percent)")
                if let written { #expect(abs(written - abs(value)) <= max(abs(value) < 1 ? 0.05 : 0.5, abs(value) * 1e-9) + 1e-9, "\(value): \(percent)") }
            }
            #expect(percent.hasPrefix(value < 0 ? "−" : "+") && percent.hasSuffix("%"), "\(value): \(percent)")
            #expect(!PlanFacts.number(value).isEmpty)
        }
        #expect(PlanFacts.percentText(-4.6) == "−5%")
        #expect(PlanFacts.percentText(0.44) == "+0.4%")
        #expect(PlanFacts.number(2137) == "2137")
        #expect(PlanFacts.number(7.25) == "7.3")
        #expect(PlanFacts.number(nil) == "none")
    }
}
