import Foundation
import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity
import OrderedCollections

/// `isAllowed(_:store:)` answers allow or deny without the records that explain it. It must give
/// `decide(_:store:).allowed` for every request of every policy, whichever path it takes.
@Suite("Allow/deny-only decisions")
struct AllowOnlyDecisionTests {
    @Test("every case of every shipped test file gets the same answer as decide()", arguments: shippedTestFiles)
    func shippedCases(file: String) throws {
        let suite = try SecurityTestSuite.load(file: file)
        let policy = try CompiledPolicy(suite.policy)
        for testCase in suite.cases {
            var documents = suite.documents
            for (path, data) in testCase.documents { documents[path] = data }
            let decision = policy.decide(testCase.request, store: documents)
            #expect(policy.isAllowed(testCase.request, store: documents) == decision.allowed, "\(testCase.name)")
            #expect(decision.allowed == testCase.expectAllow, "\(testCase.name)")
        }
    }

    @Test("random requests against every shipped policy get the same answer as decide()", arguments: DecisionPropertyTests.policies)
    func randomRequests(policyName: String) throws {
        let testFile = repositoryRoot + "/rules/security/" + (policyName as NSString).deletingPathExtension + ".tests.yaml"
        let suite = try SecurityTestSuite.load(file: testFile)
        let policy = try CompiledPolicy(suite.policy)
        var answers: Set<Bool> = []
        for request in DecisionPropertyTests.requests(for: suite, count: 1_500, seed: 0xA11_0) {
            let allowed = policy.decide(request, store: suite.documents).allowed
            #expect(policy.isAllowed(request, store: suite.documents) == allowed, "\(request)")
            answers.insert(allowed)
        }
        #expect(answers == [true, false])
    }

    @Test("the benchmark's 1,000 requests take the short path and get the same answers as decide()")
    func benchmarkWorkload() throws {
        let policy = try CompiledPolicy(try PolicyLoader.load(file: repositoryRoot + "/rules/security/workout-tracker/appendix-a.rules"))
        // Appendix A calls no get()/exists() and has no recursive wildcard: the allow-only path applies.
        #expect(policy.program.walk != nil && !policy.program.callsHost)
        let workload = SecurityBenchmark()
        let decided = workload.requests.map { policy.decide($0, store: workload.store).allowed }
        let answered = workload.requests.map { policy.isAllowed($0, store: workload.store) }
        #expect(answered == decided)
        #expect(decided.contains(true) && decided.contains(false))
    }

    @Test("a condition that errors where an && operand is false, or absorbs an error in ||, answers as decide() does")
    func errorsAndAbsorption() throws {
        let policy = try firestorePolicy("""
            match /items/{id} {
              function valid(d) {
                let named = d.name != null;
                return (!d.count || d.count is int) && named && d.count >= 0;
              }
              allow create: if request.auth.token.admin == true && valid(request.resource.data);
              allow update: if request.auth.token.admin == true || valid(request.resource.data);
              allow delete: if request.auth.token.admin == true || request.auth.uid == id;
            }
        """)
        let stored = store(["items/a": ["name": .string("n"), "count": .int(1)]])
        let cases: [SecurityRequest] = [
            request(.create(doc("items/b"), WriteData(["name": .string("x"), "count": .int(2)])), token: ["admin": .bool(true)]),
            request(.create(doc("items/b"), WriteData(["name": .string("x"), "count": .int(2)]))),
            request(.create(doc("items/b"), WriteData(["count": .int(-1)])), token: ["admin": .bool(true)]),
            request(.update(doc("items/a"), WriteData(["count": .int(3)]))),
            request(.update(doc("items/a"), WriteData(["count": .string("3")]))),
            request(.delete(doc("items/a")), uid: "a"),
            request(.delete(doc("items/a")), uid: "b"),
            request(.delete(doc("items/a")), uid: nil),
        ]
        let expected = [true, false, false, true, false, true, false, false]
        for (request, allowed) in zip(cases, expected) {
            #expect(policy.decide(request, store: stored).allowed == allowed, "\(request.operation)")
            #expect(policy.isAllowed(request, store: stored) == allowed, "\(request.operation)")
        }
    }
}
