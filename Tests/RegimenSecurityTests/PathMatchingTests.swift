import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity
import OrderedCollections

@Suite("Path matching as Firestore does it")
struct PathMatchingTests {
    struct Row: Sendable, CustomStringConvertible {
        var pattern: String
        var path: String
        var version2: Bool
        /// Each alignment as "end:binding=value,…", or empty when nothing matches.
        var expected: [String]
        var description: String { "\(pattern) ~ \(path) v\(version2 ? 2 : 1)" }
    }

    static let rows: [Row] = [
        Row(pattern: "/users/{id}", path: "users/alice", version2: true, expected: ["2:id='alice'"]),
        Row(pattern: "/users/{id}", path: "users", version2: true, expected: []),
        Row(pattern: "/users/{id}", path: "people/alice", version2: true, expected: []),
        Row(pattern: "/users/{id}", path: "users/alice/programs/p1", version2: true, expected: ["2:id='alice'"]),
        // v2: a recursive wildcard takes zero or more segments and binds a path.
        Row(pattern: "/cities/{city}/{document=**}", path: "cities/SF", version2: true, expected: ["2:city='SF',document=path('/')"]),
        Row(pattern: "/cities/{city}/{document=**}", path: "cities/SF/landmarks/x", version2: true,
            expected: ["2:city='SF',document=path('/')", "3:city='SF',document=path('/landmarks')", "4:city='SF',document=path('/landmarks/x')"]),
        // v1: one or more segments, so the city document itself is not matched.
        Row(pattern: "/cities/{city}/{document=**}", path: "cities/SF", version2: false, expected: []),
        Row(pattern: "/cities/{city}/{document=**}", path: "cities/SF/landmarks/x", version2: false, expected: ["4:city='SF',document=path('/landmarks/x')"]),
        // v2: the recursive wildcard may sit in the middle (collection-group rules).
        Row(pattern: "/{path=**}/songs/{song}", path: "artists/a/songs/s1", version2: true, expected: ["4:path=path('/artists/a'),song='s1'"]),
        Row(pattern: "/{path=**}/songs/{song}", path: "songs/s1", version2: true, expected: ["2:path=path('/'),song='s1'"]),
        Row(pattern: "/a/{x}/b", path: "a/1/c", version2: true, expected: []),
    ]

    @Test("one pattern against one path", arguments: rows)
    func pattern(row: Row) throws {
        guard case .success(let pattern) = PathPattern.parse(row.pattern) else {
            Issue.record("pattern did not parse")
            return
        }
        let segments = row.path.split(separator: "/").map(String.init)
        let matches = PathMatcher.matches(pattern.segments, segments, from: 0, version2: row.version2)
        let described = matches.map { m in "\(m.end):" + m.captures.map { "\($0.name)=\($0.value)" }.joined(separator: ",") }
        #expect(described == row.expected)
    }

    @Test("a partial match leads only to nested matches; subcollections are not covered by their parent")
    func partialMatches() throws {
        let policy = try firestorePolicy("""
            match /cities/{city} {
              allow read: if true;
            }
        """)
        let store = store(["cities/SF": [:], "cities/SF/landmarks/x": [:]])
        #expect(policy.decide(request(.get(doc("cities/SF"))), store: store).allowed)
        let sub = policy.decide(request(.get(doc("cities/SF/landmarks/x"))), store: store)
        #expect(!sub.allowed)
        #expect(sub.summary.contains("no matching allow statements"))
    }

    @Test("overlapping matches: any allow grants, a stricter one cannot narrow a broader one")
    func overlap() throws {
        let policy = try firestorePolicy("""
            match /cities/{city} {
              allow read: if false;
            }
            match /cities/{document=**} {
              allow read: if true;
            }
        """)
        let decision = policy.decide(request(.get(doc("cities/SF"))), store: DocumentStore())
        #expect(decision.allowed)
        #expect(decision.grantedBy?.location.line == 8)
    }

    @Test("read is get and list; write is create, update and delete")
    func methodGroups() {
        #expect(MethodName.read.expansion == [.get, .list])
        #expect(MethodName.write.expansion == [.create, .update, .delete])
    }

    @Test("the database wildcard binds (default) and recursive wildcards bind paths")
    func bindings() throws {
        let policy = try firestorePolicy("""
            match /{rest=**} {
              allow get: if database == '(default)' && rest is path && string(rest) == '/users/alice' && rest[0] == 'users';
            }
        """)
        #expect(policy.decide(request(.get(doc("users/alice"))), store: DocumentStore()).allowed)
    }
}
