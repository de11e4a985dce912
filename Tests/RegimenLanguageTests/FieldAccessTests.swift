import Testing
@testable import RegimenLanguage

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
        texts += ["!v.b", "!v.i", "!v.n", "!v.missing", "!(v.b)"]
        var disagreements: [String] = []
        for text in texts where Self.outcome(text, traced: false) != Self.outcome(text, traced: true) {
            disagreements.append("\(text): \(Self.outcome(text, traced: false)) vs \(Self.outcome(text, traced: true))")
        }
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
