import OrderedCollections
import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity

/// The work a decision leaves out must never change its answer.
@Suite("Decision shortcuts")
struct DecisionShortcutTests {
    static let docPath = RequestPath("docs/d1", service: .firestore)
    /// `docs/d1` holding `{n: 1}`.
    static let storeWithN = DocumentStore([docPath.description: ["n": .int(1)]])

    /// Updates of `docs/d1` setting `n` to -1 and to 1, with the value set.
    static func updatesOfN() -> [(SecurityRequest, Int64)] {
        [Int64(-1), 1].map { n in
            (SecurityRequest(auth: AuthContext(uid: "u"), operation: .update(docPath, WriteData(["n": .int(n)])), time: SecurityTestSuite.defaultTime), n)
        }
    }

    /// Whether a condition reads the variable `resource` is asked of the compiled condition, so
    /// names are resolved: a member `request.resource`, another variable whose name contains the
    /// word, and the word inside a string are not reads; a read inside a function counts.
    @Test("reading `resource` is recognised from the compiled condition, functions included", arguments: [
        ("resource.data.owner == 'a'", true),
        ("isOwner(resource)", true),
        ("isOwner(request) || resource != null", true),
        ("touchesResource()", true),
        ("request.resource.data.x == 1", false),
        ("request .\n  resource.data.x == 1", false),
        ("resources.size() > 0", false),
        ("myresource == '1'", false),
        ("'resource' == 'x'", false),
        ("", false),
    ])
    func mayReadResource(text: String, expected: Bool) throws {
        let condition = text.isEmpty ? "" : ": if \(text)"
        // Only declared where used: every function in scope counts, called or not.
        let helper = text.contains("touchesResource") ? "function touchesResource() { return resource != null; }" : ""
        let policy = try firestorePolicy("""
            function isOwner(r) { return r != null; }
            match /docs/{resources}/items/{myresource} {
              \(helper)
              allow update\(condition);
            }
        """)
        #expect(policy.program.readsResource == expected)
    }

    @Test("a policy that never reads `resource` decides as one that does")
    func unreadResourceIsNotBuilt() throws {
        let unread = try firestorePolicy("""
            match /docs/{id} {
              allow update: if request.resource.data.n > 0;
            }
        """)
        let read = try firestorePolicy("""
            match /docs/{id} {
              allow update: if request.resource.data.n > 0 && (resource == null || resource != null);
            }
        """)
        #expect(!unread.program.readsResource)
        #expect(read.program.readsResource)
        for (request, n) in Self.updatesOfN() {
            #expect(unread.decide(request, store: Self.storeWithN).allowed == read.decide(request, store: Self.storeWithN).allowed)
            #expect(unread.decide(request, store: Self.storeWithN).allowed == (n > 0))
        }
    }

    @Test("only a policy that may call get() and the like builds document access; a map's get() method is no call")
    func documentAccessOnlyWhenCalled() throws {
        let none = try firestorePolicy("""
            match /docs/{id} {
              allow update: if request.resource.data.get('n', 0) > 0;
            }
        """)
        let calls = try firestorePolicy("""
            match /docs/{id} {
              allow update: if exists(/databases/$(database)/documents/docs/$(id)) && request.resource.data.n > 0;
            }
        """)
        #expect(!none.program.callsHost)
        #expect(calls.program.callsHost)
        for (request, n) in Self.updatesOfN() {
            #expect(none.decide(request, store: Self.storeWithN).allowed == (n > 0))
            #expect(calls.decide(request, store: Self.storeWithN).allowed == (n > 0))
        }
    }

    @Test("the flattened walk and the recursive one find the same statements with the same bindings")
    func flatWalkMatchesRecursiveWalk() throws {
        let body = """
            match /users/{userId} {
              allow read: if userId == 'a';
              match /posts/{postId} {
                allow read, write: if postId != 'x';
                allow get: if false;
              }
            }
            match /users/{other}/posts/{p} {
              allow get: if other == 'b';
            }
        """
        let flat = try firestorePolicy(body)
        // The same tree plus a block with a recursive wildcard elsewhere: walked recursively.
        let recursive = try firestorePolicy(body + "\n    match /logs/{rest=**} { allow read: if false; }")
        #expect(flat.program.walk != nil)
        #expect(recursive.program.walk == nil)
        let options = DecisionOptions(explain: true, evaluateAll: true)
        for path in ["users/a", "users/b/posts/p1", "users/b/posts/x", "users/a/posts", "other/a"] {
            let request = SecurityRequest(
                auth: AuthContext(uid: "u"), operation: .get(RequestPath(path, service: .firestore)), time: SecurityTestSuite.defaultTime)
            let a = flat.decide(request, store: DocumentStore(), options: options)
            let b = recursive.decide(request, store: DocumentStore(), options: options)
            #expect(a.allowed == b.allowed)
            #expect(a.summary == b.summary)
            #expect(a.evaluations.map(\.bindings.description) == b.evaluations.map(\.bindings.description))
            #expect(a.evaluations.map(\.statement.location) == b.evaluations.map(\.statement.location))
        }
    }

    /// Without coverage or explanation a statement is evaluated untraced and its record built
    /// in place; with a coverage recorder it goes through the traced path. Both must record the
    /// same outcomes, errors included, and the same bindings.
    @Test("untraced records equal traced ones over the benchmark workload")
    func untracedRecordsMatchTraced() throws {
        let policy = try CompiledPolicy(try PolicyLoader.load(file: repositoryRoot + "/rules/security/workout-tracker/appendix-a.rules"))
        let workload = SecurityBenchmark(count: 300)
        var failures = 0
        for options in [DecisionOptions(), DecisionOptions(evaluateAll: true)] {
            for request in workload.requests {
                let plain = policy.decide(request, store: workload.store, options: options)
                let traced = policy.decide(request, store: workload.store, options: options, coverage: CoverageRecorder(policy: policy))
                #expect(plain.allowed == traced.allowed)
                #expect(plain.summary == traced.summary)
                #expect(plain.evaluations.map(\.outcome) == traced.evaluations.map(\.outcome))
                #expect(plain.evaluations.map(\.statement.location) == traced.evaluations.map(\.statement.location))
                #expect(plain.evaluations.map(\.bindings.description) == traced.evaluations.map(\.bindings.description))
                failures += plain.evaluations.filter { if case .failed = $0.outcome { true } else { false } }.count
            }
        }
        // The workload must reach the error outcome, or the comparison proves little.
        #expect(failures > 0)
    }
}
