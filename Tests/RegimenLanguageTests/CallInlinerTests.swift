import Testing
@testable import RegimenLanguage
import OrderedCollections

/// Untraced evaluation inlines `let`-free helpers called with plain reads; traced evaluation
/// (explanations, coverage) makes every call. Both must give the same value or the same error,
/// at the same place, under tight step and call-depth limits too.
@Suite struct CallInlinerTests {
    static let functions: [FunctionSource] = [
        FunctionSource(name: "isSignedIn", parameters: [], result: SourceText("request.auth != null")),
        FunctionSource(name: "isOwner", parameters: ["u"], result: SourceText("isSignedIn() && request.auth.uid == u")),
        FunctionSource(name: "isNumber", parameters: ["v"], result: SourceText("v is int || v is float")),
        FunctionSource(name: "positive", parameters: ["v"], result: SourceText("isNumber(v) && v > 0")),
        FunctionSource(name: "either", parameters: ["a", "b"], result: SourceText("a.x > 0 ? a : b")),
        FunctionSource(name: "ignores", parameters: ["a"], result: SourceText("true")),
        FunctionSource(name: "depth3", parameters: ["v"], result: SourceText("positive(v)")),
        FunctionSource(name: "depth4", parameters: ["v"], result: SourceText("depth3(v) || depth3(v.x)")),
        FunctionSource(name: "withLet", parameters: ["v"], lets: [("y", SourceText("v.x"))], result: SourceText("positive(y) && isNumber(v.x)")),
    ]

    static let expressions = [
        "isOwner(v.uid)", "isOwner(v.missing)", "isOwner('alice')", "positive(v.x)", "positive(v.s)", "positive(v.missing)",
        "positive(v.x + 1)", "either(v, v.inner).x", "either(v.inner, v).x", "either(v.missing, v).x", "ignores(v.missing)",
        "ignores(1 / 0)", "depth4(v.inner)", "depth4(v)", "withLet(v)", "withLet(v.inner)", "isNumber(v.x) && positive(v.inner.x)",
        "!isOwner(v.uid) || positive(v.s)",
    ]

    static let requests: [Value] = [
        .map(["auth": .map(["uid": .string("alice")])]),
        .map(["auth": .null]),
        .map([:]),
    ]

    static let variables: [Value] = [
        .map(["uid": .string("alice"), "x": .int(3), "s": .string("3"), "inner": .map(["x": .float(-1.5)])]),
        .map(["uid": .string("bob"), "x": .int(-2), "inner": .map(["x": .int(4), "uid": .null])]),
        .string("not a map"),
    ]

    static let limits = [
        EvaluationLimits.default, EvaluationLimits(maxSteps: 3), EvaluationLimits(maxSteps: 6), EvaluationLimits(maxCallDepth: 1),
        EvaluationLimits(maxCallDepth: 2), EvaluationLimits(maxCallDepth: 3),
    ]

    static func outcome(_ expression: CompiledExpression, _ slots: [Value], _ limits: EvaluationLimits, traced: Bool) -> String {
        do {
            return "\(try expression.evaluate(slots: slots, limits: limits, tracer: traced ? RecordingTracer() : nil))"
        } catch {
            return "\(error.code): \(error.message) @\(error.span.map { "\($0.start)" } ?? "-")"
        }
    }

    @Test func inlinedCallsAgreeWithRealCalls() throws {
        let environment = try ExpressionEnvironment(variables: ["request", "v"], functions: Self.functions)
        var disagreements: [String] = []
        var compared = 0
        for text in Self.expressions {
            let expression = try CompiledExpression(text, environment: environment)
            for request in Self.requests {
                for variable in Self.variables {
                    for limits in Self.limits {
                        let inlined = Self.outcome(expression, [request, variable], limits, traced: false)
                        let called = Self.outcome(expression, [request, variable], limits, traced: true)
                        compared += 1
                        if inlined != called { disagreements.append("\(text) with \(variable), \(limits): \(inlined) vs \(called)") }
                    }
                }
            }
        }
        #expect(compared == 18 * 3 * 3 * 6)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    /// Which calls are inlined: plain-read arguments into `let`-free functions only.
    @Test(arguments: [
        ("isOwner(v.uid)", true), ("positive(v.x)", true), ("ignores(1 / 0)", false), ("positive(v.x + 1)", false),
        ("withLet(v)", false), ("either(v, v.inner)", true),
    ])
    func inliningAppliesToPlainReadsOfLetFreeFunctions(_ text: String, _ inlined: Bool) throws {
        let environment = try ExpressionEnvironment(variables: ["request", "v"], functions: Self.functions)
        let expression = try CompiledExpression(text, environment: environment)
        let result = CallInliner(functions: expression.functions).inline(expression.program.root, callerParameters: 0)
        let isInlined = if case .inlined = result { true } else { false }
        #expect(isInlined == inlined)
    }
}
