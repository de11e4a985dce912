@testable import RegimenLanguage
import Testing
@testable import RegimenTracking

/// Duplication never writes what validation rejects.
@Suite("Duplication keeps trees valid")
struct DuplicationValidityTests {
    func duplicator() throws -> Duplicator {
        let rules = try shippedRules()
        return Duplicator(policy: rules.duplication, validation: rules.validation)
    }

    func errors(_ tree: TrackerTree) throws -> [String] {
        TreeValidator(policy: try shippedRules().validation).validate(tree).filter { $0.severity == .error }.map(\.description)
    }

    @Test("copying a program twice names the copies '(copy)' and '(copy 2)', and the tree stays valid")
    func copyTwice() throws {
        let tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        let first = try duplicator().duplicate(.program, id: "p1", in: tree, requestingUser: "u1", now: fixedNow)
        let second = try duplicator().duplicate(.program, id: "p1", in: first.tree, requestingUser: "u1", now: fixedNow)
        let third = try duplicator().duplicate(.program, id: "p1", in: second.tree, requestingUser: "u1", now: fixedNow)
        #expect(first.copy.fields["name"] == .string("Strength Block (copy)"))
        #expect(second.copy.fields["name"] == .string("Strength Block (copy 2)"))
        #expect(third.copy.fields["name"] == .string("Strength Block (copy 3)"))
        #expect(try errors(third.tree) == [])
    }

    @Test("property: a program of any valid name length (1–100, ASCII or beyond the BMP) copies 12 times into valid, distinct names")
    func everyNameLengthCopies() throws {
        for length in Array(1...5) + Array(80...100) {
            for unit in ["n", "é", "💪"] {
                // A name of `length` UTF-16 units at most (a 💪 is two), as validation counts them or fewer.
                let name = String(repeating: unit, count: unit == "💪" ? max(1, length / 2) : length)
                var tree = makeTree(workouts: 1, exercises: 1, sets: 1)
                tree.programs[0].fields["name"] = .string(name)
                #expect(try errors(tree) == [], "the source must be valid: \(name.count) characters")
                for _ in 1...12 {
                    let result = try duplicator().duplicate(.program, id: "p1", in: tree, requestingUser: "u1", now: fixedNow)
                    tree = result.tree
                }
                #expect(try errors(tree) == [], "\(length) × \(unit)")
                let names = tree.programs.compactMap { program -> String? in
                    if case .string(let text) = program.fields["name"] { text.lowercased() } else { nil }
                }
                #expect(names.count == 13 && Set(names).count == 13, "\(length) × \(unit): \(names)")
            }
        }
    }

    @Test("an invalid source is refused with every error listed")
    func invalidSourceRefused() throws {
        var tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        tree.programs[0].children[0].children[0].fields["dayOfWeek"] = .int(9)
        tree.programs[0].children[0].children[0].children[0].children[0].fields["weight"] = .float(-20)
        tree.programs[0].children[0].children[0].children[0].children[0].fields["userId"] = .string("mallory")
        #expect {
            try duplicator().duplicate(.week, id: "w1", in: tree, requestingUser: "u1", now: fixedNow)
        } throws: { error in
            guard let error = error as? DuplicationError else { return false }
            return error.code == .failedPrecondition && error.message == """
                the source has 3 errors; fix them or copy with repair, which leaves invalid optional fields out:
                  users/u1/programs/p1/weeks/w1/workouts/wo0: 'dayOfWeek' must be at most 7, not 9
                  users/u1/programs/p1/weeks/w1/workouts/wo0/exercises/wo0e0/sets/wo0e0s0: 'userId' must be the owner's id 'u1' (the user of the path), not 'mallory'
                  users/u1/programs/p1/weeks/w1/workouts/wo0/exercises/wo0e0/sets/wo0e0s0: 'weight' must be at least 0, not -20
                """
        }
    }

    @Test("--repair leaves invalid optional fields out, writes the owner's id and states each change")
    func repair() throws {
        var tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        tree.programs[0].children[0].children[0].fields["dayOfWeek"] = .int(9)
        tree.programs[0].children[0].children[0].children[0].children[0].fields["weight"] = .float(-20)
        tree.programs[0].children[0].children[0].children[0].children[0].fields["userId"] = .string("mallory")
        let result = try duplicator().duplicate(.week, id: "w1", in: tree, requestingUser: "u1", now: fixedNow, repair: true)
        #expect(result.repairs == [
            "users/u1/programs/p1/weeks/w1/workouts/wo0: left out 'dayOfWeek' 9 ('dayOfWeek' must be at most 7, not 9)",
            "users/u1/programs/p1/weeks/w1/workouts/wo0/exercises/wo0e0/sets/wo0e0s0: 'userId' \"mallory\" → 'u1' ('userId' must be the owner's id 'u1' (the user of the path), not 'mallory')",
            "users/u1/programs/p1/weeks/w1/workouts/wo0/exercises/wo0e0/sets/wo0e0s0: left out 'weight' -20 ('weight' must be at least 0, not -20)",
        ])
        let set = result.copy.children[0].children[0].children[0]
        #expect(set.fields["weight"] == nil)
        #expect(set.fields["userId"] == .string("u1"))
        #expect(result.copy.children[0].fields["dayOfWeek"] == nil)
        let copyPath = "users/u1/programs/p1/weeks/\(result.copy.id)"
        #expect(try errors(result.tree).filter { $0.hasPrefix(copyPath) } == [])
    }

    @Test("an error --repair cannot fix (a required field) still refuses")
    func unrepairable() throws {
        var tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        tree.programs[0].children[0].children[0].fields["name"] = .string("  ")
        #expect(throws: DuplicationError.self) {
            try duplicator().duplicate(.week, id: "w1", in: tree, requestingUser: "u1", now: fixedNow, repair: true)
        }
    }

    @Test("every copy carries the duplicating user's id")
    func ownerEverywhere() throws {
        let tree = makeTree(workouts: 2, exercises: 2, sets: 2)
        let result = try duplicator().duplicate(.program, id: "p1", in: tree, requestingUser: nil, now: fixedNow)
        var owners: Set<Value> = []
        result.copy.forEach(path: tree.rootPath) { document, _ in owners.insert(document.fields["userId"] ?? .null) }
        #expect(owners == [.string("u1")])
    }

    /// A random valid tree of user u1: up to `maxSets` sets, program names that collide with
    /// copy names, every exercise type, optional fields present or not.
    static func randomTree(maxSets: Int, using random: inout SeededRandom) -> TrackerTree {
        let bases = ["Block", "Block (copy)", "block (copy 2)", "Push Pull Legs", String(repeating: "n", count: 80),
                     String(repeating: "n", count: 98), String(repeating: "x", count: 100)]
        var programs: [TrackerDocument] = []
        var names: Set<String> = []
        var setsLeft = Int.random(in: 0...maxSets, using: &random)
        var counter = 0
        func nextId(_ prefix: String) -> String { counter += 1; return "\(prefix)\(counter)" }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            guard let name = bases.randomElement(using: &random), names.insert(name.lowercased()).inserted else { continue }
            var program = TrackerDocument(level: .program, id: nextId("p"), fields: ["name": .string(name), "userId": .string("u1")])
            if Bool.random(using: &random) { program.fields["description"] = .string("notes") }
            for order in 1...Int.random(in: 1...3, using: &random) {
                var week = TrackerDocument(level: .week, id: nextId("w"), fields: ["order": .int(Int64(order * 2)), "userId": .string("u1")])
                for index in 0..<Int.random(in: 0...3, using: &random) {
                    var workout = TrackerDocument(level: .workout, id: nextId("wo"), fields: [
                        "name": .string("Day \(index)"), "orderIndex": .int(Int64(index)), "userId": .string("u1")])
                    if Bool.random(using: &random) { workout.fields["dayOfWeek"] = .int(Int64.random(in: 1...7, using: &random)) }
                    for e in 0..<Int.random(in: 0...4, using: &random) {
                        let type = exerciseTypes.randomElement(using: &random) ?? "custom"
                        var exercise = TrackerDocument(level: .exercise, id: nextId("e"), fields: [
                            "name": .string("Lift \(e)"), "exerciseType": .string(type), "orderIndex": .int(Int64(e)), "userId": .string("u1")])
                        let count = min(setsLeft, Int.random(in: 0...(maxSets / 20 + 3), using: &random))
                        setsLeft -= count
                        for s in 0..<count {
                            var set = makeSet(nextId("s"), number: s + 1, type: type)
                            if Bool.random(using: &random) { set.fields["notes"] = nil }
                            exercise.children.append(set)
                        }
                        workout.children.append(exercise)
                    }
                    week.children.append(workout)
                }
                program.children.append(week)
            }
            programs.append(program)
        }
        return TrackerTree(userId: "u1", programs: programs)
    }

    @Test("property: for random valid trees up to 5,000 sets, the duplicate validates clean, ids are fresh and unique, batches ≤ 450",
          arguments: 0..<24)
    func property(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 3)
        let tree = Self.randomTree(maxSets: seed % 6 == 0 ? 5_000 : 300, using: &random)
        #expect(try errors(tree) == [], "the generator must give valid trees")
        var candidates: [(TrackerLevel, String)] = []
        tree.forEach { document, _ in if document.level != .set { candidates.append((document.level, document.id)) } }
        guard let (level, id) = candidates.randomElement(using: &random) else { return }
        let result = try duplicator().duplicate(level, id: id, in: tree, requestingUser: "u1", now: fixedNow)
        #expect(try errors(result.tree) == [])
        var oldIds: Set<String> = []
        tree.forEach { document, _ in oldIds.insert(document.id) }
        let newIds = result.idMap.map(\.new)
        #expect(Set(newIds).count == newIds.count)
        #expect(oldIds.isDisjoint(with: newIds))
        #expect(result.batches.allSatisfy { !$0.isEmpty && $0.count <= 450 })
        #expect(result.batches.flatMap { $0 }.count == result.copy.documentCount)
        // The tree as `duplicate --format json` prints it reads back to the same tree.
        let (reread, problems) = TrackerTree.read(result.tree.value)
        #expect(problems == [])
        #expect(reread == result.tree)
    }
}
