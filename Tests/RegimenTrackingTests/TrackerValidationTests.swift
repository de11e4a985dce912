@testable import RegimenLanguage
import Testing
@testable import RegimenTracking
import OrderedCollections

@Suite("Tracker validation")
struct TrackerValidationTests {
    func violations(_ tree: TrackerTree) throws -> [String] {
        TreeValidator(policy: try shippedRules().validation).validate(tree).map(\.description)
    }

    @Test("a well-formed tree of every exercise type has no violations")
    func clean() throws {
        let tree = makeTree(workouts: 2, exercises: 5, sets: 3) { exerciseTypes[$0 % exerciseTypes.count] }
        #expect(try violations(tree) == [])
    }

    /// Each row: an edit to a valid tree and the exact report it must produce.
    static let cases: [(String, @Sendable (inout TrackerTree) -> Void, [String])] = [
        ("program name over 100 characters", { $0.programs[0].fields["name"] = .string(String(repeating: "x", count: 101)) },
         ["users/u1/programs/p1: error: 'name' must be at most 100 characters, not 101"]),
        ("blank program name after trimming", { $0.programs[0].fields["name"] = .string("   ") },
         ["users/u1/programs/p1: error: 'name' must not be empty"]),
        ("description over 500 characters", { $0.programs[0].fields["description"] = .string(String(repeating: "d", count: 501)) },
         ["users/u1/programs/p1: error: 'description' must be at most 500 characters, not 501"]),
        ("dayOfWeek 8", { $0.programs[0].children[0].children[0].fields["dayOfWeek"] = .int(8) },
         ["users/u1/programs/p1/weeks/w1/workouts/wo0: error: 'dayOfWeek' must be at most 7, not 8"]),
        ("dayOfWeek 0", { $0.programs[0].children[0].children[0].fields["dayOfWeek"] = .int(0) },
         ["users/u1/programs/p1/weeks/w1/workouts/wo0: error: 'dayOfWeek' must be at least 1, not 0"]),
        ("negative weight", { $0.programs[0].children[0].children[0].children[0].children[0].fields["weight"] = .float(-5) },
         ["users/u1/programs/p1/weeks/w1/workouts/wo0/exercises/wo0e0/sets/wo0e0s0: error: 'weight' must be at least 0, not -5"]),
        ("set without any metric", {
            $0.programs[0].children[0].children[0].children[0].children[0].fields["reps"] = nil
            $0.programs[0].children[0].children[0].children[0].children[0].fields["weight"] = nil
        }, ["users/u1/programs/p1/weeks/w1/workouts/wo0/exercises/wo0e0/sets/wo0e0s0: error: a set needs at least one of reps, duration, distance",
            "users/u1/programs/p1/weeks/w1/workouts/wo0/exercises/wo0e0/sets/wo0e0s0: error: a strength set needs 'reps'"]),
        ("a strength set with a duration", { $0.programs[0].children[0].children[0].children[0].children[0].fields["duration"] = .int(30) },
         ["users/u1/programs/p1/weeks/w1/workouts/wo0/exercises/wo0e0/sets/wo0e0s0: warning: 'duration' is not used by strength exercises"]),
        ("unknown exercise type", { $0.programs[0].children[0].children[0].children[0].fields["exerciseType"] = .string("yoga") },
         ["users/u1/programs/p1/weeks/w1/workouts/wo0/exercises/wo0e0: error: 'exerciseType' must be one of strength, cardio, bodyweight, custom, not 'yoga'"]),
        ("order as a string", { $0.programs[0].children[0].fields["order"] = .string("1") },
         ["users/u1/programs/p1/weeks/w1: error: 'order' must be an int, not string"]),
        ("missing week order", { $0.programs[0].children[0].fields["order"] = nil },
         ["users/u1/programs/p1/weeks/w1: error: 'order' is required"]),
        ("bad timestamp", { $0.programs[0].fields["createdAt"] = .string("yesterday") },
         ["users/u1/programs/p1: error: 'createdAt' must be a timestamp, not string 'yesterday'"]),
        ("an RFC 3339 string where a timestamp belongs", { $0.programs[0].fields["updatedAt"] = .string("2026-01-05T08:00:00Z") },
         ["users/u1/programs/p1: error: 'updatedAt' must be a timestamp, not string; write {\"$timestamp\": \"2026-01-05T08:00:00Z\"}"]),
        ("a foreign owner id", { $0.programs[0].children[0].fields["userId"] = .string("mallory") },
         ["users/u1/programs/p1/weeks/w1: error: 'userId' must be the owner's id 'u1' (the user of the path), not 'mallory'"]),
        ("unknown field", { $0.programs[0].fields["colour"] = .string("red") },
         ["users/u1/programs/p1: warning: unknown field 'colour' on a program"]),
        ("null reps on a strength set", { $0.programs[0].children[0].children[0].children[0].children[0].fields["reps"] = .null },
         ["users/u1/programs/p1/weeks/w1/workouts/wo0/exercises/wo0e0/sets/wo0e0s0: error: a set needs at least one of reps, duration, distance",
          "users/u1/programs/p1/weeks/w1/workouts/wo0/exercises/wo0e0/sets/wo0e0s0: error: a strength set needs 'reps'"]),
    ]

    @Test("each broken field is reported with its document path and exact message", arguments: 0..<cases.count)
    func brokenField(index: Int) throws {
        let (_, edit, expected) = Self.cases[index]
        var tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        edit(&tree)
        #expect(try violations(tree) == expected)
    }

    @Test("program names are unique per user, trimmed and ignoring case")
    func uniqueProgramNames() throws {
        var tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        var second = tree.programs[0]
        second.id = "p2"
        second.fields["name"] = .string("  strength block ")
        second.children = []
        tree.programs.append(second)
        #expect(try violations(tree) == ["users/u1/programs/p2: error: program name '  strength block ' is already used by program p1"])
    }

    @Test("violations say whether they are the document's own fields (the policy's rules) or a check across documents")
    func scopes() throws {
        var tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        var second = tree.programs[0]
        second.id = "p2"
        second.children = []
        second.fields["description"] = .int(5)
        tree.programs.append(second)
        let found = TreeValidator(policy: try shippedRules().validation).validate(tree)
        #expect(found.map { "\($0.field ?? "") \($0.inOwnFields)" } == ["description true", "name false"])
    }

    @Test("week order is unique within a program")
    func uniqueWeekOrder() throws {
        var tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        var second = tree.programs[0].children[0]
        second.id = "w2"
        second.children = []
        tree.programs[0].children.append(second)
        #expect(try violations(tree) == ["users/u1/programs/p1/weeks/w2: error: week order 1 is already used by week w1"])
    }

    @Test("structural problems are reported and the rest of the tree is still read")
    func structure() {
        let value = Value.map([
            "userId": .string("u1"),
            "programs": .list([
                .map(["name": .string("No id")]),
                .map(["id": .string("p1"), "name": .string("ok"), "weeks": .string("none")]),
                .int(3),
            ]),
        ])
        let (tree, problems) = TrackerTree.read(value)
        #expect(tree.programs.map(\.id) == ["p1"])
        #expect(problems.map(\.description) == [
            "users/u1/programs[0]: error: a program needs an 'id': a non-empty string without '/'",
            "users/u1/programs/p1/weeks: error: 'weeks' must be a list, not string",
            "users/u1/programs[2]: error: a program must be a map, not int",
        ])
    }
}
