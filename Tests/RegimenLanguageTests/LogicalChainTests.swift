import Testing
@testable import RegimenLanguage
import OrderedCollections

/// Runs of `&&` / `||` are evaluated as one flat chain, while traced evaluation (explanations)
/// keeps one node per operator. Both must give the same value or the same error for every mix
/// of true, false, failing and non-bool operands, however the run is parenthesised.
@Suite struct LogicalChainTests {
    /// Operands: decisive and non-decisive bools, two different errors, and a non-bool.
    static let operands = ["true", "false", "(1 / 0 == 1)", "m.missing", "1"]

    static func outcome(_ text: String, traced: Bool) -> Outcome {
        do {
            let env = try ExpressionEnvironment(variables: ["m"])
            let expression = try CompiledExpression(text, environment: env)
            let tracer: RecordingTracer? = traced ? RecordingTracer() : nil
            return .success(try expression.evaluate(slots: [.map([:])], tracer: tracer))
        } catch let error as EvaluationError {
            return .failure("\(error.code): \(error.message) @\(error.span.map { "\($0.start)" } ?? "-")")
        } catch {
            return .failure(String(describing: error))
        }
    }

    /// Every expression of three operands with each operator and both groupings.
    static var expressions: [String] {
        var out: [String] = []
        for a in operands {
            for b in operands {
                for c in operands {
                    for (first, second) in [("&&", "&&"), ("||", "||"), ("&&", "||"), ("||", "&&")] {
                        out.append("\(a) \(first) \(b) \(second) \(c)")
                        out.append("\(a) \(first) (\(b) \(second) \(c))")
                    }
                }
            }
        }
        return out
    }

    @Test func flatChainsAgreeWithNestedOperators() {
        var disagreements: [String] = []
        for text in Self.expressions {
            let flat = Self.outcome(text, traced: false)
            let nested = Self.outcome(text, traced: true)
            if flat != nested { disagreements.append("\(text): \(flat) vs \(nested)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(Self.expressions.count == 1_000)
    }

    @Test(arguments: [
        ("m.missing && false", Outcome.success(.bool(false))),
        ("m.missing || true", .success(.bool(true))),
        ("false && m.missing", .success(.bool(false))),
        ("1 && true && false", .success(.bool(false))),
        ("true && 1 && true", .failure("Type error. Received: [int]")),
        ("m.missing && true && (1 / 0 == 1)", .failure("Property missing is undefined on object.")),
    ])
    func errorsAreAbsorbedOnlyByADecisiveOperand(_ text: String, _ expected: Outcome) {
        #expect(run(text, ["m": .map([:])]) == expected)
    }
}
