import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity

/// Issue 33: a request path deeper than Firestore's limit is refused before any rule runs (a
/// 12,000-segment path under `{doc=**}` took 1.1 GB), on both decision paths; at the limit it is
/// decided as usual.
@Suite("Path depth limit")
struct PathDepthLimitTests {
    static let rules = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /{doc=**} {
              allow read: if doc != null;
            }
          }
        }
        """

    static func request(depth: Int) -> SecurityRequest {
        let path = (0..<depth).map { $0 % 2 == 0 ? "c\($0)" : "d\($0)" }.joined(separator: "/")
        return SecurityRequest(auth: AuthContext(uid: "u"), operation: .get(RequestPath(path, service: .firestore)), time: SecurityTestSuite.defaultTime)
    }

    @Test(arguments: [2, 100, 101, 12_000])
    func deepPathsAreRefusedBeforeMatching(depth: Int) throws {
        let policy = try CompiledPolicy(try PolicyLoader.parse(Self.rules, file: "deep.rules"))
        let request = Self.request(depth: depth)
        let decision = policy.decide(request, store: DocumentStore([:]))
        #expect(decision.allowed == (depth <= RequestPath.maxDepth))
        #expect(policy.isAllowed(request, store: DocumentStore([:])) == decision.allowed)
        if depth > RequestPath.maxDepth {
            #expect(decision.evaluations.isEmpty)
            #expect("\(decision)".contains("limit is 100") || decision.note?.contains("limit is 100") == true)
        }
    }
}
