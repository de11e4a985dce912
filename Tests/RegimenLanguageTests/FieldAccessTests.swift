import Testing
@testable import RegimenLanguage
import OrderedCollections

/// `variable.field` and `parameter.field`, and their comparisons with a constant, run fused
/// (no closure between the read and the test) when untraced. Traced evaluation keeps one node per
/// operator, so the two must agree on every field type, constant and operator.
@Suite struct FieldAccessTests {
    static let fields: Value = .map([
        "i": .int(3), "f": .float(2.5), "s": .string("coach"), "e": .string("e\u{301}"), "b": .bool(true), "n": .null,
        "l": .list([.int(1)]), "m": .map(["k": .int(1)]),
    ])
    static let constants = ["3", "2", "2.5", "'coach'", "'\u{e9}'", "true", "null", "[1]"]
    static let operators = ["<", "<=", ">", ">=", "==", "!="]

    static func outcome(_ text: String, traced: Bool) -> Outcome {
        do {
            let env = try ExpressionEnvironment(
                variables: ["v"], functions: [FunctionSource(name: "viaParameter", parameters: ["p"], result: SourceText("p.i < 4 && p.s == 'coach'"))])
            let expression = try CompiledExpression(text, environment: env)
            let tracer: RecordingTracer? = traced ? RecordingTracer() : nil
            return .success(try expression.evaluate(slots: [fields], tracer: tracer))
        } catch let error as EvaluationError {
            return .failure("\(error.code): \(error.message)")
        } catch {
            return .failure(String(describing: error))
        }
    }

    @Test func fusedComparisonsAgreeWithTheGeneralOperators() {
        var texts: [String] = []
        for field in ["i", "f", "s", "e", "b", "n", "l", "m", "missing"] {
            for op in Self.operators {
                for constant in Self.constants {
                    texts.append("v.\(field) \(op) \(constant)")
                    // Not a plain field on the left: the constant-comparison shortcut still applies.
                    texts.append("v.\(field) * 2 \(op) \(constant)")
                }
            }
        }
        texts.append("viaParameter(v)")
        for field in ["i", "f", "s", "b", "n", "l", "m", "missing"] {
            for type in ["int", "float", "number", "string", "bool", "map", "list"] { texts.append("v.\(field) is \(type)") }
        }
        texts += ["!v.b", "!v.i", "!v.n", "!v.missing", "!(v.b)"]
        // A field of a field: the first is read in place, the second looked up as usual.
        texts += ["v.m.k", "v.m.missing", "v.n.k", "v.i.k", "v.missing.k", "v.m.k.deeper", "v.m.k == 1"]
        var disagreements: [String] = []
        for text in texts where Self.outcome(text, traced: false) != Self.outcome(text, traced: true) {
            disagreements.append("\(text): \(Self.outcome(text, traced: false)) vs \(Self.outcome(text, traced: true))")
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    /// A site remembers where it last found its field and next time tests the value there in
    /// place. Maps of changing shapes and types must still give the general operators' outcome.
    @Test func fieldsTestedInPlaceFollowChangingShapes() throws {
        let env = try ExpressionEnvironment(
            variables: ["v"], functions: [FunctionSource(name: "viaParameter", parameters: ["p"], result: SourceText("p.x == 'a' || p.x >= 2"))])
        let texts = [
            "v.x == 'a'", "v.x != 'a'", "v.x >= 2", "v.x < 2", "v.x in ['a', 'b']", "viaParameter(v)", "v.x == null", "v.x != null",
            // A field of a field (`request.auth.uid`) is read in place when both hints hit.
            "v.x.k", "v.x.k == 1", "v.x.j != null", "v.y.k",
        ]
        let shapes: [Value] = [
            .map(["x": .string("a"), "y": .int(1)]), .map(["x": .int(3), "y": .int(1)]), .map(["y": .string("a"), "x": .string("b")]),
            .map(["x": .float(2.5)]), .map(["y": .string("a")]), .map(["x": .string("e\u{301}")]), .map(["x": .int(1)]),
            .map(["x": .null]), .string("a"), .map(["x": .string("a")]),
            .map(["x": .map(["k": .int(1), "j": .null])]), .map(["y": .map(["k": .int(2)]), "x": .map(["j": .int(1), "k": .string("a")])]),
            .map(["x": .map(["j": .int(1)])]), .map(["x": .map(["k": .null])]), .map(["x": .list([.int(1)])]),
        ]
        var disagreements: [String] = []
        for text in texts {
            let expression = try CompiledExpression(text, environment: env)
            // Twice round, so each shape also meets a hint left by every other shape.
            for shape in shapes + shapes.reversed() + shapes {
                let fused = Self.describe { try expression.evaluate(slots: [shape]) }
                let traced = Self.describe { try expression.evaluate(slots: [shape], tracer: RecordingTracer()) }
                if fused != traced { disagreements.append("\(text) on \(shape): \(fused) vs \(traced)") }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    static func describe(_ body: () throws -> Value) -> String {
        do { return "\(try body())" } catch let error as EvaluationError { return "\(error.code): \(error.message)" } catch { return "\(error)" }
    }

    /// `x OP int`, `x in [constants]` and `x.size()` have shortcuts in traced and untraced
    /// evaluation alike; the same operation with the constant in a field takes the general path.
    @Test func constantShortcutsAgreeWithTheGeneralOperators() throws {
        let bounds: [Int64] = [2, 0, -1, .max, .min]
        let lists: [String] = ["['coach', 'x']", "['coach', 3]", "[]", "[1, 2.5]", "[true, null, [1]]", "['\u{e9}']"]
        var variable = Self.fields.mapValue ?? [:]
        for (index, bound) in bounds.enumerated() { variable["k\(index)"] = .int(bound) }
        variable["big"] = .int(.max)
        variable["small"] = .int(.min)
        var pairs: [(shortcut: String, general: String)] = []
        for field in ["i", "f", "s", "b", "n", "l", "m", "missing", "big", "small"] {
            for op in ["+", "-", "*", "/", "%"] {
                for (index, bound) in bounds.enumerated() {
                    pairs.append(("v.\(field) \(op) \(bound == .min ? "(-9223372036854775807 - 1)" : String(bound))", "v.\(field) \(op) v.k\(index)"))
                }
            }
        }
        for (index, list) in lists.enumerated() {
            variable["list\(index)"] = try CompiledExpression(list).evaluate([:])
            for field in ["i", "f", "s", "e", "b", "n", "l", "missing"] {
                pairs.append(("v.\(field) in \(list)", "v.\(field) in v.list\(index)"))
            }
        }
        let slots: [Value] = [.map(variable)]
        let env = try ExpressionEnvironment(variables: ["v"])
        func outcome(_ text: String, traced: Bool) -> Outcome {
            do {
                return .success(try CompiledExpression(text, environment: env).evaluate(slots: slots, tracer: traced ? RecordingTracer() : nil))
            } catch let error as EvaluationError {
                return .failure("\(error.code): \(error.message)")
            } catch {
                return .failure(String(describing: error))
            }
        }
        var disagreements: [String] = []
        for (shortcut, general) in pairs {
            // Compared as text: NaN (`v.f % 0`) is not equal to itself.
            for traced in [false, true] where "\(outcome(shortcut, traced: traced))" != "\(outcome(general, traced: traced))" {
                disagreements.append("\(shortcut) (traced: \(traced)): \(outcome(shortcut, traced: traced)) vs \(outcome(general, traced: traced))")
            }
        }
        for field in ["i", "f", "s", "e", "b", "n", "l", "m", "missing"] {
            let receiver = variable[field]
            let expected: Outcome
            do throws(EvaluationError) {
                guard let receiver else { throw EvaluationError.undefinedProperty(field, nil) }
                expected = .success(try Method.size.apply(to: receiver, [], SourceSpan(start: 0, end: 0), .default))
            } catch {
                expected = .failure("\(error.code): \(error.message)")
            }
            for traced in [false, true] where outcome("v.\(field).size()", traced: traced) != expected {
                disagreements.append("v.\(field).size() (traced: \(traced)): \(outcome("v.\(field).size()", traced: traced)) vs \(expected)")
            }
        }
        #expect(pairs.count == 298)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test(arguments: [
        ("v.i >= 3", Outcome.success(.bool(true))),
        ("v.f > 2", .success(.bool(true))),
        ("v.i == 3.0", .success(.bool(true))),
        ("v.s == 'coach'", .success(.bool(true))),
        // Exact scalars: a decomposed é is not the precomposed one.
        ("v.e == '\u{e9}'", .success(.bool(false))),
        ("v.s < 3", .failure("unsupported-operation: Unsupported operation error. Received: string < int.")),
        ("v.missing == 1", .failure("undefined-property: Property missing is undefined on object.")),
        ("viaParameter(v)", .success(.bool(true))),
        ("!v.b", .success(.bool(false))),
        ("!v.i", .failure("unsupported-operation: Unsupported operation error. Received: !int.")),
    ])
    func fieldComparisons(_ text: String, _ expected: Outcome) {
        #expect(Self.outcome(text, traced: false) == expected)
    }
}
