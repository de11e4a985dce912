@testable import RegimenLanguage
@testable import RegimenSecurity
import Testing
import OrderedCollections

/// Issue 28: list queries are decided as the emulator decides them, by what the query's filters
/// prove about `resource.data`, never by sampling values that satisfy them. Every expectation
/// here is the emulator's answer (scripts/emulator/list-query-proofs.md; the same cases are in
/// Tests/RegimenSecurityTests/Conformance/list-queries.tests.yaml, replayed against the emulator
/// by scripts/emulator/differential.py).
@Suite("List queries: what a query proves")
struct ListQueryProofTests {
    static func where_(_ field: String, _ op: QueryFilter.Operator, _ value: Value) -> QueryFilter {
        QueryFilter(field: field, op: op, value: value)
    }

    func allowed(_ rule: String, _ filters: [QueryFilter], limit: Int64? = nil) throws -> Bool {
        let policy = try firestorePolicy("match /notes/{id} { allow list: if \(rule); }")
        return policy.decide(request(.list(doc("notes"), ListQuery(limit: limit, filters: filters))), store: DocumentStore()).allowed
    }

    struct Row: Sendable, CustomStringConvertible {
        var rule: String
        var filters: [QueryFilter]
        var allowed: Bool
        var description: String {
            "\(rule) with " + filters.map { "\($0.field) \($0.op.rawValue) \($0.value)" }.joined(separator: ", ") + " -> \(allowed ? "allow" : "deny")"
        }
    }

    /// Cases 1-3 of the issue: each was allowed by sampling, each is denied by the emulator.
    static let issueCases: [Row] = [
        // 1. `!=` is no proof of `==` (nor a bare boolean field), also on map fields.
        Row(rule: "resource.data.public == true", filters: [where_("public", .notEqual, .bool(false))], allowed: false),
        Row(rule: "resource.data.public", filters: [where_("public", .notEqual, .bool(false))], allowed: false),
        Row(rule: "resource.data.collaborators.alice == true", filters: [where_("collaborators.alice", .notEqual, .bool(false))], allowed: false),
        // 2. Ranges on booleans prove nothing.
        Row(rule: "resource.data.public == true", filters: [where_("public", .greaterOrEqual, .bool(true))], allowed: false),
        Row(rule: "resource.data.public == true", filters: [where_("public", .greater, .bool(true))], allowed: false),
        Row(rule: "resource.data.public == true", filters: [where_("public", .greaterOrEqual, .bool(true)), where_("public", .lessOrEqual, .bool(true))], allowed: false),
        Row(rule: "resource.data.public != false", filters: [where_("public", .greaterOrEqual, .bool(true))], allowed: false),
        // 3. A range with equal ends is not equality.
        Row(rule: "resource.data.owner == 'alice'", filters: [where_("owner", .greaterOrEqual, .string("alice")), where_("owner", .lessOrEqual, .string("alice"))], allowed: false),
        Row(rule: "resource.data.n == 5", filters: [where_("n", .greaterOrEqual, .int(5)), where_("n", .lessOrEqual, .int(5))], allowed: false),
        Row(rule: "resource.data.n == 5", filters: [where_("n", .greater, .int(5)), where_("n", .less, .int(5))], allowed: false),
        Row(rule: "resource.data.n == 5", filters: [where_("n", .greaterOrEqual, .int(5)), where_("n", .less, .int(5))], allowed: false),
    ]

    @Test("cases 1-3 of issue 28 are denied, as by the emulator", arguments: issueCases)
    func issue(row: Row) throws {
        #expect(try allowed(row.rule, row.filters) == row.allowed)
    }

    /// What the emulator does prove (and what it answers false rather than erring on).
    static let proofs: [Row] = [
        Row(rule: "resource.data.n >= 5", filters: [where_("n", .greater, .int(5))], allowed: true),
        Row(rule: "resource.data.n >= 5", filters: [where_("n", .greaterOrEqual, .int(5)), where_("n", .lessOrEqual, .int(5))], allowed: true),
        Row(rule: "resource.data.n > 5", filters: [where_("n", .greaterOrEqual, .int(5))], allowed: false),
        Row(rule: "resource.data.n != 5", filters: [where_("n", .greater, .int(5))], allowed: true),
        Row(rule: "resource.data.n != 5", filters: [where_("n", .notEqual, .int(5))], allowed: true),
        Row(rule: "resource.data.n != 5", filters: [where_("n", .notIn, .list([.int(5)]))], allowed: true),
        Row(rule: "resource.data.n != 5", filters: [where_("n", .notEqual, .int(4))], allowed: false),
        // An int bound proves a comparison with a float, a float bound none with an int.
        Row(rule: "resource.data.n > 5.0", filters: [where_("n", .greater, .int(5))], allowed: true),
        Row(rule: "resource.data.n > 5", filters: [where_("n", .greater, .float(6))], allowed: false),
        Row(rule: "resource.data.n != 5", filters: [where_("n", .notEqual, .float(5))], allowed: false),
        Row(rule: "resource.data.b != false", filters: [where_("b", .notEqual, .bool(false))], allowed: true),
        Row(rule: "resource.data.s > 'a'", filters: [where_("s", .greater, .string("b"))], allowed: true),
        Row(rule: "resource.data.n != null", filters: [where_("n", .arrayContains, .string("x"))], allowed: true),
        Row(rule: "'x' in resource.data.tags", filters: [where_("tags", .arrayContains, .string("x"))], allowed: true),
        Row(rule: "'y' in resource.data.tags", filters: [where_("tags", .arrayContains, .string("x"))], allowed: false),
        Row(rule: "resource.data.tags.hasAny(['x'])", filters: [where_("tags", .arrayContains, .string("x"))], allowed: true),
        // A constraint is of no type, equal to no list element; so `!` of those is true.
        Row(rule: "!(resource.data.n is int)", filters: [where_("n", .greater, .int(5))], allowed: true),
        Row(rule: "!(resource.data.n in [6, 7])", filters: [where_("n", .greater, .int(5))], allowed: true),
        Row(rule: "!(resource.data.n == 6)", filters: [where_("n", .greater, .int(5))], allowed: false),
        // An equality beside a range: `==` proved, the rest by bounds.
        Row(rule: "resource.data.n == 5 && resource.data.n >= 5", filters: [where_("n", .equal, .int(5)), where_("n", .greater, .int(3))], allowed: true),
        Row(rule: "resource.data.n > 5", filters: [where_("n", .equal, .int(5)), where_("n", .greater, .int(3))], allowed: false),
        // Found by list_differential.py: a float bound proves no `!=` of an int; equalities of
        // two values make a constraint proving both (and of no type).
        Row(rule: "resource.data.x != 6", filters: [where_("x", .less, .float(4.5))], allowed: false),
        Row(rule: "resource.data.x != 6.0", filters: [where_("x", .less, .int(4))], allowed: true),
        Row(rule: "resource.data.n == 1 && resource.data.n == 2", filters: [where_("n", .equal, .int(1)), where_("n", .in, .list([.int(2)]))], allowed: true),
        Row(rule: "resource.data.n is int", filters: [where_("n", .equal, .int(1)), where_("n", .equal, .int(2))], allowed: false),
        Row(rule: "resource.data.n == 1", filters: [where_("n", .in, .list([.int(1), .int(2)])), where_("n", .equal, .int(2))], allowed: false),
        Row(rule: "resource.data.n == 2", filters: [where_("n", .in, .list([.int(1), .int(2)])), where_("n", .equal, .int(2))], allowed: true),
        Row(rule: "resource.data.b != false", filters: [where_("b", .equal, .bool(true)), where_("b", .lessOrEqual, .bool(false))], allowed: true),
        Row(rule: "resource.data.n == null", filters: [where_("n", .in, .list([.null])), where_("n", .greaterOrEqual, .string("a"))], allowed: false),
        Row(rule: "resource.data.k != null", filters: [where_("k", .greaterOrEqual, .bool(true))], allowed: false),
        Row(rule: "resource.data.k != null", filters: [where_("k", .greaterOrEqual, .int(1))], allowed: true),
        Row(rule: "resource.data.n != 5", filters: [where_("n", .equal, .float(5)), where_("n", .arrayContains, .string("z"))], allowed: true),
        Row(rule: "resource.data.n != 5.0", filters: [where_("n", .equal, .int(5)), where_("n", .arrayContains, .string("z"))], allowed: false),
        Row(rule: "resource.data.n != 'k'", filters: [where_("n", .equal, .int(5)), where_("n", .arrayContains, .string("z"))], allowed: false),
        Row(rule: "resource.data.n == null", filters: [where_("n", .equal, .null), where_("n", .arrayContains, .string("z"))], allowed: true),
        Row(rule: "null in resource.data.n", filters: [where_("n", .arrayContains, .null)], allowed: false),
        Row(rule: "0 != resource.data.n", filters: [where_("n", .in, .list([.null]))], allowed: false),
        Row(rule: "resource.data.n != null", filters: [where_("n", .in, .list([.null, .string("a")]))], allowed: true),
        Row(rule: "resource.data.n == null", filters: [where_("n", .in, .list([.null]))], allowed: false),
        Row(rule: "resource.data.n != true && resource.data.n != false", filters: [where_("n", .in, .list([.null]))], allowed: true),
        Row(rule: "resource.data.n != ''", filters: [where_("n", .in, .list([.null]))], allowed: false),
        Row(rule: "0 != resource.data.n", filters: [where_("n", .in, .list([.int(5), .null])), where_("n", .in, .list([.string("a"), .int(0)]))], allowed: false),
        Row(rule: "resource.data.n == 5 || resource.data.n == 6", filters: [where_("n", .in, .list([.int(5), .int(6)])), where_("n", .in, .list([.int(5), .int(6)]))], allowed: true),
        // `in` splits into branches of plain values; a one-element `in` is an equality.
        Row(rule: "resource.data.n is int", filters: [where_("n", .in, .list([.int(5), .int(6)]))], allowed: true),
        Row(rule: "resource.data.n == 5", filters: [where_("n", .in, .list([.int(5)]))], allowed: true),
    ]

    @Test("the emulator's proofs", arguments: proofs)
    func proof(row: Row) throws {
        #expect(try allowed(row.rule, row.filters) == row.allowed)
    }

    /// Case 6: `request.query` has the emulator's nine keys, in its order.
    @Test("request.query has the emulator's nine keys")
    func queryKeys() throws {
        let keys = "['allDescendants', 'distinct', 'groupBy', 'kind', 'limit', 'offset', 'orderBy', 'parent', 'selectOnlyKeys']"
        #expect(try allowed("request.query.keys() == \(keys)", []))
        #expect(try allowed("request.query.kind == 'notes' && request.query.parent == null && request.query.allDescendants == false", []))
        let policy = try firestorePolicy("match /users/{uid}/notes/{id} { allow list: if request.query.parent == /databases/$(database)/documents/users/$(uid); }")
        #expect(policy.decide(request(.list(doc("users/alice/notes"), ListQuery())), store: DocumentStore()).allowed)
    }

    /// Cursors reach no rule: they constrain no field and are not in `request.query`.
    @Test("cursors change no decision")
    func cursors() throws {
        let policy = try firestorePolicy("match /notes/{id} { allow list: if resource.data.n > 5; }")
        for kind in QueryCursor.Kind.allCases {
            let cursor = QueryCursor(kind: kind, values: [.int(6)])
            let bare = ListQuery(orderBy: ["n": "asc"], cursors: [cursor])
            #expect(!policy.decide(request(.list(doc("notes"), bare)), store: DocumentStore()).allowed)
            let filtered = ListQuery(orderBy: ["n": "asc"], filters: [Self.where_("n", .greater, .int(5))], cursors: [cursor])
            #expect(policy.decide(request(.list(doc("notes"), filtered)), store: DocumentStore()).allowed)
        }
    }
}

@Suite("Writes: getAfter() and diff() as the emulator sees them")
struct WriteCornerTests {
    /// Case 4: getAfter() of the document the request deletes is null (it was an error).
    @Test("getAfter() of the document being deleted is null")
    func getAfterDeleted() throws {
        let policy = try firestorePolicy("match /notes/{id} { allow delete: if getAfter(/databases/$(database)/documents/notes/$(id)) == null; }")
        let stored = store(["notes/a": ["n": .int(1)]])
        #expect(policy.decide(request(.delete(doc("notes/a"))), store: stored).allowed)
        // Another missing document is still an error.
        let other = try firestorePolicy("match /notes/{id} { allow delete: if getAfter(/databases/$(database)/documents/notes/zz) == null; }")
        #expect(!other.decide(request(.delete(doc("notes/a"))), store: stored).allowed)
    }

    /// Case 5: diff() compares stored values, numbers by value inside lists and maps.
    @Test("an update writing 1 where 1.0 is stored, inside a list or map, changes no key")
    func diffStoredValues() throws {
        let policy = try firestorePolicy(
            "match /notes/{id} { allow update: if request.resource.data.diff(resource.data).affectedKeys().hasOnly(['title']); }")
        let stored = store(["notes/a": ["title": .string("t"), "xs": .list([.float(1)]), "m": .map(["k": .float(2)])]])
        let same = WriteData(["title": .string("u"), "xs": .list([.int(1)]), "m": .map(["k": .int(2)])])
        #expect(policy.decide(request(.update(doc("notes/a"), same)), store: stored).allowed)
        let changed = WriteData(["xs": .list([.float(1.5)])])
        #expect(!policy.decide(request(.update(doc("notes/a"), changed)), store: stored).allowed)
    }
}

@Suite("Security conformance cases decided by the emulator")
struct SecurityConformanceTests {
    /// Issue 28's cases as a security test file whose expectations are the emulator's answers
    /// (scripts/emulator/differential.py replays them against the emulator).
    @Test("every case of Conformance/issue28.tests.yaml passes")
    func issue28() throws {
        let file = repositoryRoot + "/Tests/RegimenSecurityTests/Conformance/issue28.tests.yaml"
        let result = try SecurityTestRunner(suite: try SecurityTestSuite.load(file: file)).run()
        #expect(result.results.count == 19)
        for failure in result.results where !failure.passed {
            Issue.record("\(failure.name): expected \(failure.expectAllow ? "allow" : "deny"), got \(failure.decision.summary)")
        }
    }
}

@Suite("QueryConstraint: a proof holds for every value the query can return")
struct QueryConstraintSoundnessTests {
    /// Property: whenever a constraint proves `f op v`, every number the filters admit satisfies
    /// `f op v` (proofs are sound: rules are not filters, and a proof may never let through a
    /// document that breaks the rule). Checked over a grid of bounds, exclusions and rule values,
    /// with the admitted values sampled densely around every number involved.
    @Test("proofs are sound over a grid of numeric constraints")
    func sound() {
        let points: [Value] = [.int(3), .int(5), .float(5), .float(5.5), .int(6), .float(6)]
        let ops = ["<", "<=", ">", ">=", "==", "!="]
        var checked = 0
        for lower in [nil] + points {
            for upper in [nil] + points {
                for inclusive in [(false, false), (true, true), (true, false)] {
                    for excluded in [nil] + points {
                        var c = QueryConstraint()
                        if let lower { c.lower.append(.init(value: lower, inclusive: inclusive.0)) }
                        if let upper { c.upper.append(.init(value: upper, inclusive: inclusive.1)) }
                        if let excluded { c.excluded.append(excluded) }
                        let admitted = stride(from: 2.0, through: 7.0, by: 0.25).filter { x in
                            (lower?.numberValue.map { inclusive.0 ? x >= $0 : x > $0 } ?? true)
                                && (upper?.numberValue.map { inclusive.1 ? x <= $0 : x < $0 } ?? true)
                                && (excluded?.numberValue.map { x != $0 } ?? true)
                        }
                        for op in ops {
                            for v in points {
                                guard c.proves(op, v) == true, let r = v.numberValue else { continue }
                                checked += 1
                                for x in admitted {
                                    let holds = switch op {
                                    case "<": x < r
                                    case "<=": x <= r
                                    case ">": x > r
                                    case ">=": x >= r
                                    case "==": x == r
                                    default: x != r
                                    }
                                    #expect(holds, "\(c) proves f \(op) \(v) but admits \(x)")
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(checked > 1000)
    }
}
