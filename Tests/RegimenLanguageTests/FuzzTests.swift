import RegimenTestSupport
import Testing
@testable import RegimenLanguage
import OrderedCollections

/// Builds random, mostly well-formed expressions over the whole grammar.
struct ExpressionGrammar {
    var rng: SeededGenerator
    let atoms = ["1", "0", "-3", "2.5", "1e308", "9223372036854775807", "'a'", "'😀é'", "\"x\\n\"", "true", "false", "null",
                 "m", "m.a", "m.list", "m['b']", "l", "l[0]", "l[9]", "s", "[]", "{}", "[1, 'a', null]", "{'k': [1, 2]}",
                 "timestamp.date(2024, 2, 29)", "duration.value(90, 's')", "/databases/$(s)/documents/x", "b'\\x2A'"]
    let binaries = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "in"]
    let methods = ["size()", "keys()", "values()", "toSet()", "lower()", "trim()", "matches('a.*')", "split(',')",
                   "hasAll([1])", "hasAny(['a'])", "hasOnly(l)", "concat(l)", "join('-')", "get('a', 0)", "diff(m)",
                   "removeAll([1])", "year()", "seconds()", "replace('a', 'b')", "union(l.toSet())"]
    let calls = ["int", "float", "string", "math.abs", "math.floor", "math.round", "math.sqrt", "path", "debug"]

    mutating func expression(depth: Int) -> String {
        let choice = depth > 4 ? 0 : Int.random(in: 0..<9, using: &rng)
        switch choice {
        case 0: return atoms.randomElement(using: &rng) ?? "1"
        case 1: return "\(expression(depth: depth + 1)) \(binaries.randomElement(using: &rng) ?? "+") \(expression(depth: depth + 1))"
        case 2: return "!\(expression(depth: depth + 1))"
        case 3: return "-(\(expression(depth: depth + 1)))"
        case 4: return "(\(expression(depth: depth + 1))).\(methods.randomElement(using: &rng) ?? "size()")"
        case 5: return "\(calls.randomElement(using: &rng) ?? "int")(\(expression(depth: depth + 1)))"
        case 6: return "\(expression(depth: depth + 1)) ? \(expression(depth: depth + 1)) : \(expression(depth: depth + 1))"
        case 7: return "[\(expression(depth: depth + 1)), \(expression(depth: depth + 1))]"
        default: return "\(expression(depth: depth + 1)) is \(["int", "string", "map", "list", "number", "bogus"].randomElement(using: &rng) ?? "int")"
        }
    }

    /// Deletes, duplicates or inserts a character: the parser must cope with broken input too.
    mutating func mutate(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else { return text }
        let index = Int.random(in: 0..<scalars.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: scalars.remove(at: index)
        case 1: scalars.insert(scalars[index], at: index)
        default: scalars.insert(["(", ")", "[", "'", "$", "/", ".", "{", "\\", "\u{0}"].randomElement(using: &rng) ?? "(", at: index)
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}

@Suite struct FuzzTests {
    @Test func randomAndMutatedExpressionsNeverCrash() throws {
        var grammar = ExpressionGrammar(rng: SeededGenerator(seed: 0x5EED_2026))
        let env = try ExpressionEnvironment(variables: ["m", "l", "s"])
        let bindings: [String: Value] = [
            "m": .map(["a": .int(1), "b": .string("x"), "list": .list([.int(1), .int(2)])]),
            "l": .list([.int(1), .string("a")]),
            "s": .string("abc"),
        ]
        var compiled = 0
        var evaluated = 0
        var failedCleanly = 0
        var rejected = 0
        for round in 0..<4_000 {
            var text = grammar.expression(depth: 0)
            if round % 2 == 1 { text = grammar.mutate(text) }
            guard let expression = try? CompiledExpression(text, environment: env) else {
                rejected += 1
                continue
            }
            compiled += 1
            do {
                _ = try expression.evaluate(bindings, limits: EvaluationLimits(maxSteps: 10_000))
                evaluated += 1
            } catch {
                failedCleanly += 1
            }
        }
        // The generator must exercise both paths, or the test proves nothing.
        #expect(compiled > 300)
        #expect(rejected > 300)
        #expect(evaluated > 100)
        #expect(failedCleanly > 100)
    }
}
