@testable import RegimenLanguage
import Testing
@testable import RegimenTracking

@Suite("Analytics and export")
struct AnalyticsExportTests {
    @Test("counts, frequency, weekly volume and records follow the seed's definitions")
    func analytics() throws {
        var tree = makeTree(workouts: 2, exercises: 2, sets: 3) { $0 == 0 ? "strength" : "bodyweight" }
        // Leave one set of workout 2 unchecked: only workout 1 is complete.
        tree.programs[0].children[0].children[1].children[0].children[0].fields["checked"] = .bool(false)
        let analytics = try TrackerAnalytics(tree: tree, policy: try shippedRules().analytics)
        #expect(analytics.workoutCount == 2)
        #expect(analytics.completedWorkoutCount == 1)
        #expect(analytics.exerciseFrequency.map { "\($0.name)=\($0.count)" } == ["Lift 0=2", "Lift 1=2"])
        // Strength sets: 8 reps at 62.5, 65, 67.5 kg in each of two workouts.
        #expect(analytics.weeklyVolume.map(\.volume) == [3120.0])  // 2 × 8 × (62.5 + 65 + 67.5)
        #expect(analytics.weeklyVolume.map(\.sets) == [6])
        let record = try #require(analytics.personalRecords.first)
        #expect(record.exercise == "Lift 0")
        #expect(record.bestSet.value == 8 * 67.5)
        // Epley: 67.5 × (1 + 8/30) = 85.5
        #expect(record.bestEstimatedOneRepMax?.value == 85.5)
    }

    @Test("Epley estimates match the planner seed's formula", arguments: [
        (100.0, 1, 100.0), (100.0, 5, 116.7), (80.0, 10, 106.7), (60.0, 12, 84.0),
    ])
    func epley(weight: Double, reps: Int, expected: Double) throws {
        var tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        tree.programs[0].children[0].children[0].children[0].children[0].fields["weight"] = .float(weight)
        tree.programs[0].children[0].children[0].children[0].children[0].fields["reps"] = .int(Int64(reps))
        let analytics = try TrackerAnalytics(tree: tree, policy: try shippedRules().analytics)
        #expect(analytics.personalRecords.first?.bestEstimatedOneRepMax?.value == expected)
    }

    @Test("sets longer than the e1RM limit give no estimate")
    func noEstimateForLongSets() throws {
        var tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        tree.programs[0].children[0].children[0].children[0].children[0].fields["reps"] = .int(20)
        let analytics = try TrackerAnalytics(tree: tree, policy: try shippedRules().analytics)
        #expect(analytics.personalRecords.first?.bestEstimatedOneRepMax == nil)
    }

    @Test("CSV export reads back into the same tree, empty weeks and tricky text included")
    func csvRoundTrip() throws {
        var tree = makeTree(workouts: 2, exercises: 2, sets: 2) { exerciseTypes[$0 % exerciseTypes.count] }
        tree.programs[0].fields["description"] = .string("Heavy, then \"light\"\nweeks")
        tree.programs[0].fields["createdAt"] = .timestamp(fixedNow)
        tree.programs[0].children.append(TrackerDocument(level: .week, id: "w2", fields: ["order": .int(2), "userId": .string("u1")]))
        let policy = try shippedRules().validation
        let csv = TrackerCSV.export(tree)
        let back = try TrackerCSV.import(csv, policy: policy)
        // Timestamps come back typed; compare the JSON forms, where both print as RFC 3339.
        #expect(back.value.jsonString() == tree.value.jsonString())
        #expect(TrackerCSV.export(back) == csv)
    }

    /// Issue 33: a name with CR LF (one `Character` in Swift) was written unquoted and the CSV
    /// could not be read back; every line break and separator in every field survives the trip.
    @Test("CSV quotes CR LF, lone CR and combining marks after separators, and reads them back", arguments: [
        "Block\r\nA", "Block\rA", "Block\nA", ",\u{301}x", "\"\u{301}", "a\r\n\"b\",\r\n", "\u{301}",
    ])
    func csvRoundTripsEveryLineBreak(name: String) throws {
        var tree = makeTree(workouts: 1, exercises: 1, sets: 1) { exerciseTypes[$0 % exerciseTypes.count] }
        tree.programs[0].fields["name"] = .string(name)
        let csv = TrackerCSV.export(tree)
        let back = try TrackerCSV.import(csv, policy: try shippedRules().validation)
        #expect(back.programs[0].fields["name"] == .string(name))
        #expect(TrackerCSV.export(back) == csv)
    }

    @Test("a CSV row with the wrong number of cells names its line")
    func csvBadRow() throws {
        let policy = try shippedRules().validation
        #expect(throws: CSVError(line: 3, message: "expected 2 cells, found 1")) {
            try TrackerCSV.import("program.id,program.name\np1,Block\np2\n", policy: policy)
        }
    }

    @Test("exporting one week keeps its program and drops its siblings")
    func selection() throws {
        var tree = makeTree(workouts: 1, exercises: 1, sets: 1)
        tree.programs[0].children.append(TrackerDocument(level: .week, id: "w2", fields: ["order": .int(2)]))
        let selected = try #require(tree.selecting(.week, id: "w2"))
        #expect(selected.programs.map(\.id) == ["p1"])
        #expect(selected.programs[0].children.map(\.id) == ["w2"])
        #expect(tree.selecting(.week, id: "nope") == nil)
    }
}
