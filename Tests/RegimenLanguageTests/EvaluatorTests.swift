import Testing
@testable import RegimenLanguage
import OrderedCollections

/// What evaluating a test expression gave.
enum Outcome: Equatable {
    case success(Value)
    case failure(String)
}

/// Evaluates `text` with variables, returning the value or the error message.
func run(_ text: String, _ vars: [String: Value] = [:], functions: [FunctionSource] = []) -> Outcome {
    do {
        let env = try ExpressionEnvironment(variables: vars.keys.sorted(), functions: functions)
        let expr = try CompiledExpression(text, environment: env)
        return .success(try expr.evaluate(vars))
    } catch let error as DiagnosticsError {
        return .failure(error.description)
    } catch let error as EvaluationError {
        return .failure(error.message)
    } catch {
        return .failure(String(describing: error))
    }
}

@Suite struct EvaluatorTests {
    @Test(arguments: [
        ("1 + 2 * 3", Value.int(7)),
        ("(1 + 2) * 3", .int(9)),
        ("7 / 2", .int(3)),
        ("-7 / 2", .int(-3)),
        ("-7 % 2", .int(-1)),
        ("7.0 / 2", .float(3.5)),
        ("1 + 2.5", .float(3.5)),
        ("1 < 2 == true", .bool(true)),
        ("'ab' + 'cd'", .string("abcd")),
        ("'😀'.size()", .int(2)),
        ("1 == 1.0", .bool(true)),
        ("[1] == [1.0]", .bool(false)),
        ("{'b': 1, 'a': 2}.keys()", .list([.string("a"), .string("b")])),
        ("{'b': 1, 'a': 2}.values()", .list([.int(1), .int(2)])),
        ("[1, 2, 2].toSet() == [2, 1].toSet()", .bool(true)),
        ("'abc'.matches('a.c')", .bool(true)),
        ("'xabc'.matches('a.c')", .bool(false)),
        ("2 in [1, 2]", .bool(true)),
        ("'a' in {'a': 1}", .bool(true)),
        ("true ? 1 : 2", .int(1)),
        ("1 is int && 1 is number && 1.0 is float", .bool(true)),
        ("math.round(-2.5)", .int(-2)),
        ("math.round(2.5)", .int(3)),
        ("math.floor(2.7)", .float(2)),
        ("int(-2.7)", .int(-2)),
        ("string(2.0)", .string("2.0")),
        ("{'a': {'b': 1}}.get(['a', 'b'], 7)", .int(1)),
        ("{'a': 1}.get('z', 7)", .int(7)),
        ("{'a': 1, 'b': 2}.diff({'a': 1, 'c': 3}).affectedKeys() == ['b', 'c'].toSet()", .bool(true)),
        ("['a','b'].toSet().difference(['a','c'].toSet()) == ['b'].toSet()", .bool(true)),
        ("['a','a','b'].hasOnly(['a','b','b'])", .bool(true)),
        ("timestamp.date(2024, 1, 1).dayOfWeek()", .int(1)),
        ("(timestamp.date(2024, 1, 2) - timestamp.date(2024, 1, 1)) == duration.value(1, 'd')", .bool(true)),
        ("string(/databases/$('(default)')/documents/users/$('u1'))", .string("/databases/(default)/documents/users/u1")),
    ])
    func evaluates(_ text: String, _ expected: Value) {
        #expect(run(text) == .success(expected), "\(text)")
    }

    @Test(arguments: [
        ("1 / 0", "Divide by zero"),
        ("9223372036854775807 + 1", "Integer value is out of the"),
        ("{'a': 1}.b", "Property b is undefined on object."),
        ("[1][3]", "Index out of bound"),
        ("null.a", "Null value error."),
        ("[1] + [2]", "unsupported operation"),
    ])
    func fails(_ text: String, _ fragment: String) {
        guard case .failure(let message) = run(text) else {
            Issue.record("\(text) should fail")
            return
        }
        #expect(message.contains(fragment), "\(text): \(message)")
    }

    @Test func errorsAreAbsorbedByDecisiveOperands() {
        let m: [String: Value] = ["m": .map(["a": .int(1)])]
        #expect(run("m.missing || true", m) == .success(.bool(true)))
        #expect(run("true || m.missing", m) == .success(.bool(true)))
        #expect(run("m.missing && false", m) == .success(.bool(false)))
        #expect(run("false && m.missing", m) == .success(.bool(false)))
        #expect(run("m.missing || false", m) == .failure("Property missing is undefined on object."))
        #expect(run("m.missing && true", m) == .failure("Property missing is undefined on object."))
        #expect(run("!(m.missing)", m) == .failure("Property missing is undefined on object."))
    }

    @Test func functionsBindParametersAndLazyLets() {
        let helpers = [
            FunctionSource(name: "double", parameters: ["x"], result: SourceText("x * 2")),
            FunctionSource(name: "safe", parameters: ["m"], lets: [(name: "bad", value: SourceText("m.missing"))], result: SourceText("true || bad")),
        ]
        #expect(run("double(21)", functions: helpers) == .success(.int(42)))
        #expect(run("safe({})", functions: helpers) == .success(.bool(true)))
    }

    @Test func recursionIsACompileErrorAndUnusedParametersAWarning() throws {
        let recursive = [FunctionSource(name: "f", parameters: ["x"], result: SourceText("f(x)"))]
        guard case .failure(let message) = run("f(1)", functions: recursive) else {
            Issue.record("recursion must not compile")
            return
        }
        #expect(message.contains("recursion is not allowed"))
        // The emulator compiles an unused parameter (it only mentions it beside a real error).
        let unused = [FunctionSource(name: "g", parameters: ["x", "y"], result: SourceText("x"))]
        #expect(run("g(1, 2)", functions: unused) == .success(.int(1)))
        let environment = try ExpressionEnvironment(functions: unused)
        #expect(environment.warnings.map(\.message) == ["unused parameter 'y' in function 'g'"])
    }

    @Test func diagnosticsPointAtTheOffendingCharacter() {
        let origin = SourceLocation(file: "rules/x.yaml", line: 3, column: 10)
        let env = try? ExpressionEnvironment(variables: ["profile"])
        #expect(env != nil)
        do {
            _ = try CompiledExpression(SourceText("profile.age > 3 && profle.sex", startingAt: origin), environment: env ?? .empty)
            Issue.record("must fail")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "rules/x.yaml:3:29: error: unknown name 'profle'\n  note: did you mean 'profile'?",
            ])
        }
        do {
            _ = try CompiledExpression(SourceText("1 + 'a'", startingAt: origin), environment: .empty)
            Issue.record("must fail")
        } catch {
            #expect(error.diagnostics.first?.location == SourceLocation(file: "rules/x.yaml", line: 3, column: 10))
            #expect(error.diagnostics.first?.message == "unsupported operation: int + string")
        }
        do {
            _ = try CompiledExpression(SourceText("(1 + ", startingAt: origin), environment: .empty)
            Issue.record("must fail")
        } catch {
            #expect(error.diagnostics.map(\.description) == ["rules/x.yaml:3:15: error: expected an expression, found end of input"])
        }
    }

    @Test func boundsEndInErrorsNotHangs() {
        let deep = String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500)
        guard case .failure(let message) = run(deep) else {
            Issue.record("too deep must fail")
            return
        }
        #expect(message.contains("nested too deeply"))
        let env = ExpressionEnvironment.empty
        let expr = try? CompiledExpression("1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 > 0", environment: env)
        #expect(throws: EvaluationError.self) {
            _ = try expr?.evaluate(slots: [], limits: EvaluationLimits(maxSteps: 5))
        }
    }

    @Test func conditionsFailClosed() {
        let expr = try? CompiledExpression("1", environment: .empty)
        guard case .failure(let error)? = expr?.evaluateCondition(slots: []) else {
            Issue.record("a non-bool condition must fail")
            return
        }
        #expect(error.code == .typeError)
    }
}

@Suite struct EqualityAndDeclarationTests {
    @Test func mapEqualityIgnoresOrder() {
        #expect(run("{'a': 1, 'b': 2} == {'b': 2, 'a': 1}") == .success(.bool(true)))
        #expect(run("{'a': 1} == {'a': 1.0}") == .success(.bool(false)))
        let a: Value = .map(["a": .int(1), "b": .int(2)])
        let b: Value = .map(["b": .int(2), "a": .int(1)])
        #expect(a.hashValue == b.hashValue)
    }

    @Test func parsesFirestoreFunctionDeclarations() throws {
        let text = "function isOwner(uid) { let me = request.auth.uid; return me == uid }\nfunction always() { return true; }"
        let source = SourceText(text, startingAt: SourceLocation(file: "f.rules", line: 1, column: 1))
        let definitions = try Parser.parseFunctionDeclarations(source).get()
        #expect(definitions.map(\.name) == ["isOwner", "always"])
        #expect(definitions.first?.lets.map(\.name) == ["me"])
        #expect(definitions.last?.location == SourceLocation(file: "f.rules", line: 2, column: 1))
        let env = try ExpressionEnvironment(variables: ["request"], definitions: definitions)
        let expr = try CompiledExpression("isOwner('u1') && always()", environment: env)
        let request: Value = .map(["auth": .map(["uid": .string("u1")])])
        #expect(try expr.evaluate(["request": request]) == .bool(true))
    }
}
