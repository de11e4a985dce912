import RegimenTestSupport
import Testing
@testable import RegimenLanguage
import OrderedCollections

/// `grants(slots:)` must answer exactly "does `evaluateCondition` return `.success(true)`?", for
/// every condition, every input and every step limit, while skipping what cannot change that.
@Suite struct GrantModeTests {
    static let functions = [
        FunctionSource(name: "owns", parameters: ["x"], lets: [("y", SourceText("x.a"))], result: SourceText("y == 1 && x.b == 'x'")),
        FunctionSource(name: "positive", parameters: ["n"], result: SourceText("n > 0 || n.missing")),
        FunctionSource(
            name: "firstIsOne", parameters: ["v"], lets: [("z", SourceText("v[0]")), ("w", SourceText("z + 1"))],
            result: SourceText("w == 2 || second(v)")),
        FunctionSource(name: "second", parameters: ["v"], result: SourceText("v.size() > 1 ? v[1] == 'a' : false")),
        FunctionSource(name: "valid", parameters: ["d"], lets: [("has", SourceText("d.a != null || d.b != null"))],
            result: SourceText("(!d.a || d.a is int && d.a >= 0) && has && (!d.b || d.b is string) && (!d.c || d.c.size() < 3)")),
        FunctionSource(name: "deep", parameters: ["d"], lets: [("i", SourceText("d.inner"))], result: SourceText("i.a == 1 || d.inner.b == 'x'")),
    ]

    static let atoms = [
        "true", "false", "m.a == 1", "m.b == 'x'", "m.missing == 1", "m.a", "!m.b", "!m.flag", "s.size() > 2", "owns(m)",
        "positive(m.a)", "positive(m.b)", "firstIsOne(l)", "second(l)", "valid(m)", "m.list[5] == 1", "m.a + 1 == 2",
        "m.a in [1, 2]", "'a' in l", "l[0] * 3 == 3", "null", "m.b > 1",
        // Fields of fields compared in place: present, absent, of a non-map, against a variable.
        "m.inner.a == 1", "m.inner.b != 'x'", "m.a.b == 1", "m.missing.a == null", "m.inner.b == s", "deep(m)",
    ]

    /// Random conditions over the atoms: `&&`, `||`, `!`, the ternary and parentheses.
    struct ConditionGrammar {
        var rng: SeededGenerator

        mutating func condition(depth: Int = 0) -> String {
            let choice = depth > 3 ? 0 : Int.random(in: 0..<7, using: &rng)
            switch choice {
            case 0, 1: return GrantModeTests.atoms.randomElement(using: &rng) ?? "true"
            case 2: return "\(condition(depth: depth + 1)) && \(condition(depth: depth + 1))"
            case 3: return "\(condition(depth: depth + 1)) || \(condition(depth: depth + 1))"
            case 4: return "!(\(condition(depth: depth + 1)))"
            case 5: return "\(condition(depth: depth + 1)) ? \(condition(depth: depth + 1)) : \(condition(depth: depth + 1))"
            default: return "(\(condition(depth: depth + 1)) || \(condition(depth: depth + 1))) && \(condition(depth: depth + 1))"
            }
        }
    }

    static let inputs: [[Value]] = [
        [.map(["a": .int(1), "b": .string("x"), "flag": .bool(false), "list": .list([.int(1)]), "inner": .map(["a": .int(1), "b": .string("abc")])]),
         .list([.int(1), .string("a")]), .string("abc")],
        [.map(["a": .int(-2), "c": .list([.int(1), .int(2), .int(3)]), "inner": .map(["b": .string("x")])]), .list([.int(0)]), .string("ab")],
        [.map(["b": .int(5), "flag": .bool(true), "inner": .int(3)]), .list([]), .string("")],
        [.map(["a": .string("1"), "b": .string("x"), "c": .string("ab")]), .list([.string("x"), .string("a")]), .string("abcd")],
        [.null, .null, .null],
    ]

    static func environment() throws -> ExpressionEnvironment {
        try ExpressionEnvironment(variables: ["m", "l", "s"], functions: functions)
    }

    @Test func grantsIsExactlyConditionTrue() throws {
        let env = try Self.environment()
        var grammar = ConditionGrammar(rng: SeededGenerator(seed: 0x6EA7_2026))
        let limits = [EvaluationLimits.default, EvaluationLimits(maxSteps: 0), EvaluationLimits(maxSteps: 2), EvaluationLimits(maxSteps: 5),
                      EvaluationLimits(maxSteps: 12), EvaluationLimits(maxSteps: 1_000, maxCallDepth: 1)]
        var granted = 0
        var refused = 0
        var viaGrantPath = 0
        var disagreements: [String] = []
        for _ in 0..<1_000 {
            let text = grammar.condition()
            // Some combinations are rejected statically (`!null`); they never evaluate.
            guard let expression = try? CompiledExpression(text, environment: env) else { continue }
            for slots in Self.inputs {
                for limit in limits {
                    let expected = if case .success(true) = expression.evaluateCondition(slots: slots, limits: limit) { true } else { false }
                    let answer = slots.withUnsafeBufferPointer { expression.grants(slots: $0, limits: limit) }
                    if answer != expected { disagreements.append("\(text) with \(slots) under \(limit.maxSteps) steps: \(answer) vs \(expected)") }
                    if expected { granted += 1 } else { refused += 1 }
                    if expression.program.stepBound <= limit.maxSteps { viaGrantPath += 1 }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        // Both answers, and both paths, must be common, or the comparison proves little.
        #expect(granted > 2_500)
        #expect(refused > 2_500)
        #expect(viaGrantPath > 6_000)
    }

    /// The bound is a true upper bound: with the step limit set to it, no evaluation trips it.
    @Test func stepBoundIsNeverExceeded() throws {
        let env = try Self.environment()
        var conditions = ConditionGrammar(rng: SeededGenerator(seed: 0xB0_0D))
        var values = ExpressionGrammar(rng: SeededGenerator(seed: 0xB0_0E))
        var checked = 0
        var reached = 0
        for round in 0..<3_000 {
            let text = round % 2 == 0 ? conditions.condition() : values.expression(depth: 0)
            guard let expression = try? CompiledExpression(text, environment: env) else { continue }
            let bound = expression.program.stepBound
            for slots in Self.inputs {
                for traced in [false, true] {
                    let tracer: RecordingTracer? = traced ? RecordingTracer() : nil
                    do {
                        _ = try expression.evaluate(slots: slots, limits: EvaluationLimits(maxSteps: bound), tracer: tracer)
                    } catch {
                        #expect(!error.message.contains("too complex"), "\(text): \(error.message)")
                    }
                    checked += 1
                }
                // Reached, too: one step fewer trips on some inputs, or the bound could be anything large.
                if bound > 0, case .failure(let error) = expression.evaluateCondition(slots: slots, limits: EvaluationLimits(maxSteps: bound - 1)),
                   error.message.contains("too complex") {
                    reached += 1
                }
            }
        }
        #expect(checked > 15_000)
        #expect(reached > 1_000)
    }

    @Test(arguments: [
        ("1 + 2", 1), ("m.a", 0), ("m.a == 1 && s.size() > 2", 1), ("owns(m)", 1), ("positive(m.a) || positive(m.b)", 2),
        ("firstIsOne(l)", 4), ("valid(m)", 2), ("m.a in [1, 2] ? l[0] * 3 : 'x' + s", 3),
    ])
    func stepBoundsOfKnownConditions(text: String, bound: Int) throws {
        let expression = try CompiledExpression(text, environment: try Self.environment())
        #expect(expression.program.stepBound == bound)
    }

    @Test func hostCallsAlwaysTakeTheFullEvaluation() throws {
        let env = try ExpressionEnvironment(variables: ["m"], hostFunctions: [HostFunction(name: "exists", arity: 1...1)])
        #expect(try !CompiledExpression("m.a == 1", environment: env).program.callsHost)
        #expect(try CompiledExpression("m.a == 1 && exists(/x/y)", environment: env).program.callsHost)
    }
}
