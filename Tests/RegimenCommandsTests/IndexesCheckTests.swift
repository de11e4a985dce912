import Foundation
@testable import RegimenLanguage
@testable import RegimenTracking
import Testing
@testable import RegimenCommands
import RegimenTestSupport

/// Appendix B's indexes serve the tracker's queries, and the policy lets the owner run them.
@Suite("indexes-check")
struct IndexesCheckTests {
    static let repository = ExitCodeTableTests.repository

    @Test("every shipped query is served by Appendix B and allowed for its owner")
    func shipped() {
        let run = runRegimen(["indexes-check"], in: Self.repository)
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.hasSuffix("5 of 5 queries served and allowed\n"))
        #expect(run.standardOutput.contains("ok\tprograms list, newest first (seed 5, 18 pagination): index programs (userId ASC, createdAt DESC)"))
    }

    @Test("a query no index serves, or one the policy refuses, fails with its reason")
    func failures() throws {
        let appendix = try String(contentsOf: Self.repository.appendingPathComponent("rules/security/workout-tracker/firestore.indexes.json"), encoding: .utf8)
        let queries = """
            kind: tracker_queries
            version: 1
            queries:
              - name: programs oldest first
                collection: users/{userId}/programs
                where: [[userId, ==, $owner]]
                order_by: [[createdAt, asc]]
              - name: another user's weeks
                collection: users/bob/programs/{programId}/weeks
                where: [[userId, ==, $owner]]
                order_by: [[order, asc]]
              - name: programs by id
                collection: users/{userId}/programs
                where: [[userId, ==, $owner]]
            """
        let scratch = try ScratchDirectory(["queries.yaml": queries, "indexes.json": appendix])
        defer { scratch.cleanUp() }
        let run = runRegimen(["indexes-check", "--queries", scratch.url.appendingPathComponent("queries.yaml").path,
                              "--indexes", scratch.url.appendingPathComponent("indexes.json").path], in: Self.repository)
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("FAIL\tprograms oldest first: no declared index serves it (needs programs with userId ==, createdAt ASC)"))
        #expect(run.standardOutput.contains("FAIL\tanother user's weeks: index weeks (userId ASC, order ASC); the policy denies the owner's list"))
        #expect(run.standardOutput.contains("ok\tprograms by id: single-field indexes"))
        #expect(run.standardOutput.hasSuffix("1 of 3 queries served and allowed\n"))
    }

    @Test("property: a query is served exactly when an index lists its equality fields, then its sort fields in direction")
    func servingProperty() {
        let fields = ["userId", "createdAt", "order", "name"]
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<2_000 {
            let sortField = fields[1 + next(3)]
            let descending = next(2) == 0
            let query = TrackerQuery(name: "q", collection: "users/{userId}/programs",
                                     filters: [.init(field: "userId", op: "==", value: "$owner")],
                                     orderBy: [.init(field: sortField, descending: descending)], limit: nil)
            let indexFields = [CompositeIndex.Field(fieldPath: "userId", descending: next(2) == 0),
                               CompositeIndex.Field(fieldPath: fields[1 + next(3)], descending: next(2) == 0)]
            let group = next(4) == 0 ? "weeks" : "programs"
            let index = CompositeIndex(collectionGroup: group, queryScope: "COLLECTION", fields: indexFields)
            let expected = group == "programs" && indexFields[1].fieldPath == sortField && indexFields[1].descending == descending
            #expect((query.serving(in: [index]) == .composite(0)) == expected)
            #expect(query.serving(in: []) == .none)
        }
    }
}

/// Numbers print as a person writes them: no binary rounding noise such as 2.8000000000000003.
@Suite("Numbers as people write them")
struct HumanNumberOutputTests {
    static func noisy(_ text: String) -> Bool {
        text.range(of: #"\d\.\d{12,}"#, options: .regularExpression) != nil
    }

    @Test("burn, in text and JSON, for every activity at every level, and select's scores")
    func everyBurn() {
        var outputs: [String] = []
        for activity in ["walking_slow", "running", "powerlifting", "stretching", "jump_rope", "yoga", "calisthenics"] {
            for level in ["light", "moderate", "vigorous"] {
                for format in ["text", "json"] {
                    let run = runRegimen(["burn", activity, "--minutes", "37", "--intensity", level, "--weight", "71.3", "--format", format],
                                         in: IndexesCheckTests.repository)
                    outputs.append(run.standardOutput)
                }
            }
        }
        outputs.append(runRegimen(["select", "--format", "json", "--library", "barbell_bench_press", "--emphasis", "chest",
                                   "--chosen", "back_squat"], in: IndexesCheckTests.repository).standardOutput)
        #expect(!outputs.contains(where: Self.noisy), "\(outputs.filter(Self.noisy))")
        #expect(outputs.joined().contains("MET 2.9"))
    }

    @Test("property: humanNumber prints tenths and hundredths scaled by factors without noise")
    func humanNumbers() {
        for tenths in 1...300 {
            for factor in [0.7, 0.8, 1.2, 1.5, 1.3, 1.0 / 0.8] {
                let value = Double(tenths) / 10 * factor
                #expect(!Self.noisy(humanNumber(value)), "\(value)")
                #expect(abs((Double(humanNumber(value)) ?? .nan) - value) < 1e-9)
            }
        }
        #expect(humanNumber(3.5 * 0.8) == "2.8")
        #expect(humanNumber(7) == "7")
    }
}
