import Testing
@testable import RegimenLanguage

/// The regular-expression engine: RE2's grammar exactly, and work linear in the text.
@Suite struct RegexEngineTests {
    /// The work a Pike VM may do: every instruction at most twice per position (once while
    /// following empty transitions, once while stepping) plus one restart per position.
    static func linearBound(_ regex: RegularExpression, _ text: String) -> Int {
        let size = regex.program.instructions.count
        return (text.unicodeScalars.count + 1) * size * 3
    }

    static func steps(_ pattern: String, _ text: String) throws -> (Bool, Int, Int) {
        let regex = try RegularExpression(pattern)
        var steps = 0
        let result = regex.wholeMatch(text, steps: &steps) ?? false
        return (result, steps, linearBound(regex, text))
    }

    @Test func nestedOptionalsRunInLinearSteps() throws {
        // Took about 40 s with a backtracking engine.
        let (short, shortSteps, shortBound) = try Self.steps("^(a?){25}a{25}$", "a")
        #expect(short == false)
        #expect(shortSteps <= shortBound)
        let input = String(repeating: "a", count: 25)
        let (full, steps, bound) = try Self.steps("^(a?){25}a{25}$", input)
        #expect(full == true)
        #expect(steps <= bound)
    }

    @Test func nestedPlusRunsInLinearSteps() throws {
        // A 20-character title stalled a decision for more than 30 s with a backtracking engine.
        for count in [20, 24, 30, 200] {
            let text = String(repeating: "a", count: count)
            let (matched, steps, bound) = try Self.steps("(a+)+b", text)
            #expect(matched == false)
            #expect(steps <= bound, "\(count) characters: \(steps) steps > \(bound)")
        }
    }

    /// Property: for patterns that are exponential for a backtracking engine, the work stays
    /// within a constant times (text length + 1) × program size as the text grows.
    @Test(arguments: ["(a+)+b", "(a|a)*c", "(a*)*b", "(x+x+)+y", "^(a?){30}a{30}$", "(?i)(A|a|\\x{61})*z", "(.*a){12}"])
    func workGrowsLinearlyWithTheText(_ pattern: String) throws {
        let regex = try RegularExpression(pattern)
        for count in [16, 32, 64, 128, 256] {
            let text = String(repeating: pattern.contains("x") ? "x" : "a", count: count)
            var steps = 0
            _ = regex.wholeMatch(text, steps: &steps)
            #expect(regex.matches(in: text.unicodeScalars.map(\.value), steps: &steps) != nil)
            #expect(steps <= 2 * Self.linearBound(regex, text), "\(pattern) on \(count): \(steps) steps")
        }
    }

    /// Finding every match is where leftmost-first engines go quadratic (`a*b|a` over `aaa…`
    /// rescans the rest of the text after each one-letter match): the scan stops at its linear
    /// budget and `replace`/`split` fail closed, while ordinary global replaces stay within it.
    @Test func findingEveryMatchStaysWithinALinearBudget() throws {
        let attack = try RegularExpression("a*b|a")
        let text = Array(repeating: UInt32(97), count: 2_000)
        var steps = 0
        #expect(attack.matches(in: text, steps: &steps) == nil)
        #expect(steps <= attack.workBound(textLength: text.count) + 3 * (text.count + 1) * attack.program.instructions.count)
        let environment = try ExpressionEnvironment(variables: ["s"])
        let replace = try CompiledExpression("s.replace('a*b|a', 'x')", environment: environment)
        #expect(throws: EvaluationError.self) { try replace.evaluate(["s": .string(String(repeating: "a", count: 2_000))]) }
        let ordinary = try CompiledExpression("s.replace('a', 'b').size()", environment: environment)
        #expect(try ordinary.evaluate(["s": .string(String(repeating: "a", count: 4_000))]) == .int(4_000))
        let split = try CompiledExpression("s.split('[ ,]+').size()", environment: environment)
        #expect(try split.evaluate(["s": .string(String(repeating: "ab, ", count: 1_000))]) == .int(1_000))
    }

    /// Linear is in text length × pattern size, and both can be large: every pattern operation
    /// stops at `maxPatternSteps` with an error (fail closed) instead of running on.
    @Test func patternWorkStopsAtItsLimit() throws {
        let environment = try ExpressionEnvironment(variables: ["s"])
        let limits = EvaluationLimits(maxPatternSteps: 100_000)
        let long: [String: Value] = ["s": .string(String(repeating: "a", count: 2_000))]
        for expression in ["s.matches('(?:a?){900}a{900}')", "s.split('(?:a?){900}b').size()", "s.replace('(?:a?){900}b', '')"] {
            let compiled = try CompiledExpression(expression, environment: environment)
            #expect(throws: EvaluationError.self, "\(expression)") { try compiled.evaluate(long, limits: limits) }
            #expect(throws: Never.self, "\(expression)") { try compiled.evaluate(["s": .string("aaa")], limits: limits) }
        }
    }

    /// `s.replace('', r)` grows with the product of both lengths: it stops at the string limit.
    @Test func replaceStopsAtTheStringLimit() throws {
        let environment = try ExpressionEnvironment(variables: ["s", "r"])
        let replace = try CompiledExpression("s.replace('', r)", environment: environment)
        let limits = EvaluationLimits(maxStringLength: 10_000)
        let bindings: [String: Value] = ["s": .string(String(repeating: "a", count: 5_000)), "r": .string(String(repeating: "b", count: 5_000))]
        #expect(throws: EvaluationError.self) { try replace.evaluate(bindings, limits: limits) }
        #expect(try replace.evaluate(["s": .string("ab"), "r": .string("-")], limits: limits) == .string("-a-b-"))
    }

    @Test(arguments: [
        "\\pL", "\\p{Greek}", "\\PL", "\\p{^Greek}", "[[:alpha:]]", "[[:^digit:]]", "(?i)abc", "(?P<name>a)", "(?<name>a)",
        "a{2,5}", "a{1000}", "a{0,1000}", "a{2,}?", "(?s:.)", "(?m)^a$", "(?U)a+", "\\Qa.b\\E", "\\x{1F600}", "\\x41", "\\101",
        "[a-z\\d_]", "[]a]", "[^]a]", "a|", "()", "^*", "\\_", "\\b\\B\\A\\z", "[\\p{Greek}\\d]", "\\pN+", "(?i-s:a.)",
    ])
    func acceptsRE2Syntax(_ pattern: String) {
        #expect(RegularExpression.syntaxError(in: pattern) == nil, "\(pattern)")
    }

    @Test(arguments: [
        ("(?=a)", 0), ("(?!a)", 0), ("(?<=a)", 0), ("(?<!a)", 0), ("(a)\\1", 3), ("a**", 1), ("a++", 1), ("a{2}{3}", 1),
        ("a{1001}", 1), ("a{3,2}", 1), ("[z-a]", 1), ("(?P<n>a)(?P<n>b)", 8), ("\\Z", 0), ("\\C", 0), ("(?#c)", 0),
        ("\\p{Foo}", 0), ("[[:foo:]]", 1), ("\\8", 0), ("(?i-)", 0), ("(?P=n)", 0), ("*", 0), ("a|*", 2), ("(*)", 1),
        ("\\x{110000}", 0), ("[\\b]", 1), ("(", 0), ("a)", 1), ("[a", 0), ("a\\", 1), ("(?P<>a)", 0), ("\\p{Cn}", 0),
    ])
    func rejectsWhatRE2Rejects(_ pattern: String, _ offset: Int) {
        let error = RegularExpression.syntaxError(in: pattern)
        #expect(error != nil, "\(pattern) should be rejected")
        #expect(error?.offset == offset, "\(pattern): \(String(describing: error))")
    }

    @Test func patternsTooLargeAreRejectedNotExpanded() {
        #expect(RegularExpression.syntaxError(in: "((a{1000}){1000}){1000}")?.message.contains("too large") == true)
        #expect(RegularExpression.syntaxError(in: String(repeating: "(", count: 1001) + String(repeating: ")", count: 1001)) != nil)
    }

    @Test func matchesCodePointsWithRE2Semantics() throws {
        #expect(try RegularExpression("(?i)k").wholeMatch("\u{212A}"))
        #expect(try RegularExpression("(?i)s").wholeMatch("\u{17F}"))
        #expect(try !RegularExpression("(?i)i").wholeMatch("\u{131}"))
        #expect(try RegularExpression(".").wholeMatch("😀"))
        #expect(try !RegularExpression(".").wholeMatch("\n"))
        #expect(try RegularExpression("[^a]").wholeMatch("\n"))
        #expect(try !RegularExpression("\\w").wholeMatch("é"))
        #expect(try !RegularExpression("a$").wholeMatch("a\n"))
        #expect(try RegularExpression("\\p{Greek}+").wholeMatch("αβγ"))
        #expect(try RegularExpression("e\u{301}").wholeMatch("e\u{301}"))
        #expect(try !RegularExpression(".").wholeMatch("e\u{301}"))
    }

    /// Property: a quoted string matches itself and nothing longer, for every string of a grid
    /// over awkward characters.
    @Test func quotedTextMatchesItself() throws {
        let alphabet: [String] = ["a", ".", "*", "\\", "E", "Q", "😀", "é", "\n", "[", "$", "K"]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" }.joined()
            let escaped = text.unicodeScalars.map { scalar -> String in
                scalar.isASCII && !scalar.properties.isAlphabetic && !("0"..."9").contains(scalar) && scalar != "\n"
                    ? "\\" + String(scalar) : String(scalar)
            }.joined()
            let regex = try RegularExpression(escaped)
            #expect(regex.wholeMatch(text), "\(escaped) on \(text)")
            #expect(!regex.wholeMatch(text + "a"))
        }
    }
}
