import RegimenAnalysis
import RegimenLanguage
import RegimenSecurity
import Testing

/// A difference the solver finds is shown as a request a test file can write, whenever one
/// exists: the second, concrete attempt must not exclude values a test file spells.
@Suite struct ConcreteCounterexampleTests {
    /// Before: the concrete attempt allowed a list only in a field whose contents a rule reads,
    /// so `data.w is list` (contents never read) made every concrete request impossible and a
    /// changed constant beside it stayed "possible, unconfirmed" (the planner's `validPlan`
    /// mutants: `data.workouts is list`).
    @Test func aListWhoseContentsNoRuleReadsIsWrittenEmpty() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        // The solver's first model is free to pick a time between whole seconds and an infinite
        // number, which a test file does not spell; the concrete attempt must then succeed.
        let condition = "request.resource.data.t == request.time && request.resource.data.k is number && request.resource.data.k > 0 && request.resource.data.w is list"
        let old = try SolverSupport.policy("match /p/{id} { allow create: if \(condition) && request.resource.data.c in ['low', 'med']; }")
        let new = try SolverSupport.policy("match /p/{id} { allow create: if \(condition) && request.resource.data.c in ['lowx', 'med']; }")
        let (newlyAllows, newlyDenies) = analyzer.equivalent(old, new, shape)
        let opened = try #require(newlyAllows.counterexample, "c = 'lowx' with w = []: \(newlyAllows)")
        #expect(try SolverSupport.passes(opened, against: new))
        #expect(opened.testCase.contains("'w': []"), "\(opened.testCase)")
        let closed = try #require(newlyDenies.counterexample, "c = 'low' with w = []: \(newlyDenies)")
        #expect(try SolverSupport.passes(closed, against: new))
    }
}
