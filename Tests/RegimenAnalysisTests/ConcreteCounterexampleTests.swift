@testable import RegimenAnalysis
@testable import RegimenLanguage
@testable import RegimenSecurity
import Testing
import Foundation

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

    /// Before: the concrete attempt's document ids were lower-case letters and digits only, so a
    /// rule that asks for a date id (`date.matches('[0-9]{4}-[0-9]{2}-[0-9]{2}')`) left every
    /// changed bound beside it "possible, unconfirmed" (the planner's readiness and progress
    /// logs).
    @Test func aDocumentIdMayHoldTheDashesOfADate() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/logs/{date}")
        let condition = "date.matches('[0-9]{4}-[0-9]{2}-[0-9]{2}') && (request.resource.data.w is int || request.resource.data.w is float) && request.resource.data.w >= 40"
        let old = try SolverSupport.policy("match /logs/{date} { allow create: if \(condition) && request.resource.data.w <= 180; }")
        let new = try SolverSupport.policy("match /logs/{date} { allow create: if \(condition) && request.resource.data.w <= 181; }")
        let (newlyAllows, newlyDenies) = analyzer.equivalent(old, new, shape)
        let opened = try #require(newlyAllows.counterexample, "w in (180, 181] on a date id: \(newlyAllows)")
        #expect(try SolverSupport.passes(opened, against: new))
        #expect(newlyDenies.isProved)
    }

    /// NaN and the infinities are ordered as the evaluator orders doubles. Before, their
    /// comparisons were uninterpreted, so `w <= 180` was not provably narrower than `w <= 181`
    /// (the solver could pick an infinity below one bound and above the other).
    @Test func specialFloatsAreOrderedAsTheEvaluatorOrdersThem() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let narrow = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.w is float && request.resource.data.w <= 180; }")
        let wide = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.w is float && request.resource.data.w <= 181; }")
        #expect(analyzer.implies(narrow, wide, shape).isProved)
        // Only NaN is neither below nor at-or-above 0: it is found and replays.
        let onlyNaN = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.w is float && !(request.resource.data.w < 0) && !(request.resource.data.w >= 0); }")
        let verdict = analyzer.alwaysDenies(onlyNaN, shape)
        let counterexample = try #require(verdict.counterexample, "\(verdict)")
        #expect(try SolverSupport.passes(counterexample, against: onlyNaN))
        #expect(counterexample.testCase.contains("'$float': 'NaN'"), "\(counterexample.testCase)")
        // Nothing is below -Infinity's place or above +Infinity's: `w < w` never holds.
        let never = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.w < request.resource.data.w; }")
        #expect(analyzer.alwaysDenies(never, shape).isProved)
    }

    /// Before: a condition with a computed percentage (a list's size times a float, divided by
    /// an int, rounded, compared with `math.abs`) left every change beside it "possible,
    /// unconfirmed": the concrete attempt let the solver pick any value for the division and
    /// `math.round`, and its request did not reproduce (the trainer-student `validProgress`
    /// mutants). The concrete attempt now asks for the value the evaluator computes.
    @Test func aComputedPercentageIsSolvedAsTheEvaluatorComputesIt() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/progress/{id}")
        let percent = "math.round(d.days.size() * 1000.0 / d.total) / 10.0"
        let condition = "d.days is list && d.total is int && d.total >= 1 && d.days.size() <= d.total && d.percent is number && math.abs(d.percent - \(percent)) <= 0.05"
        let old = try SolverSupport.policy("match /progress/{id} { function ok(d) { return \(condition) && d.owner == 'a'; } allow create: if ok(request.resource.data); }")
        let new = try SolverSupport.policy("match /progress/{id} { function ok(d) { return \(condition); } allow create: if ok(request.resource.data); }")
        let verdict = analyzer.implies(new, old, shape)
        let counterexample = try #require(verdict.counterexample, "owner other than 'a' with a consistent percentage: \(verdict)")
        #expect(try SolverSupport.passes(counterexample, against: new))
        // The same with an int percentage scaled by a float, and with floor and ceil.
        for scaled in ["math.floor(d.total * 2.5) <= d.total * 3", "math.ceil(d.total / 3.0) >= 1"] {
            let narrow = try SolverSupport.policy("match /progress/{id} { allow create: if request.resource.data.total is int && \(scaled.replacingOccurrences(of: "d.", with: "request.resource.data.")) && request.resource.data.owner == 'a'; }")
            let wide = try SolverSupport.policy("match /progress/{id} { allow create: if request.resource.data.total is int && \(scaled.replacingOccurrences(of: "d.", with: "request.resource.data.")); }")
            let found = try #require(analyzer.implies(wide, narrow, shape).counterexample, "\(scaled)")
            #expect(try SolverSupport.passes(found, against: wide))
        }
    }

    /// A float divided by a zero is NaN or an infinity, not any value: the concrete attempt
    /// asks for what the evaluator gives (0 / 0.0 is NaN, which `math.round` makes 0), so a
    /// request that needs a division by zero is found and replays.
    @Test func aQuotientByZeroIsTheEvaluatorsNaNOrInfinity() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let condition = "request.resource.data.c is list && request.resource.data.t is int && request.resource.data.t == 0 && math.round(request.resource.data.c.size() * 1000.0 / request.resource.data.t) == 0"
        let narrow = try SolverSupport.policy("match /p/{id} { allow create: if \(condition) && request.resource.data.o == 'a'; }")
        let wide = try SolverSupport.policy("match /p/{id} { allow create: if \(condition); }")
        let opened = try #require(analyzer.implies(wide, narrow, shape).counterexample, "c = [], t = 0, o other than 'a'")
        #expect(try SolverSupport.passes(opened, against: wide))
        #expect(opened.testCase.contains("'c': []"), "\(opened.testCase)")
    }

    /// What the evaluator does with operands it cannot compute is exact, so it can be proved:
    /// an erroring argument is the error of `math.*()` (before, `math.round(error)` could be any
    /// value), and only numbers multiply and divide (before, `'w' * 2` could be any value).
    @Test func errorsOfArithmeticAndMathCallsAreExact() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        for condition in [
            "!(request.resource.data.t is number) && math.round(request.resource.data.t) >= 0",
            "!(request.resource.data.t is number) && math.abs(request.resource.data.c.size() * 1000.0 / request.resource.data.t) >= 0",
            "!(request.resource.data.t is number) && request.resource.data.t * 2 != 3",
            "request.resource.data.t is string && request.resource.data.t / 2 != 3",
        ] {
            let policy = try SolverSupport.policy("match /p/{id} { allow create: if \(condition); }")
            #expect(analyzer.alwaysDenies(policy, shape).isProved, "\(condition)")
        }
        // Numbers still compute: a request is found.
        let numbers = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.t is int && request.resource.data.t * 2 == 6; }")
        let found = try #require(analyzer.alwaysDenies(numbers, shape).counterexample)
        #expect(try SolverSupport.passes(found, against: numbers))
    }

    /// Before: moving a text bound (`size() <= 500` to 501) was "unknown (timeout)": z3's
    /// default string solver does not build a 501-character text in time. After a timeout a
    /// second search with its other string solver finds it, and the replay confirms it (the
    /// workout tracker's `optionalString(data, 'notes', 500)` mutants, and the trainer-student
    /// feedback's 2,000-character message).
    @Test func aLongTextIsFoundAfterATimeout() throws {
        guard let analyzer = SolverSupport.analyzer(timeout: 3) else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let old = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.n is string && request.resource.data.n.size() <= 500; }")
        let new = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.n is string && request.resource.data.n.size() <= 501; }")
        let (newlyAllows, newlyDenies) = analyzer.equivalent(old, new, shape)
        let opened = try #require(newlyAllows.counterexample, "a text of 501 UTF-16 code units: \(newlyAllows)")
        #expect(try SolverSupport.passes(opened, against: new))
        #expect(newlyDenies.isProved)
    }

    /// Before: a text bound of 100 moved to 101 was "possible, unconfirmed" whenever the sound
    /// query's request could not be written: the concrete attempt writes texts of at most 40
    /// characters, so it found none (the appendix-a `validProgram` and `requiredName` mutants).
    /// The long-text search now runs there too.
    @Test func aTextLongerThanTheConcreteAttemptWritesIsFound() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        // `!data.name` errors on a text: the request the solver first finds is not the one that
        // replays, so the concrete attempts decide.
        func policy(_ bound: Int) throws -> SecurityPolicy {
            try SolverSupport.policy("match /p/{id} { allow create: if (!request.resource.data.name || request.resource.data.name is string && request.resource.data.name.size() <= \(bound)) && request.resource.data.t == request.time; }")
        }
        let verdict = analyzer.implies(try policy(101), try policy(100), shape)
        let opened = try #require(verdict.counterexample, "a name of 101 characters: \(verdict)")
        #expect(try SolverSupport.passes(opened, against: try policy(101)))
    }
}
