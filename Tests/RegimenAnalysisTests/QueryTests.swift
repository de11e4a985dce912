@testable import RegimenAnalysis
@testable import RegimenLanguage
@testable import RegimenSecurity
import Testing

/// The queries on small policies whose answers are known, each counterexample checked again by
/// the ordinary test runner.
@Suite struct QueryTests {
    static let signedIn = """
        match /p/{id} {
          allow read: if request.auth != null;
        }
    """

    @Test func alwaysAllowsFindsTheSignedOutRequest() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let policy = try SolverSupport.policy(Self.signedIn)
        let verdict = analyzer.alwaysAllows(policy, SolverSupport.shape(.get, "/p/{id}"))
        let counterexample = try #require(verdict.counterexample, "\(verdict)")
        #expect(counterexample.decisions == [false])
        #expect(!counterexample.testCase.contains("auth:"))
        #expect(try SolverSupport.passes(counterexample, against: policy))
    }

    @Test func neverErrorsHoldsForANullTestAndFailsForAUidRead() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.get, "/p/{id}")
        #expect(analyzer.neverErrors(try SolverSupport.policy(Self.signedIn), shape).isProved)
        let reading = try SolverSupport.policy("""
            match /p/{id} {
              allow read: if request.auth.uid == id;
            }
        """)
        let verdict = analyzer.neverErrors(reading, shape)
        let counterexample = try #require(verdict.counterexample, "\(verdict)")
        // The request that errors is signed out (request.auth.uid on null).
        #expect(!counterexample.testCase.contains("auth:"))
    }

    /// `E || true` is true and `E && false` is false: the emulator's error absorption.
    @Test func errorsAreAbsorbedAsTheEmulatorDoes() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.get, "/p/{id}")
        let orTrue = try SolverSupport.policy("match /p/{id} { allow read: if request.auth.uid == id || true; }")
        #expect(analyzer.alwaysAllows(orTrue, shape).isProved)
        let andFalse = try SolverSupport.policy("match /p/{id} { allow read: if false && request.auth.uid == id; }")
        #expect(analyzer.alwaysDenies(andFalse, shape).isProved)
        // An erroring allow is a non-match: the error alone never grants.
        let errorOnly = try SolverSupport.policy("match /p/{id} { allow read: if request.auth.uid == id || request.auth.uid == id; }")
        let verdict = analyzer.alwaysAllows(errorOnly, shape)
        #expect(verdict.counterexample?.decisions == [false], "\(verdict)")
    }

    @Test func equivalentRefactoringsAreProved() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let original = try SolverSupport.policy("""
            function owner(u) { return request.auth != null && request.auth.uid == u; }
            match /p/{id} {
              allow write: if owner(id) && request.resource.data.size is int && request.resource.data.size < 10;
            }
        """)
        let refactored = try SolverSupport.policy("""
            function isTheOwner(user) { return request.auth != null && request.auth.uid == user; }
            match /p/{doc} {
              allow write: if isTheOwner(doc) && request.resource.data.size is int && request.resource.data.size < 10;
            }
        """)
        for method in [AnalysedMethod.create, .update, .delete] {
            let (allows, denies) = analyzer.equivalent(original, refactored, SolverSupport.shape(method, "/p/{id}"))
            #expect(allows.isProved && denies.isProved, "\(method): \(allows) \(denies)")
        }
    }

    @Test func aWidenedComparisonIsADifferenceWithAConfirmedCounterexample() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let old = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.n is int && request.resource.data.n < 10; }")
        let new = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.n is int && request.resource.data.n <= 10; }")
        let (allows, denies) = analyzer.equivalent(old, new, SolverSupport.shape(.create, "/p/{id}"))
        let counterexample = try #require(allows.counterexample, "\(allows)")
        #expect(counterexample.testCase.contains("'n': 10"))
        #expect(counterexample.decisions == [true, false])
        #expect(try SolverSupport.passes(counterexample, against: new))
        #expect(denies.isProved)
    }

    /// A construct the encoding abstracts never yields a proof it does not have (a multi-line
    /// anchor is outside the regular-language encoding of `matches`).
    @Test func abstractedConstructsNeverProveWhatTheyCannot() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let policy = try SolverSupport.policy("match /p/{id} { allow read: if id.matches('(?m)^a.*'); }")
        let verdict = analyzer.alwaysDenies(policy, SolverSupport.shape(.get, "/p/{id}"))
        #expect(!verdict.isProved)
        let abstractions = analyzer.abstractions([policy], SolverSupport.shape(.get, "/p/{id}"))
        #expect(abstractions.map(\.construct) == ["matches()"])
        #expect(abstractions.first?.location.hasPrefix("test.rules:") == true, "\(abstractions)")
    }

    /// A literal pattern is encoded exactly: what it admits is found (and confirmed), what it
    /// excludes is proved excluded.
    @Test func literalPatternsAreEncodedExactly() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.get, "/days/{date}")
        let policy = try SolverSupport.policy("match /days/{date} { allow read: if date.matches('[0-9]{4}-[0-9]{2}-[0-9]{2}'); }")
        let allowed = analyzer.alwaysDenies(policy, shape)
        let counterexample = try #require(allowed.counterexample, "\(allowed)")
        #expect(try SolverSupport.passes(counterexample, against: policy))
        let narrower = try SolverSupport.policy("match /days/{date} { allow read: if date.matches('20[0-9]{2}-[01][0-9]-[0-3][0-9]'); }")
        #expect(analyzer.implies(narrower, policy, shape).isProved)
        let (newlyAllows, newlyDenies) = analyzer.equivalent(narrower, policy, shape)
        #expect(newlyAllows.counterexample != nil, "\(newlyAllows)")
        #expect(newlyDenies.isProved)
    }
}
