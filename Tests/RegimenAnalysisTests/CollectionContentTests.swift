import RegimenAnalysis
import RegimenLanguage
import RegimenSecurity
import Testing

/// Membership as the evaluator (and the emulator) decides it, so that no wrong "proved" comes
/// from reading `in` too generously: a list compares its elements strictly (`1.0 in [1]` is
/// false although `1.0 == 1`), and a field read from data may be a list as well as a map.
@Suite struct CollectionContentTests {
    /// Before: list membership compared with `==`, so `n in [1]` and `n == 1` were "proved"
    /// equivalent although `n = 1.0` tells them apart.
    @Test func listMembershipIsStrictAboutIntsAndFloats() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let member = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.n in [1]; }")
        let equal = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.n == 1; }")
        let (newlyAllows, newlyDenies) = analyzer.equivalent(member, equal, shape)
        #expect(!newlyAllows.isProved, "n = 1.0: == allows, in denies")
        if let counterexample = newlyAllows.counterexample {
            #expect(try SolverSupport.passes(counterexample, against: equal))
        }
        #expect(newlyDenies.isProved, "whatever 'in [1]' allows, '== 1' allows")
        let literal = try SolverSupport.policy("match /p/{id} { allow read: if 1.0 in [1]; }")
        #expect(analyzer.alwaysDenies(literal, SolverSupport.shape(.get, "/p/{id}")).isProved)
        #expect(!analyzer.alwaysAllows(literal, SolverSupport.shape(.get, "/p/{id}")).isProved)
    }

    /// Before: `'a' in data.x` was read as a key test of a map only, so it was "proved"
    /// equivalent to `data.x.keys().hasAny(['a'])`, which errors (denies) when x is a list.
    @Test func inOnADataFieldMayBeListMembership() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let membership = try SolverSupport.policy("match /p/{id} { allow create: if 'a' in request.resource.data.x; }")
        let keys = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.x.keys().hasAny(['a']); }")
        let (newlyAllows, newlyDenies) = analyzer.equivalent(keys, membership, shape)
        #expect(!newlyAllows.isProved, "x = ['a']: membership allows, keys() errors")
        if let counterexample = newlyAllows.counterexample {
            #expect(try SolverSupport.passes(counterexample, against: membership))
        }
        #expect(newlyDenies.isProved, "on a map both are the key test; keys() of a list errors")
        let abstractions = analyzer.abstractions([membership], shape)
        #expect(abstractions.contains { $0.construct.contains("'in' on a list or set") }, "\(abstractions)")
    }

    /// A map stays a key test, exactly: what it admits is found and what it excludes is proved.
    @Test func inOnAMapFieldIsStillAnExactKeyTest() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let policy = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.x is map && 'a' in request.resource.data.x; }")
        let verdict = analyzer.alwaysDenies(policy, shape)
        let counterexample = try #require(verdict.counterexample, "\(verdict)")
        #expect(try SolverSupport.passes(counterexample, against: policy))
        let narrower = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.x is map && request.resource.data.x.a == 1; }")
        #expect(analyzer.implies(narrower, policy, shape).isProved)
    }
}
