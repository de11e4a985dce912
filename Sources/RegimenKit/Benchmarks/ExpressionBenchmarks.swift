import RegimenLanguage

/// The expression language's benchmarks: compile time and the evaluation of a compiled
/// 10-operator condition over a map-valued variable (target: under 0.5 µs).
enum ExpressionBenchmarks {
    static let condition = """
        user.age >= 18 && user.role == 'coach' && user.active == true && user.sessions > 3 \
        && user.name.size() <= 100 && !(user.banned) && user.plan in ['pro', 'team'] \
        && user.score * 2 < 1000 && user.country != 'XX'
        """

    static var cases: [BenchmarkCase] {
        let environment = (try? ExpressionEnvironment(variables: ["user"])) ?? .empty
        let user: Value = .map([
            "age": .int(34), "role": .string("coach"), "active": .bool(true), "sessions": .int(12),
            "name": .string("Dana Coach"), "banned": .bool(false), "plan": .string("pro"), "score": .int(420),
            "country": .string("JP"),
        ])
        let compiled = try? CompiledExpression(condition, environment: environment)
        let slots = [user]
        let email = try? CompiledExpression("user.name.matches('[A-Za-z]+ [A-Za-z]+') && user.email.matches('^[a-z0-9._%+-]+@[a-z0-9.-]+\\\\.[a-z]{2,}$')", environment: environment)
        var withEmail = user.mapValue ?? [:]
        withEmail["email"] = .string("dana.coach@example.com")
        let emailSlots: [Value] = [.map(withEmail)]
        return [
            BenchmarkCase(name: "expression.compile (10-operator condition)", targetNanoseconds: nil) { count in
                var total = 0
                for _ in 0..<count {
                    if (try? CompiledExpression(condition, environment: environment)) != nil { total += 1 }
                }
                return total
            },
            BenchmarkCase(name: "expression.evaluate (two regular expressions, name and e-mail)", targetNanoseconds: nil) { count in
                guard let email else { return 0 }
                var total = 0
                for _ in 0..<count {
                    if case .success(true) = email.evaluateCondition(slots: emailSlots) { total += 1 }
                }
                return total
            },
            BenchmarkCase(name: "expression.evaluate (10-operator condition over a map)", targetNanoseconds: 500) { count in
                guard let compiled else { return 0 }
                var total = 0
                for _ in 0..<count {
                    if case .success(true) = compiled.evaluateCondition(slots: slots) { total += 1 }
                }
                return total
            },
        ]
    }
}
