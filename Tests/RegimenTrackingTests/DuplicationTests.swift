@testable import RegimenLanguage
import Testing
@testable import RegimenTracking

@Suite("Duplication")
struct DuplicationTests {
    func duplicator() throws -> Duplicator { Duplicator(policy: try shippedRules().duplication) }

    @Test("a week of 50 sets copies into one batch with an id for every document")
    func fiftySets() throws {
        let tree = makeTree(workouts: 2, exercises: 5, sets: 5)
        let result = try duplicator().duplicate(.week, id: "w1", in: tree, requestingUser: "u1", now: fixedNow)
        // 1 week + 2 workouts + 10 exercises + 50 sets
        #expect(result.idMap.count == 63)
        #expect(result.batches.map(\.count) == [63])
        #expect(result.copy.fields["order"] == .int(2))
        #expect(result.tree.programs[0].children.map(\.id) == ["w1", result.copy.id])
        #expect(result.audit.value["sourceWeekId"] == .string("w1"))
        #expect(result.audit.value["newWeekId"] == .string(result.copy.id))
        #expect(result.audit.value["userId"] == .string("u1"))
        #expect(result.audit.value["timestamp"] == .timestamp(fixedNow))
    }

    @Test("a week of 5,000 sets copies in batches of at most 450, parents first")
    func fiveThousandSets() throws {
        let tree = makeTree(workouts: 10, exercises: 10, sets: 50)
        let result = try duplicator().duplicate(.week, id: "w1", in: tree, requestingUser: "u1", now: fixedNow)
        let total = 1 + 10 + 100 + 5_000
        #expect(result.batches.flatMap { $0 }.count == total)
        #expect(result.batches.allSatisfy { $0.count <= 450 })
        #expect(result.batches.count == (total + 449) / 450)
        #expect(Set(result.idMap.map(\.new)).count == total)
        // Each write's parent was written earlier.
        var written: Set<String> = ["users/u1/programs/p1"]
        for operation in result.batches.flatMap({ $0 }) {
            let parent = operation.path.split(separator: "/").dropLast(2).joined(separator: "/")
            #expect(written.contains(parent))
            written.insert(operation.path)
        }
    }

    @Test("sets copy only the fields of their exercise type and restart unchecked")
    func selectiveCopy() throws {
        var tree = makeTree(workouts: 1, exercises: 2, sets: 1) { $0 == 0 ? "strength" : "cardio" }
        tree.programs[0].children[0].children[0].children[1].children[0].fields["weight"] = .float(10)  // stale on cardio
        let result = try duplicator().duplicate(.workout, id: "wo0", in: tree, requestingUser: "u1", now: fixedNow)
        let strength = result.copy.children[0].children[0].fields
        let cardio = result.copy.children[1].children[0].fields
        #expect(Set(strength.keys) == ["setNumber", "reps", "weight", "restTime", "notes", "checked", "userId", "createdAt", "updatedAt"])
        #expect(strength["checked"] == .bool(false))
        #expect(strength["createdAt"] == .timestamp(fixedNow))
        #expect(Set(cardio.keys) == ["setNumber", "duration", "distance", "notes", "checked", "userId", "createdAt", "updatedAt"])
        #expect(result.copy.fields["orderIndex"] == .int(1))
    }

    @Test("a duplicated program gets a new name so names stay unique")
    func programName() throws {
        let tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        let result = try duplicator().duplicate(.program, id: "p1", in: tree, requestingUser: "u1", now: fixedNow)
        #expect(result.copy.fields["name"] == .string("Strength Block (copy)"))
        #expect(TreeValidator(policy: try shippedRules().validation).validate(result.tree).filter { $0.severity == .error }.isEmpty)
    }

    /// The code is the seed's; the field names the input at fault (the service's `path`).
    @Test("refusals carry the seed's error codes")
    func refusals() throws {
        let tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        #expect(throws: DuplicationError(.permissionDenied, "user 'mallory' may only duplicate their own documents", field: "user")) {
            try duplicator().duplicate(.week, id: "w1", in: tree, requestingUser: "mallory", now: fixedNow)
        }
        #expect(throws: DuplicationError(.notFound, "no week with id 'w9'", field: "week")) {
            try duplicator().duplicate(.week, id: "w9", in: tree, requestingUser: "u1", now: fixedNow)
        }
        #expect(throws: DuplicationError(.invalidArgument, "sets are copied with their exercise; duplicate a week, workout or exercise", field: "set")) {
            try duplicator().duplicate(.set, id: "wo0e0s0", in: tree, requestingUser: "u1", now: fixedNow)
        }
    }

    @Test("the same request gives the same ids; another time gives others")
    func deterministicIds() throws {
        let tree = makeTree(workouts: 1, exercises: 2, sets: 3)
        let first = try duplicator().duplicate(.week, id: "w1", in: tree, requestingUser: "u1", now: fixedNow)
        let again = try duplicator().duplicate(.week, id: "w1", in: tree, requestingUser: "u1", now: fixedNow)
        let later = try duplicator().duplicate(.week, id: "w1", in: tree, requestingUser: "u1", now: Timestamp(seconds: fixedNow.seconds + 1))
        #expect(first.idMap.map(\.new) == again.idMap.map(\.new))
        #expect(first.idMap.map(\.new) != later.idMap.map(\.new))
        #expect(first.idMap.allSatisfy { $0.new.count == 20 && $0.new.allSatisfy { $0.isLetter || $0.isNumber } })
    }

    /// Checks that `copy` mirrors `source` under the copy policy, document by document.
    func expectIsomorphic(_ source: TrackerDocument, _ copy: TrackerDocument, policy: CopyPolicy, exerciseType: String?, isRoot: Bool) {
        #expect(source.level == copy.level)
        #expect(source.id != copy.id)
        #expect(source.children.count == copy.children.count)
        var expected: [String: Value] = [:]
        if source.level == .set, let type = exerciseType, let rule = policy.setsByExerciseType[type] {
            for name in rule.copy { expected[name] = source.fields[name] }
            for (name, value) in rule.reset { expected[name] = value }
        } else if let rule = policy.levels[source.level] {
            for name in rule.copy { expected[name] = source.fields[name] }
            if isRoot { for name in rule.whenDuplicated.keys { expected[name] = copy.fields[name] } }
        }
        for name in policy.keptFields { expected[name] = source.fields[name] }
        if let owner = policy.ownerField { expected[owner] = .string("u1") }
        for name in policy.timestampFields { expected[name] = .timestamp(fixedNow) }
        #expect(copy.fields == expected.compactMapValues { $0 })
        let type = source.level == .exercise ? source.fields["exerciseType"]?.stringValue : exerciseType
        for (a, b) in zip(source.children, copy.children) {
            expectIsomorphic(a, b, policy: policy, exerciseType: type, isRoot: false)
        }
    }

    @Test("property: a duplicated subtree is isomorphic to its source and no batch exceeds the limit", arguments: 0..<12)
    func isomorphism(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 1)
        let tree = makeTree(workouts: Int.random(in: 0...4, using: &random), exercises: Int.random(in: 0...6, using: &random),
                            sets: Int.random(in: 0...40, using: &random)) { _ in exerciseTypes.randomElement(using: &random) ?? "custom" }
        var policy = try shippedRules().duplication
        policy.maxOperationsPerBatch = Int.random(in: 1...450, using: &random)
        let levels: [(TrackerLevel, String)] = [(.program, "p1"), (.week, "w1")]
            + (tree.programs[0].children[0].children.first.map { [(.workout, $0.id)] } ?? [])
            + (tree.programs[0].children[0].children.first?.children.first.map { [(.exercise, $0.id)] } ?? [])
        guard let (level, id) = levels.randomElement(using: &random) else { return }
        let result = try Duplicator(policy: policy).duplicate(level, id: id, in: tree, requestingUser: "u1", now: fixedNow)
        var source: TrackerDocument?
        var sourceType: String?
        tree.forEach { document, path in
            if document.level == level, document.id == id {
                source = document
                if level == .set, let exerciseId = path.id(of: .exercise) { sourceType = exerciseId }
            }
        }
        let original = try #require(source)
        expectIsomorphic(original, result.copy, policy: policy, exerciseType: sourceType, isRoot: true)
        #expect(result.batches.allSatisfy { $0.count <= policy.maxOperationsPerBatch && !$0.isEmpty })
        #expect(result.batches.flatMap { $0 }.count == original.documentCount)
        #expect(result.idMap.map(\.old) == { var ids: [String] = []; original.forEach(path: DocumentPath(userId: nil)) { d, _ in ids.append(d.id) }; return ids }())
        #expect(result.tree.documentCount == tree.documentCount + original.documentCount)
    }
}
