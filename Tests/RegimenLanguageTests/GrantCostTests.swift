import RegimenTestSupport
import Testing
@testable import RegimenLanguage
import OrderedCollections

/// The grant-only path must run out of cost budget exactly where evaluation does: for every
/// condition, input and cost limit, `grants(slots:limits:)` answers "does `evaluateCondition`
/// return `.success(true)`?". When the grant path skipped an operand evaluation still runs (`b` in
/// `error && b`), or compared a field without charging for it, it kept budget that evaluation had
/// spent and could grant what evaluation refuses on budget exhaustion: a security decision
/// failing open.
@Suite struct GrantCostTests {
    /// Thirty elements: `big.hasAll(big)` charges 62 units, `m.big == big` 31.
    static let big = Value.list((0..<30).map { .int(Int64($0)) })

    static let atoms = [
        "true", "false", "m.missing", "m.missing == 1", "m.a == 1", "m.flag",
        // Operations charged by the cost model, some true, some false.
        "big.hasAll(big)", "big.hasAny(big)", "big.hasOnly([1])", "big == big", "m.big == big", "m.big != big",
        "29 in big", "big.toSet().size() == 30", "s + s == s", "m.inner.b == s",
    ]

    static let slots: [[Value]] = [
        [.map(["a": .int(1), "flag": .bool(true), "big": big, "inner": .map(["b": .string("abcdefgh")])]), big, .string("")],
        [.map(["a": .int(2), "flag": .bool(false), "big": .list([]), "inner": .map(["b": .string("x")])]), big, .string("x")],
        [.map(["big": big]), big, .string(String(repeating: "y", count: 200))],
    ]

    struct Grammar {
        var rng: SeededGenerator

        mutating func condition(depth: Int = 0) -> String {
            switch depth > 3 ? 0 : Int.random(in: 0..<6, using: &rng) {
            case 0, 1: GrantCostTests.atoms.randomElement(using: &rng) ?? "true"
            case 2: "(\(condition(depth: depth + 1)) && \(condition(depth: depth + 1)))"
            case 3: "(\(condition(depth: depth + 1)) || \(condition(depth: depth + 1)))"
            case 4: "(\(condition(depth: depth + 1)) ? \(condition(depth: depth + 1)) : \(condition(depth: depth + 1)))"
            default: "!(\(condition(depth: depth + 1)))"
            }
        }
    }

    static func environment() throws -> ExpressionEnvironment {
        try ExpressionEnvironment(variables: ["m", "big", "s"])
    }

    static func answers(_ expression: CompiledExpression, _ slots: [Value], maxCost: Int) -> (grant: Bool, evaluation: Bool) {
        let limits = EvaluationLimits(maxCost: maxCost)
        let evaluation = if case .success(true) = expression.evaluateCondition(slots: slots, limits: limits) { true } else { false }
        let grant = slots.withUnsafeBufferPointer { expression.grants(slots: $0, limits: limits) }
        return (grant, evaluation)
    }

    /// The reproducer: evaluation spends 62 units on `big.hasAll(big)` after `m.missing` fails,
    /// so `big.hasAny(big)` no longer fits in 100 and the condition is an error (denied). The
    /// grant path used to skip the left `&&` and grant.
    @Test func skippedWorkIsChargedInTheGrantPath() throws {
        let expression = try CompiledExpression("(m.missing && big.hasAll(big)) || big.hasAny(big)", environment: try Self.environment())
        let slots = Self.slots[0]
        #expect(Self.answers(expression, slots, maxCost: 100) == (false, false))
        #expect(Self.answers(expression, slots, maxCost: 124) == (true, true))
    }

    /// `x.y.field == variable` compared in place is charged as evaluation charges it (200
    /// bytes: 25 units).
    @Test func fieldComparedInPlaceIsCharged() throws {
        let expression = try CompiledExpression("m.inner.b == s", environment: try Self.environment())
        let text = Value.string(String(repeating: "y", count: 200))
        let slots: [Value] = [.map(["inner": .map(["b": text])]), Self.big, text]
        #expect(Self.answers(expression, slots, maxCost: 24) == (false, false))
        #expect(Self.answers(expression, slots, maxCost: 25) == (true, true))
    }

    /// Property: over generated conditions, inputs and every cost limit from 0 to past the total,
    /// both paths agree, and budget exhaustion happens often enough for that to mean something.
    @Test func grantsAgreeWithEvaluationUnderEveryCostLimit() throws {
        let env = try Self.environment()
        var grammar = Grammar(rng: SeededGenerator(seed: 0xC057_2026))
        let costLimits = [0, 1, 20, 31, 40, 62, 63, 90, 100, 124, 150, 200, 400, 4_000_000]
        var disagreements: [String] = []
        var granted = 0
        var exhausted = 0
        for _ in 0..<600 {
            let text = grammar.condition()
            guard let expression = try? CompiledExpression(text, environment: env) else { continue }
            for slots in Self.slots {
                for maxCost in costLimits {
                    let (grant, evaluation) = Self.answers(expression, slots, maxCost: maxCost)
                    if grant != evaluation { disagreements.append("\(text) under cost \(maxCost): grant \(grant), evaluation \(evaluation)") }
                    if evaluation { granted += 1 }
                    if case .failure(let error) = expression.evaluateCondition(slots: slots, limits: EvaluationLimits(maxCost: maxCost)),
                       error.message.contains("too costly") {
                        exhausted += 1
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.prefix(3))")
        #expect(granted > 2_000)
        #expect(exhausted > 2_000)
    }
}
