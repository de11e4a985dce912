import Foundation
import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity
import OrderedCollections

/// A policy whose rules read only fields of `request` and `resource` gets them projected (see
/// ``RequestLayout``); one that uses a map whole gets the map. Both must decide, record and
/// explain every request exactly alike.
@Suite("Projected request fields")
struct ProjectedRequestTests {
    /// `policy` with a function that uses `request`, `request.resource` and `resource` whole, so
    /// nothing is projected. Appended last, it shifts no other function's spans.
    static func wholeVariant(of policy: SecurityPolicy) -> SecurityPolicy {
        var whole = policy
        whole.functions.append(FunctionDeclaration(
            name: "usesTheMapsWhole", parameters: [], lets: [],
            body: PolicyExpression(SourceText("[request, request.resource, resource]")),
            location: SourceLocation(file: "<test>", line: 1, column: 1)))
        return whole
    }

    @Test("projected and whole maps give the same decisions, records and explanations", arguments: DecisionPropertyTests.policies)
    func sameDecisions(policyName: String) throws {
        let testFile = repositoryRoot + "/rules/security/" + (policyName as NSString).deletingPathExtension + ".tests.yaml"
        let suite = try SecurityTestSuite.load(file: testFile)
        let projected = try CompiledPolicy(suite.policy)
        let whole = try CompiledPolicy(Self.wholeVariant(of: suite.policy))
        // The shipped policies read fields only: their requests are projected, the variant's are not.
        #expect(projected.layout.projectsRequest)
        #expect(!whole.layout.projectsRequest && !whole.layout.projectsResource)
        let requests = suite.cases.map(\.request) + DecisionPropertyTests.requests(for: suite, count: 1_500, seed: 0x9A0_1)
        let options = DecisionOptions(explain: true, evaluateAll: true)
        for request in requests {
            let expected = whole.decide(request, store: suite.documents, options: options)
            let actual = projected.decide(request, store: suite.documents, options: options)
            #expect(actual.allowed == expected.allowed, "\(request)")
            let actualOutcomes = actual.evaluations.map { "\($0.outcome) \(String(describing: $0.culprit))" }
            let expectedOutcomes = expected.evaluations.map { "\($0.outcome) \(String(describing: $0.culprit))" }
            #expect(actualOutcomes == expectedOutcomes, "\(request)")
            #expect(projected.isAllowed(request, store: suite.documents) == expected.allowed, "\(request)")
        }
    }

    /// Rules that read every projected field, in read and write rules alike (where some are
    /// absent or null), compiled as they are and with the maps used whole.
    static let everyField = """
        match /items/{id} {
          function owner(d) { return d.owner == request.auth.uid; }
          allow get: if request.resource.data.x == 1 || request.method == 'get' && request.path != null
            && resource.id == id && resource.__name__ != null && request.time != null && owner(resource.data);
          allow list: if request.query.limit <= 10 && request.auth.uid != null;
          allow create, update: if owner(request.resource.data) && request.resource.id == id
            && request.resource.__name__ != null && request.auth.token.admin != false;
          allow delete: if owner(resource.data) || request.resource.data == null;
        }
        """

    @Test("every projected field, present, absent or null, reads as in the whole map")
    func everyProjectedField() throws {
        let projected = try firestorePolicy(Self.everyField)
        let whole = try firestorePolicy(Self.everyField + "\nfunction usesTheMapsWhole() { return [request, request.resource, resource]; }")
        #expect(projected.layout.projectsRequest && projected.layout.projectsRequestResource && projected.layout.projectsResource)
        #expect(!whole.layout.projectsRequest && !whole.layout.projectsResource)
        let stored = store(["items/a": ["owner": .string("alice"), "x": .int(1)], "items/b": ["owner": .string("bob")]])
        let data: [Value.Map] = [["owner": .string("alice")], ["owner": .string("bob"), "x": .int(1)], [:]]
        var operations: [SecurityOperation] = [.list(doc("items"), ListQuery(limit: 5)), .list(doc("items"), ListQuery(limit: 50))]
        for id in ["a", "b", "c"] {
            operations += [.get(doc("items/\(id)")), .delete(doc("items/\(id)"))]
            for fields in data {
                operations += [.create(doc("items/\(id)"), WriteData(fields)), .update(doc("items/\(id)"), WriteData(fields)), .set(doc("items/\(id)"), WriteData(fields))]
            }
        }
        let options = DecisionOptions(explain: true, evaluateAll: true)
        var allowed: Set<Bool> = []
        for operation in operations {
            for caller in [request(operation), request(operation, uid: "bob", token: ["admin": .bool(false)]), request(operation, uid: nil)] {
                let expected = whole.decide(caller, store: stored, options: options)
                let actual = projected.decide(caller, store: stored, options: options)
                #expect(actual.allowed == expected.allowed, "\(caller)")
                #expect(actual.evaluations.map { "\($0.outcome) \(String(describing: $0.culprit))" }
                    == expected.evaluations.map { "\($0.outcome) \(String(describing: $0.culprit))" }, "\(caller)")
                #expect(projected.isAllowed(caller, store: stored) == expected.allowed, "\(caller)")
                allowed.insert(expected.allowed)
            }
        }
        #expect(allowed == [true, false])
    }

    @Test("only the fields the rules name get slots, and a whole use keeps the map")
    func fieldsNamedByTheRules() throws {
        let policy = try CompiledPolicy(try PolicyLoader.load(file: repositoryRoot + "/rules/security/workout-tracker/appendix-a.rules"))
        let layout = policy.layout
        #expect(layout.projectsRequest && layout.projectsRequestResource)
        #expect(layout.auth >= 0 && layout.requestResourceData >= 0)
        // Appendix A never names these: they get no slot and nothing builds them.
        #expect(layout.time < 0 && layout.method < 0 && layout.path < 0 && layout.resourceData < 0)
    }
}
