import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity

/// Guarantees that must hold for every request, checked on a fixed-seed random sample.
@Suite("Decision properties over random requests")
struct DecisionPropertyTests {
    static let policies = [
        "workout-tracker/appendix-a.rules", "workout-tracker/corrected.rules", "trainer-student/firestore.rules",
        "planner/firestore.yaml", "coach-app/firestore.rules",
    ]

    /// Random requests built from a policy's test file: its paths (and mutations of them), its
    /// auths and claims, and its write data with fields dropped or retyped.
    static func requests(for suite: SecurityTestSuite, count: Int, seed: UInt64) -> [SecurityRequest] {
        var random = SplitMix(seed: seed)
        let paths = suite.cases.map(\.request.operation.path) + suite.documents.documents.keys.map { RequestPath($0, service: .firestore) }
        let auths: [AuthContext?] = suite.cases.map(\.request.auth) + [nil, AuthContext(uid: "mallory", token: ["admin": .bool(true), "role": .string("admin")])]
        let data: [Value.Map] = suite.documents.documents.values.map { $0 }
        let oddValues: [Value] = [.null, .int(-1), .float(1e9), .string(""), .bool(true), .list([]), .map([:])]
        var out: [SecurityRequest] = []
        for _ in 0..<count {
            var segments = paths[random.next(upTo: paths.count)].segments
            if random.next(upTo: 5) == 0, segments.count > 4 { segments[3 + random.next(upTo: segments.count - 3)] = "x" }
            let path = RequestPath(segments: segments)
            var fields = data.isEmpty ? [:] : data[random.next(upTo: data.count)]
            if !fields.isEmpty, random.next(upTo: 2) == 0 { fields.remove(at: random.next(upTo: fields.count)) }
            if !fields.isEmpty, random.next(upTo: 2) == 0 {
                fields.values[random.next(upTo: fields.count)] = oddValues[random.next(upTo: oddValues.count)]
            }
            let operation: SecurityOperation
            switch random.next(upTo: 6) {
            case 0: operation = .get(path)
            case 1: operation = .list(RequestPath(segments: Array(segments.dropLast())), ListQuery(limit: 10))
            case 2: operation = .create(path, WriteData(fields))
            case 3: operation = .update(path, WriteData(fields))
            case 4: operation = .set(path, WriteData(fields))
            default: operation = .delete(path)
            }
            out.append(SecurityRequest(auth: auths[random.next(upTo: auths.count)], operation: operation, time: SecurityTestSuite.defaultTime))
        }
        return out
    }

    @Test("explaining, evaluating every statement and converting the policy never change a decision", arguments: policies)
    func decisionsAreStable(policyName: String) throws {
        let testFile = shippedTestFiles.first { $0.contains(policyName.split(separator: "/")[0]) && $0.hasSuffix((policyName as NSString).deletingPathExtension.split(separator: "/")[1] + ".tests.yaml") }
        let suite = try SecurityTestSuite.load(file: try #require(testFile))
        let policy = try CompiledPolicy(suite.policy)
        let convertedPolicy: SecurityPolicy = suite.policy.origin.syntax == .native
            ? try YAMLPolicyReader.parse(PolicyPrinter.yaml(suite.policy), file: "converted.yaml")
            : try RulesFileParser.parse(PolicyPrinter.native(suite.policy), file: "converted.rules")
        let converted = try CompiledPolicy(convertedPolicy)
        var allowed = 0
        for request in Self.requests(for: suite, count: 400, seed: 7) {
            let plain = policy.decide(request, store: suite.documents)
            let explained = policy.decide(request, store: suite.documents, options: DecisionOptions(explain: true, evaluateAll: true))
            #expect(plain.allowed == explained.allowed)
            #expect(converted.decide(request, store: suite.documents).allowed == plain.allowed)
            if plain.allowed {
                allowed += 1
                #expect(plain.grantedBy != nil)
            } else {
                #expect(!plain.summary.isEmpty)
            }
            // A grant comes from a statement that evaluated to true, and a deny has none (these
            // requests have one query branch and stay under the document-read limit).
            #expect(plain.allowed == plain.evaluations.contains { $0.outcome == .granted })
        }
        // The sample must exercise both answers, or it checks nothing.
        #expect(allowed > 0 && allowed < 400)
    }
}

import Foundation
import OrderedCollections
