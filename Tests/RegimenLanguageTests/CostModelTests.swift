import Foundation
import Testing
@testable import RegimenLanguage
import OrderedCollections

/// Issue 33: one node may touch whole collections and strings; every such operation is charged
/// in proportion to the sizes it touches (``Cost``), results are bounded before they are built,
/// and input values never reach arithmetic that can trap. Assertions are on counted work only.
@Suite("Cost model and checked arithmetic")
struct CostModelTests {
    static func expression(_ text: String, _ names: [String]) throws -> CompiledExpression {
        try CompiledExpression(text, environment: try ExpressionEnvironment(variables: names))
    }

    static func list(_ count: Int, offset: Int = 0) -> Value { .list((0..<count).map { .int(Int64($0 + offset)) }) }

    /// For every collection operation and size, the charge is at most a small multiple of the sizes
    /// touched: linear, never their product.
    @Test(arguments: [
        "a.hasAll(b)", "a.hasAny(b)", "a.hasOnly(b)", "a.removeAll(b)", "a.concat(b)", "a.toSet().intersection(b.toSet())",
        "a.toSet().difference(b.toSet())", "a.toSet().union(b.toSet())", "a.toSet().hasAll(b)", "a == b", "1 in a",
    ])
    func chargesAreLinearInTheSizesTouched(text: String) throws {
        let expression = try Self.expression(text, ["a", "b"])
        for size in [0, 1, 10, 1_000, 20_000] {
            let measured = expression.measure(slots: [Self.list(size), Self.list(size, offset: size / 2)])
            guard case .success = measured.outcome else {
                Issue.record("\(text) at \(size): \(measured.outcome)")
                continue
            }
            #expect(measured.cost <= 4 * (2 * size) + 8, "\(text) at \(size): \(measured.cost)")
        }
    }

    /// A call whose inputs are too large for the budget is refused, located, before the work.
    @Test(arguments: ["a.hasAll(b)", "a.hasOnly(b)", "a.removeAll(b)", "a.toSet().intersection(b.toSet())", "a.toSet().difference(b.toSet())"])
    func largeSetOperationsAreRefusedWithinTheBudget(text: String) throws {
        let expression = try Self.expression(text, ["a", "b"])
        let limits = EvaluationLimits(maxCost: 50_000)
        let measured = expression.measure(slots: [Self.list(40_000), Self.list(40_000, offset: 1)], limits: limits)
        guard case .failure(let error) = measured.outcome else {
            Issue.record("\(text) was not refused")
            return
        }
        #expect(error.message.contains("too costly"))
        #expect(error.span != nil)
        #expect(measured.cost <= limits.maxCost)
    }

    /// A chain of operations on one large value runs out of budget, however few its steps are.
    @Test func repeatedWholeValueWorkIsBounded() throws {
        let text = Array(repeating: "a == b", count: 100).joined(separator: " && ")
        let expression = try Self.expression(text, ["a", "b"])
        let measured = expression.measure(slots: [Self.list(50_000), Self.list(50_000)])
        guard case .failure(let error) = measured.outcome else {
            Issue.record("100 comparisons of 50,000-element lists were not refused")
            return
        }
        #expect(error.message.contains("too costly"))
        #expect(measured.cost <= EvaluationLimits.default.maxCost)
    }

    /// `replace('', 'z')` and `split('')` on a large string stop at the result limit instead of
    /// building every match first; the charge is the text's size.
    @Test func patternResultsAreBoundedBeforeTheyAreBuilt() throws {
        let text = Value.string(String(repeating: "a", count: 2_000_000))
        for source in ["s.replace('', 'z')", "s.split('')"] {
            let measured = try Self.expression(source, ["s"]).measure(slots: [text])
            guard case .failure(let error) = measured.outcome else {
                Issue.record("\(source) was not refused")
                continue
            }
            #expect(error.message.contains("exceeds the maximum"), "\(source): \(error.message)")
            #expect(measured.cost <= 2_000_000 / Cost.bytesPerUnit + 2)
        }
        // Within the limits the answers are the emulator's.
        #expect(try Self.expression("'abc'.split('')", []).evaluate([:]) == .list(["", "a", "b", "c"].map(Value.string)))
        #expect(try Self.expression("'a,b,,'.split(',')", []).evaluate([:]) == .list(["a", "b"].map(Value.string)))
        #expect(try Self.expression("',,'.split(',')", []).evaluate([:]) == .list([.string("")]))
        #expect(try Self.expression("'abc'.replace('', '-')", []).evaluate([:]) == .string("-a-b-c-"))
    }

    /// The slice trap: an end index of the smallest int64 is an error, not an overflow, for
    /// literals and input values alike.
    @Test(arguments: [Int64.min, Int64.min + 1, -5, 0, Int64.max])
    func slicesNeverTrap(end: Int64) throws {
        for base in [Value.list([.int(1), .int(2), .int(3)]), .string("abc")] {
            let measured = try Self.expression("x[0:n]", ["n", "x"]).measure(slots: [.int(end), base])
            guard case .failure(let error) = measured.outcome else {
                Issue.record("x[0:\(end)] did not fail")
                continue
            }
            #expect(error.message.hasPrefix("Index out of bound error."))
        }
        let literal = try Self.expression("[1,2,3][0:(-9223372036854775807 - 1)]", []).measure(slots: [])
        guard case .failure(let error) = literal.outcome else {
            Issue.record("the slice did not fail")
            return
        }
        #expect(error.message == "Index out of bound error. Index: [-9223372036854775808] , size: [3].")
    }

    /// Item 5, as the emulator decides (each case is also in the conformance table).
    @Test func semanticsSettledByTheEmulator() throws {
        func value(_ text: String) throws -> Value { try Self.expression(text, []).evaluate([:]) }
        #expect(try value("math.round(0.49999999999999994)") == .int(0))
        #expect(try value("math.round(4503599627370497.0)") == .int(4_503_599_627_370_497))
        #expect(try value("math.round(-2.5)") == .int(-2))
        #expect(try value("math.round(2.5)") == .int(3))
        #expect(try value("math.abs(-9223372036854775807 - 1)") == .int(.min))
        #expect(try value("(-9223372036854775807 - 1) / -1") == .int(.min))
        #expect(try value("1 in [1.0]") == .bool(false))
        #expect(try value("1 in [1.0].toSet()") == .bool(true))
        #expect(try value("[1.0] in [[1]].toSet()") == .bool(true))
        #expect(try value("9007199254740993 in [9007199254740992.0].toSet()") == .bool(false))
        #expect(try value("{'a': 1, 'a': 2}") == .map(["a": .int(2)]))
        // The emulator rejects exponent literals ("Unexpected 'e3'"); so does Regimen, located.
        for literal in ["1e3", "bmr * 1e18", "1.5E-3", "2e+5", "-1e308"] {
            #expect(throws: DiagnosticsError.self, "\(literal)") { _ = try Self.expression(literal, ["bmr"]) }
        }
        #expect(try value("float('1e3')") == .float(1000))
        #expect(try value("[1, 2].size() == 2") == .bool(true))
    }

    /// Hashed sets agree with the emulator's membership for every pair of a small grid of values
    /// (ints, floats, nested lists and maps): `x in s` equals "some element has the same set key".
    @Test func hashedSetMembershipMatchesElementwiseComparison() {
        let atoms: [Value] = [.int(1), .float(1), .float(1.5), .int(0), .float(-0.0), .string("1"), .null, .bool(true)]
        var values = atoms
        for a in atoms.prefix(5) { values.append(.list([a])); values.append(.map(["k": a])) }
        for element in values {
            for members in [values, Array(values.prefix(3)), []] {
                let set = ValueSet(members)
                let expected = members.contains { $0.setKey == element.setKey }
                #expect(set.contains(element) == expected, "\(element) in \(members)")
            }
        }
    }
}
