import Testing
@testable import RegimenLanguage
import OrderedCollections

@Suite struct MethodReceiverTests {
    /// The run-time receiver check and the compiler's receiver table must agree for every method
    /// and every kind of value, or a method would compile and then be "not found" (or the reverse).
    @Test func runTimeCheckAgreesWithTheCompilersTable() {
        let samples: [Value] = [
            .null, .bool(true), .int(1), .float(1.5), .string("a"), .bytes([1]), .list([]), .map([:]),
            .set(ValueSet([])), .path(PathValue(segments: ["a"])), .timestamp(Timestamp(seconds: 0)),
            .duration(DurationValue(seconds: 1)), .latlng(LatLng(latitude: 0, longitude: 0)), .mapDiff(MapDiff(left: [:], right: [:])),
        ]
        for method in Method.allCases {
            for value in samples {
                #expect(method.applies(to: value) == method.receivers.contains(value.typeName), "\(method.rawValue) on \(value.typeName)")
            }
        }
    }

    @Test func stringEqualityIsExact() {
        // Precomposed é and e + combining acute are canonically equivalent but not equal in Java.
        #expect(Value.string("\u{E9}") != Value.string("e\u{301}"))
        #expect(Value.string("abc") == Value.string("abc"))
    }
}
