import Testing
@testable import RegimenLanguage

/// Every walk over an expression (parse, compile, bound, inline, evaluate, release) recurses once
/// per level of its tree, so the height of every tree is bounded where it is built: a long chain
/// of operators, members, indexes or calls is as deep as the same number of parentheses, and is
/// reported as an error at the place it crosses the limit instead of exhausting the stack.
@Suite struct ExpressionHeightTests {
    /// `count` copies of `term` joined by `separator`.
    static func chain(_ term: String, _ separator: String, _ count: Int) -> String {
        Array(repeating: term, count: count).joined(separator: separator)
    }

    static func firstError(_ text: String) -> Diagnostic? {
        do {
            _ = try CompiledExpression(text, environment: ExpressionEnvironment(variables: ["x"]))
            return nil
        } catch {
            return error.diagnostics.first
        }
    }

    /// Hostile shapes, by name (the texts are too long to print as test arguments).
    static let oversized: [String: String] = [
        "+ chain": chain("1", "+", 13_400), "|| chain": chain("true", " || ", 13_400), "&& chain": chain("x", " && ", 20_000),
        "* chain": chain("1", "*", 5_000), "< chain": chain("1", " < ", 300), "== chain": chain("1", " == ", 300),
        "in chain": chain("x", " in ", 300), "is chain": chain("x", " is int is ", 300) + " is int",
        "member chain": "x" + String(repeating: ".a", count: 20_000), "method chain": "x" + String(repeating: ".size()", count: 10_000),
        "index chain": "x" + String(repeating: "[0]", count: 10_000), "slice chain": "x" + String(repeating: "[0:1]", count: 5_000),
        "not chain": String(repeating: "!", count: 20_000) + "x", "negation chain": String(repeating: "-", count: 20_000) + "x",
        "nested lists": String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000),
        "nested maps": String(repeating: "{'a': ", count: 20_000) + "1" + String(repeating: "}", count: 20_000),
        "ternary chain": String(repeating: "x ? 1 : ", count: 20_000) + "2",
        "nested calls": String(repeating: "size(", count: 20_000) + "x" + String(repeating: ")", count: 20_000),
        "nested paths": String(repeating: "/a/$(", count: 2_000) + "x" + String(repeating: ")", count: 2_000),
    ]

    @Test("long chains of every kind end in a located error, never a crash", arguments: oversized.keys.sorted())
    func oversizedChainsAreLocatedErrors(shape: String) throws {
        let diagnostic = try #require(Self.firstError(Self.oversized[shape] ?? ""))
        #expect(diagnostic.message.contains("nested too deeply"), "\(diagnostic.message)")
        let location = try #require(diagnostic.location)
        #expect(location.line == 1 && location.column > 1)
    }

    @Test("the limit is exact: the tallest accepted tree compiles and evaluates, one level more is refused")
    func limitIsExact() throws {
        // n terms of `+` build a tree n levels high (n - 1 operators above a literal).
        let tallest = Self.chain("1", "+", Parser.maxDepth)
        let expression = try CompiledExpression(tallest, environment: .empty)
        #expect(try expression.evaluate([:]) == .int(Int64(Parser.maxDepth)))
        let diagnostic = try #require(Self.firstError(Self.chain("1", "+", Parser.maxDepth + 1)))
        // The operator that makes the tree one level too high: the last '+'.
        #expect(diagnostic.location?.column == 2 * Parser.maxDepth)
    }

    @Test("inlining helpers into one another keeps node trees within twice the parser's limit")
    func inliningIsBounded() throws {
        // Twenty helpers, each calling the previous one at the foot of a 60-level chain: the first
        // few inline into one another, the taller ones keep their calls.
        let body = Self.chain("v", " && ", 60)
        var functions = [FunctionSource(name: "f0", parameters: ["v"], result: SourceText(body))]
        for level in 1..<20 {
            functions.append(FunctionSource(name: "f\(level)", parameters: ["v"], result: SourceText("f\(level - 1)(v) && " + body)))
        }
        let environment = try ExpressionEnvironment(variables: ["x"], functions: functions)
        for level in 0..<20 {
            let expression = try CompiledExpression("f\(level)(x)", environment: environment)
            let inlined = CallInliner(functions: environment.functionTable).inline(expression.root, callerParameters: 0)
            #expect(inlined.height(atMost: 2 * Parser.maxDepth), "f\(level)")
            if level < 2 { #expect(inlined.contains { if case .inlined = $0 { true } else { false } }, "f\(level) inlines") }
            #expect(try expression.evaluate(["x": .bool(true)], limits: EvaluationLimits(maxSteps: 1_000_000)) == .bool(true))
            #expect(try expression.evaluate(["x": .bool(false)]) == .bool(false))
        }
    }
}
