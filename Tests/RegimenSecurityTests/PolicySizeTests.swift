import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity

/// Compiling gives each function a span namespace by placing its text k × width scalars to the
/// right, which costs width × n²/2 for n functions. Policies past a fixed budget are refused
/// with a located error instead of stalling the process that loads them.
@Suite struct PolicySizeTests {
    static func policy(functions: Int, condition: String) -> String {
        let declarations = (0..<functions).map { "    function f\($0)(x) { return x == \($0); }\n" }.joined()
        return "rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n" + declarations
            + "    match /a/{id} { allow read: if \(condition); }\n  }\n}\n"
    }

    @Test("5,000 functions, or 100 beside a 150,000-character condition, are refused at the last function")
    func oversizedPolicies() throws {
        let wide = "3 in [" + (0..<30_000).map(String.init).joined(separator: ",") + "]"
        for (functions, condition) in [(5_000, "f0(1)"), (100, wide)] {
            let text = Self.policy(functions: functions, condition: condition)
            let parsed = try RulesFileParser.parse(text, file: "big.rules")
            do {
                _ = try CompiledPolicy(parsed)
                Issue.record("\(functions) functions must be refused")
            } catch {
                let diagnostic = try #require(error.diagnostics.first)
                #expect(diagnostic.message.hasPrefix("the policy is too large to compile: \(functions) functions"))
                #expect(diagnostic.location?.line == 3 + functions)
            }
        }
    }

    @Test("a policy well inside the budget compiles and decides")
    func policyWithinBudget() throws {
        let policy = try compile(Self.policy(functions: 200, condition: "f0(0) || f199(1)"))
        #expect(policy.decide(request(.get(doc("a/b"))), store: DocumentStore()).allowed)
    }
}
