@testable import RegimenLanguage
import Testing
@testable import RegimenRules

@Suite struct NotationTests {
    @Test(arguments: [
        ("8-12", 8.0, 12.0, true), ("8–12", 8, 12, true), ("8 - 12", 8, 12, true), ("10", 10, 10, true),
        ("0.80-0.90", 0.8, 0.9, false), ("-5--2", -5, -2, true), ("−20", -20, -20, true),
    ])
    func parsesRanges(text: String, lower: Double, upper: Double, integral: Bool) throws {
        let range = try NumberRange(parsing: text)
        #expect(range.lower == lower)
        #expect(range.upper == upper)
        #expect(range.isIntegral == integral)
        #expect(try NumberRange(parsing: range.description) == range)
    }

    @Test(arguments: [
        ("12-8", 3, "range runs backwards: 12 is above 8"),
        ("8-", 2, "expected the upper end of the range, found end of text"),
        ("a-b", 0, "expected a number, found 'a'"),
        ("8-12x", 4, "unexpected 'x' after the range"),
    ])
    func rejectsBadRanges(text: String, offset: Int, message: String) {
        #expect(throws: NotationError(message, at: offset)) { try NumberRange(parsing: text) }
    }

    @Test(arguments: [
        ("2.5kg", 2.5, QuantityUnit.kilograms, 2.5),
        ("5lb", 5, .pounds, 2.267_961_85),
        ("5 lbs", 5, .pounds, 2.267_961_85),
        ("2.5%", 2.5, .percent, 0.025),
        ("90s", 90, .seconds, 90),
        ("2min", 2, .minutes, 120),
        ("1.5h", 1.5, .hours, 5400),
    ])
    func parsesQuantities(text: String, amount: Double, unit: QuantityUnit, base: Double) throws {
        let quantity = try Quantity(parsing: text)
        #expect(quantity.amount.lower == amount)
        #expect(quantity.unit == unit)
        #expect(abs(quantity.baseValue - base) < 1e-9)
        #expect(try Quantity(parsing: quantity.description) == quantity)
    }

    @Test func quantityRanges() throws {
        #expect(try Quantity(parsing: "2.5-5%") == Quantity(try NumberRange(parsing: "2.5-5"), .percent))
        #expect(try Quantity(parsing: "60s-90s") == Quantity(try NumberRange(parsing: "60-90"), .seconds))
        #expect(throws: NotationError("the range mixes units 'kg' and 'lb'", at: 7)) { try Quantity(parsing: "60kg-70lb") }
        #expect(throws: NotationError("unknown unit 'kilo'; expected kg, lb, %, s, min, h", at: 1)) { try Quantity(parsing: "5kilo") }
        #expect(throws: NotationError("unknown unit 'mn' (did you mean 'min'?); expected kg, lb, %, s, min, h", at: 1)) { try Quantity(parsing: "2mn") }
        #expect(throws: NotationError("expected a unit (kg, lb, %, s, min, h)", at: 2)) { try Quantity(parsing: "12") }
    }

    @Test(arguments: [
        ("3x8-12 @RIR 1-3", "3x8-12 @RIR 1-3"),
        ("3x8-12 @RIR1-3", "3x8-12 @RIR 1-3"),
        ("3×8–12 @RIR2", "3x8-12 @RIR 2"),
        ("4x5 80%", "4x5 80%"),
        ("5x5 60kg @RPE 8", "5x5 @RPE 8 60kg"),
        ("1x5+", "1x5+"),
        ("3x10 @8", "3x10 @RPE 8"),
        ("3-4x6-10 @rir 1-2 rest 2min", "3-4x6-10 @RIR 1-2 rest 2min"),
    ])
    func parsesPrescriptions(text: String, canonical: String) throws {
        let prescription = try Prescription(parsing: text)
        #expect(prescription.description == canonical)
        #expect(try Prescription(parsing: canonical) == prescription)
    }

    @Test func prescriptionFields() throws {
        let p = try Prescription(parsing: "3x8-12 @RIR 1-3 2.5kg rest 90s")
        #expect(p.sets == NumberRange(3, 3))
        #expect(p.reps == NumberRange(8, 12))
        #expect(p.effort == Effort(.rir, try NumberRange(parsing: "1-3")))
        #expect(p.load == Quantity(try NumberRange(parsing: "2.5"), .kilograms))
        #expect(p.rest?.baseValue == 90)
    }

    @Test(arguments: [
        ("3/8-12", 1, "expected 'x' between sets and reps, found '/'"),
        ("3x12-8", 5, "range runs backwards: 12 is above 8"),
        ("3x8-12 @RIR 12", 12, "RIR must be between 0 and 10"),
        ("3x8-12 @HR 3", 8, "expected 'RIR', 'RPE' or a number after '@', found 'H'"),
        ("3x8-12+", 6, "'+' (as many reps as possible) follows a single rep count, not a range"),
        ("0x8", 0, "sets must be whole numbers of at least 1"),
        ("3x8.5", 2, "reps must be whole numbers of at least 1"),
        ("3x8 90s", 4, "a load is a mass or a percentage; write a rest as 'rest 90s'"),
        ("3x8 rest 5kg", 9, "rest must be a time (s, min), not 'kg'"),
        ("3x8 @RIR 2 @RIR 3", 11, "the effort is given twice"),
        ("3x8 tempo", 4, "unexpected 't'; expected '@RIR', '@RPE', a load or 'rest'"),
    ])
    func rejectsBadPrescriptions(text: String, offset: Int, message: String) {
        #expect(throws: NotationError(message, at: offset)) { try Prescription(parsing: text) }
    }

    @Test func selectorsPickPointsWithinTheRange() throws {
        let range = try NumberRange(parsing: "6-15")
        #expect(try RangeSelector.low.select(in: range) == 6)
        #expect(try RangeSelector.middle.select(in: range) == 10.5)
        #expect(try RangeSelector.middle.selectWhole(in: range) == 10)
        #expect(try RangeSelector.high.select(in: range) == 15)

        let context = DecodingContext()
        let document = try #require(YAMLReader.read("a: low + (high - low) * readiness / 5\nb: high * 2\n", file: "s.yaml").document)
        let a = try #require(document["a"])
        let b = try #require(document["b"])
        let byReadiness = try #require(RangeSelector.decode(from: a, at: DecodingPath(), in: context, variables: ["readiness"]))
        #expect(try byReadiness.select(in: range, bindings: ["readiness": .int(5)]) == 15)
        #expect(try byReadiness.select(in: range, bindings: ["readiness": .int(0)]) == 6)
        let beyond = try #require(RangeSelector.decode(from: b, at: DecodingPath(), in: context))
        #expect(try beyond.select(in: range) == 15, "clamped into the range")
        #expect(context.diagnostics.isEmpty)
    }

    @Test func notationInRuleFilesIsLocatedAtTheCharacter() throws {
        let yaml = """
        block:
          prescription: 3x8-12 @RIR 1-13
          rest: "2 mins"
          load: 5kgz
          structured: { sets: 3, reps: 12-8 }
          other: { sets: 3, reps: 8, rir: 2, rpe: 8 }
        """
        let document = try #require(YAMLReader.read(yaml, file: "n.yaml").document)
        let context = DecodingContext()
        let block = try #require(document["block"])
        _ = context.mapping(block, at: DecodingPath(subject: "block 'squat'")) { map in
            _ = map.required("prescription", as: Prescription.self)
            _ = map.node("rest").flatMap { Quantity.decode(from: $0, at: map.path.appending(key: "rest"), in: context, dimension: .mass) }
            _ = map.required("load", as: Quantity.self)
            _ = map.required("structured", as: Prescription.self)
            _ = map.required("other", as: Prescription.self)
            return 0
        }
        #expect(context.diagnostics.sorted(by: Diagnostic.sortKey).map(\.description) == [
            "n.yaml:2:29: error: block 'squat': 'prescription': RIR must be between 0 and 10",
            "n.yaml:3:9: error: block 'squat': 'rest' must be a mass (kg, lb), not '2min'",
            "n.yaml:4:10: error: block 'squat': 'load': unknown unit 'kgz' (did you mean 'kg'?); expected kg, lb, %, s, min, h",
            "n.yaml:5:35: error: block 'squat': 'structured.reps': range runs backwards: 12 is above 8",
            "n.yaml:6:38: error: block 'squat': give either 'rir' or 'rpe', not both",
        ])
    }
}
