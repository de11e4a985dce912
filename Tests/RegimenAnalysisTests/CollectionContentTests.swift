@testable import RegimenAnalysis
@testable import RegimenLanguage
@testable import RegimenSecurity
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
        let counterexample = try #require(newlyAllows.counterexample, "x = ['a']: membership allows, keys() errors: \(newlyAllows)")
        #expect(try SolverSupport.passes(counterexample, against: membership))
        #expect(newlyDenies.isProved, "on a map both are the key test; keys() of a list errors")
        // Lists longer than the encoding decides exactly stay abstract, and the report says so.
        let abstractions = analyzer.abstractions([membership], shape)
        #expect(abstractions.contains { $0.construct.contains("'in' on a list of more than") }, "\(abstractions)")
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

    /// A list read from data has a length and elements: `size()` is exact (before, an abstract
    /// value that could be a float, so `size() <= 3` and `size() < 4` were not provably the same).
    @Test func sizeOfAListFieldIsExact() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let atMost = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.tags is list && request.resource.data.tags.size() <= 3; }")
        let below = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.tags is list && request.resource.data.tags.size() < 4; }")
        let (newlyAllows, newlyDenies) = analyzer.equivalent(atMost, below, shape)
        #expect(newlyAllows.isProved && newlyDenies.isProved, "\(newlyAllows) \(newlyDenies)")
        let wider = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.tags is list && request.resource.data.tags.size() <= 4; }")
        let widened = analyzer.implies(wider, atMost, shape)
        let counterexample = try #require(widened.counterexample, "\(widened)")
        #expect(try SolverSupport.passes(counterexample, against: wider))
    }

    /// Membership and `hasAll`/`hasAny`/`hasOnly` of a literal list over a list field find
    /// concrete lists that the evaluator confirms (before, lists were written empty and such a
    /// request stayed "possible, unconfirmed").
    @Test(arguments: [
        "'a' in request.resource.data.tags",
        "request.resource.data.tags.hasAll(['a', 'b'])",
        "request.resource.data.tags.hasAny(['b'])",
        "request.resource.data.tags.hasOnly(['a']) && request.resource.data.tags.size() == 2",
    ])
    func listContentsMakeConfirmedCounterexamples(_ condition: String) throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let policy = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.tags is list && \(condition); }")
        let verdict = analyzer.alwaysDenies(policy, shape)
        let counterexample = try #require(verdict.counterexample, "\(verdict)")
        #expect(counterexample.testCase.contains("'tags': ["), "\(counterexample.testCase)")
        #expect(try SolverSupport.passes(counterexample, against: policy))
    }

    /// `hasOnly` narrowed is a confirmed difference: the wider set admits a list the narrower
    /// refuses; and what the narrower admits, the wider does (proved).
    @Test func narrowingHasOnlyIsADifference() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let wide = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.tags is list && request.resource.data.tags.size() <= 4 && request.resource.data.tags.hasOnly(['a', 'b']); }")
        let narrow = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.tags is list && request.resource.data.tags.size() <= 4 && request.resource.data.tags.hasOnly(['a']); }")
        let (newlyAllows, newlyDenies) = analyzer.equivalent(narrow, wide, shape)
        let counterexample = try #require(newlyAllows.counterexample, "\(newlyAllows)")
        #expect(counterexample.testCase.contains("'b'"), "\(counterexample.testCase)")
        #expect(try SolverSupport.passes(counterexample, against: wide))
        #expect(newlyDenies.isProved, "\(newlyDenies)")
    }

    /// `diff().affectedKeys()` of the request's data and the stored data: `hasOnly` of literal keys
    /// is exact (before, abstract: every mutant of an update rule built on it stayed unknown).
    @Test func affectedKeysHasOnlyIsExact() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.update, "/p/{id}")
        let narrow = try SolverSupport.policy("match /p/{id} { allow update: if request.resource.data.diff(resource.data).affectedKeys().hasOnly(['status']); }")
        let wide = try SolverSupport.policy("match /p/{id} { allow update: if request.resource.data.diff(resource.data).affectedKeys().hasOnly(['status', 'note']); }")
        let (newlyAllows, newlyDenies) = analyzer.equivalent(narrow, wide, shape)
        let counterexample = try #require(newlyAllows.counterexample, "\(newlyAllows)")
        #expect(counterexample.testCase.contains("'note'"), "\(counterexample.testCase)")
        #expect(try SolverSupport.passes(counterexample, against: wide))
        #expect(newlyDenies.isProved, "\(newlyDenies)")
        // A field outside the allowed keys cannot change: proved.
        let contradiction = try SolverSupport.policy("""
            match /p/{id} {
              allow update: if request.resource.data.diff(resource.data).affectedKeys().hasOnly(['status'])
                && request.resource.data.owner != resource.data.owner;
            }
        """)
        #expect(analyzer.alwaysDenies(contradiction, shape).isProved)
    }

    /// `hasAny` of affected keys is exact too: changing a protected field is found and confirmed.
    @Test func affectedKeysHasAnyFindsTheChange() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.update, "/p/{id}")
        let policy = try SolverSupport.policy("match /p/{id} { allow update: if !request.resource.data.diff(resource.data).affectedKeys().hasAny(['role', 'owner']); }")
        let verdict = analyzer.alwaysAllows(policy, shape)
        let counterexample = try #require(verdict.counterexample, "\(verdict)")
        #expect(try SolverSupport.passes(counterexample, against: policy))
        #expect(analyzer.abstractions([policy], shape).isEmpty, "\(analyzer.abstractions([policy], shape))")
    }

    /// A map's size() counts its fields (read or not): a request with exactly the keys named is
    /// found and confirmed, and `keys().hasOnly(['a', 'b'])` proves `size() <= 2` (before,
    /// size() of a map was abstract).
    @Test func sizeOfAMapIsItsKeys() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let two = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.size() == 2 && request.resource.data.a == 1; }")
        let verdict = analyzer.alwaysDenies(two, shape)
        let counterexample = try #require(verdict.counterexample, "\(verdict)")
        #expect(try SolverSupport.passes(counterexample, against: two))
        let only = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.keys().hasOnly(['a', 'b']); }")
        let small = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.size() <= 2; }")
        #expect(analyzer.implies(only, small, shape).isProved)
    }

    /// `list.toSet().size()` counts distinct elements (1 and 1.0 are one): the trainer-student
    /// policy's "no day twice" check finds lists with and without repeats, both confirmed.
    @Test(arguments: ["==", "<"])
    func toSetSizeCountsDistinctElements(_ comparison: String) throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let policy = try SolverSupport.policy("""
            match /p/{id} {
              allow create: if request.resource.data.days is list && request.resource.data.days.size() == 3
                && request.resource.data.days.toSet().size() \(comparison) request.resource.data.days.size();
            }
        """)
        let verdict = analyzer.alwaysDenies(policy, shape)
        let counterexample = try #require(verdict.counterexample, "\(verdict)")
        #expect(try SolverSupport.passes(counterexample, against: policy))
    }

    /// A document a rule reads by a path built from request data is written under a path a test
    /// file accepts (before, the solver chose an empty id, `workouts/`, and the request stayed
    /// "possible, unconfirmed": the test runner refused it).
    @Test func aDocumentPathFromDataIsWrittenWithNonEmptySegments() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/f/{id}")
        func policy(_ comparison: String) throws -> SecurityPolicy {
            try SolverSupport.policy("""
                match /f/{id} {
                  allow create: if get(/databases/$(database)/documents/w/$(request.resource.data.workoutId)).data.owner == request.auth.uid
                    && request.resource.data.message is string && request.resource.data.message.size() \(comparison) 0;
                }
            """)
        }
        let (newlyAllows, _) = analyzer.equivalent(try policy(">"), try policy(">="), shape)
        let counterexample = try #require(newlyAllows.counterexample, "\(newlyAllows)")
        #expect(!counterexample.testCase.contains("'w/'"), "\(counterexample.testCase)")
        #expect(try SolverSupport.passes(counterexample, against: try policy(">=")))
    }

    /// `get(key, default)` keeps both sides' structure: list methods on the field's list or on
    /// the default, `keys()` of the field's map or of `{}`, all exact; before, every method after
    /// `get()` was abstract and the planner policy's mutants stayed unknown.
    @Test(arguments: [
        ("request.resource.data.get('tags', []).hasOnly(['a', 'b'])", "request.resource.data.get('tags', []).hasOnly(['a'])"),
        ("request.resource.data.get('o', {}).keys().hasOnly(['x', 'y'])", "request.resource.data.get('o', {}).keys().hasOnly(['x'])"),
        ("request.resource.data.get('o', {'x': 1}).x == 1", "request.resource.data.get('o', {'x': 2}).x == 1"),
    ])
    func getWithADefaultKeepsBothSides(_ wide: String, _ narrow: String) throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let widePolicy = try SolverSupport.policy("match /p/{id} { allow create: if \(wide); }")
        let narrowPolicy = try SolverSupport.policy("match /p/{id} { allow create: if \(narrow); }")
        let (newlyAllows, _) = analyzer.equivalent(narrowPolicy, widePolicy, shape)
        let counterexample = try #require(newlyAllows.counterexample, "\(newlyAllows)")
        #expect(try SolverSupport.passes(counterexample, against: widePolicy))
    }

    /// `values().hasOnly([...])` of a map read field by field is exact over its fields (a map
    /// with keys no rule reads stays abstract): a value outside the list is found and confirmed.
    @Test func valuesHasOnlyIsExactOverTheFieldsRead() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.create, "/p/{id}")
        let narrow = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.s is map && request.resource.data.s.get('legs', 1) is int && request.resource.data.s.values().hasOnly([1, 2]); }")
        let wide = try SolverSupport.policy("match /p/{id} { allow create: if request.resource.data.s is map && request.resource.data.s.get('legs', 1) is int && request.resource.data.s.values().hasOnly([1, 2, 3]); }")
        let (newlyAllows, newlyDenies) = analyzer.equivalent(narrow, wide, shape)
        let counterexample = try #require(newlyAllows.counterexample, "\(newlyAllows)")
        #expect(counterexample.testCase.contains("'legs': 3"), "\(counterexample.testCase)")
        #expect(try SolverSupport.passes(counterexample, against: wide))
        #expect(newlyDenies.counterexample == nil, "whatever [1, 2] admits, [1, 2, 3] admits: \(newlyDenies)")
    }

    /// Before: `gymId in request.auth.token.get('gymIds', [])` (a path segment in a token's
    /// list) was abstract whenever the element was not a literal, so the coach-app's `ownsGym`
    /// mutants stayed "possible, unconfirmed". A field that holds a list is now searched exactly
    /// for a computed element too; a computed key of a map stays abstract.
    @Test func aComputedElementInAListFieldIsExact() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        let shape = SolverSupport.shape(.update, "/gyms/{gymId}")
        let owner = "request.auth != null && request.auth.token.get('role', 'member') == 'gymOwner'"
        let narrow = try SolverSupport.policy("match /gyms/{gymId} { allow update: if \(owner) && gymId in request.auth.token.get('gymIds', []); }")
        let wide = try SolverSupport.policy("match /gyms/{gymId} { allow update: if \(owner) || gymId in request.auth.token.get('gymIds', []); }")
        let (newlyAllows, newlyDenies) = analyzer.equivalent(narrow, wide, shape)
        let opened = try #require(newlyAllows.counterexample, "\(newlyAllows)")
        #expect(try SolverSupport.passes(opened, against: wide))
        #expect(newlyDenies.isProved, "whatever needs both conditions is allowed by either")
        // The owner of a gym listed in the token is allowed: found, with the list written.
        let allowed = try #require(analyzer.alwaysDenies(narrow, shape).counterexample)
        #expect(try SolverSupport.passes(allowed, against: narrow))
        #expect(allowed.testCase.contains("'gymIds': ["), "\(allowed.testCase)")
    }

    /// Before: `data.diff(resource == null ? {} : resource.data).affectedKeys().hasAny([...])`
    /// (the coach-app's `keepsStaffFields`) was abstract, since a conditional made an opaque
    /// value: every mutant of it, and of the rules beside it, stayed "possible, unconfirmed". A
    /// conditional now keeps both branches, a diff is taken per branch, and the diff from `{}`
    /// has the map's own keys as its affected keys: exact on create and on update.
    @Test func aDiffFromAConditionalMapIsExact() throws {
        guard let analyzer = SolverSupport.analyzer() else { return }
        func policy(_ keys: String) throws -> SecurityPolicy {
            try SolverSupport.policy("match /users/{uid} { allow create, update: if request.auth != null && request.auth.uid == uid && !request.resource.data.diff(resource == null ? {} : resource.data).affectedKeys().hasAny(\(keys)); }")
        }
        let guarded = try policy("['trainerId', 'gymId', 'role']")
        let typo = try policy("['trainerId', 'gymId', 'rolex']")
        for method in [AnalysedMethod.create, .update] {
            let shape = SolverSupport.shape(method, "/users/{uid}")
            let (newlyAllows, newlyDenies) = analyzer.equivalent(guarded, typo, shape)
            let opened = try #require(newlyAllows.counterexample, "\(method): a member who sets their own role: \(newlyAllows)")
            #expect(try SolverSupport.passes(opened, against: typo))
            #expect(opened.testCase.contains("'role'"), "\(opened.testCase)")
            #expect(newlyDenies.counterexample != nil, "\(method): a member who sets 'rolex'")
        }
        // Reordered keys are the same policy, proved.
        let reordered = try policy("['role', 'gymId', 'trainerId']")
        for method in [AnalysedMethod.create, .update] {
            let (a, b) = analyzer.equivalent(guarded, reordered, SolverSupport.shape(method, "/users/{uid}"))
            #expect(a.isProved && b.isProved, "\(method): \(a) \(b)")
        }
    }
}
