import Foundation
@testable import RegimenKit
import Testing
import RegimenTestSupport

/// The README's "Use it from Swift" examples, through `import RegimenKit` alone (no
/// `@testable`): each test is one step of the example with the properties it promises.
@Suite struct ReadmeExamplesTests {
    static let root = RepositoryRoot.url

    /// One engine for the suite, found as `.bundled` finds it, from the repository root.
    static let engine: RegimenEngine? = try? RegimenEngine.bundled(from: root)

    static func loaded() throws -> RegimenEngine { try #require(engine) }

    @Test func bundledAndExplicitFoldersLoadTheSameRules() throws {
        let explicit = try RegimenEngine(rules: Self.root.appendingPathComponent("rules"), catalogs: Self.root.appendingPathComponent("catalogs"))
        let profile = Data(#"{"sex": "female", "schedule_days": 3}"#.utf8)
        #expect(try explicit.generatePlan(profile).json() == Self.loaded().generatePlan(profile).json())
    }

    @Test func generatePlanFromTheSeedsProfileJSON() throws {
        let engine = try Self.loaded()
        let plan = try engine.generatePlan(Data(#"{"sex": "female", "schedule_days": 3}"#.utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(plan.json().utf8)) as? [String: Any])
        for key in ["idx", "kcal", "macros", "workouts", "ingredients", "confidence", "tips"] {
            #expect(object[key] != nil, "generatePlan response lacks \(key)")
        }
        #expect(plan.training.workouts.count == 3)
        #expect(plan.json().hasSuffix("}\n"))
    }

    @Test func typedProfileGivesIndexesNutritionSupplementsAndDiff() throws {
        let engine = try Self.loaded()
        let profile = try engine.profile(from: "sex: male\nschedule_days: 4\nage: 35\nheight_cm: 180\nweight_kg: 82")
        let indexes = try engine.indexes(profile)
        // Mifflin–St Jeor for a man: 10·82 + 6.25·180 − 5·35 + 5.
        #expect(indexes.bmr == 1775)
        #expect(indexes.tdee > indexes.bmr)
        let meals = try engine.nutrition(profile)
        #expect(meals.kcal > 0)
        #expect(!meals.meals.isEmpty)
        let advice = try engine.supplements(for: profile, goal: "general_health")
        #expect(advice.goal == "general_health")
        let change = try engine.diff(old: profile, new: try engine.profile(from: "sex: male\nschedule_days: 5\nage: 35\nheight_cm: 180\nweight_kg: 82"))
        #expect(change.fieldChanges.map(\.field) == ["schedule_days"])
        #expect(!change.recomputed.isEmpty)
        // The same profile twice recomputes nothing.
        #expect(try engine.diff(old: profile, new: profile).fieldChanges.isEmpty)
    }

    @Test func adaptPlanChangesThePlanOnceAndReadsTheWholeRequest() throws {
        let engine = try Self.loaded()
        let plan = try engine.generatePlan(Data(#"{"sex": "female", "schedule_days": 3}"#.utf8))
        let checkIns = """
            week: 3
            checkins:
              - {date: 2026-03-02, sleep_h: 4.5, soreness: {legs: 5}, stress: 5, motivation: 1}
              - {date: 2026-03-03, sleep_h: 4, soreness: {legs: 5}, stress: 5, motivation: 1}
            """
        let adapted = try engine.adaptPlan(try AdaptPlanRequest(currentPlan: plan, checkIns: checkIns))
        #expect(!adapted.changeLog.isEmpty)
        #expect(adapted.patchedPlan != plan.contractValue)
        // The seed's single request, as a service receives it: the check-ins with `current_plan`.
        let request = checkIns + "\ncurrent_plan: " + plan.contractValue.jsonString() + "\n"
        let again = try engine.adaptPlan(try AdaptPlanRequest(json: Data(request.utf8), name: "request.json"))
        #expect(again.json() == adapted.json())
        // Running the same check-ins on the adapted plan changes nothing.
        let twice = checkIns + "\ncurrent_plan: " + adapted.patchedPlan.jsonString() + "\n"
        #expect(try engine.adaptPlan(try AdaptPlanRequest(text: twice)).changeLog.isEmpty)
    }

    @Test func policiesByNameDecideTestAndAudit() throws {
        let engine = try Self.loaded()
        let policy = try engine.policy(named: "workout-tracker/corrected")
        let data = WriteData(["name": .string("Push"), "userId": .string("alice")])
        #expect(try policy.decide(.create("users/alice/programs/p1", data: data, auth: .uid("alice"))).allowed)
        // Someone else, or nobody, may not write Alice's program; an invalid one is refused too.
        #expect(try !policy.decide(.create("users/alice/programs/p1", data: data, auth: .uid("bob"))).allowed)
        #expect(try !policy.decide(.create("users/alice/programs/p1", data: data, auth: nil)).allowed)
        #expect(try !policy.decide(.create("users/alice/programs/p1", data: WriteData(["userId": .string("alice")]), auth: .uid("alice"))).allowed)
        let tests = try policy.test()
        #expect(!tests.results.isEmpty)
        #expect(tests.failed == 0)
        #expect(policy.audit().allSatisfy { $0.severity != .error })
        #expect(engine.policyNames.contains("workout-tracker/corrected"))
        #expect(engine.policyNames.contains("trainer-student/storage"))
        #expect(!engine.policyNames.contains { $0.hasSuffix(".tests") })
    }

    @Test func decisionsSeeTheDocumentsThatExist() throws {
        let policy = try Self.loaded().policy(named: "workout-tracker/corrected")
        let request = try policy.request(op: "get", path: "users/alice/programs/p1", auth: #"{"uid": "alice"}"#)
        #expect(policy.decide(request).allowed)
        let update = PolicyRequest.update("users/alice/programs/p1", data: WriteData(["name": .string("Legs")]), auth: .uid("alice"))
        // The stored document supplies the fields the update leaves alone (userId).
        #expect(try policy.decide(update, documents: ["users/alice/programs/p1": .map(["name": .string("Push"), "userId": .string("alice")])]).allowed)
        #expect(try !policy.decide(update).allowed)
    }

    @Test func errorsAreTypedAndLocated() throws {
        let engine = try Self.loaded()
        do {
            _ = try engine.generatePlan(Data(#"{"sex": "female", "schedule_days": 9}"#.utf8))
            Issue.record("a profile with 9 training days was accepted")
        } catch {
            #expect(error.isInputError)
            #expect(error.code == .profile)
            #expect(error.profileProblems.map(\.field) == ["schedule_days"])
            #expect(error.diagnostics.map(\.field) == ["schedule_days"])
            #expect(error.diagnostics.first?.location?.line == 1)
        }
        let person = try engine.profile(from: "sex: female\nschedule_days: 3")
        do {
            _ = try engine.supplements(for: person, goal: "flying")
            Issue.record("an unknown goal was accepted")
        } catch {
            #expect(error.code == .option)
            #expect(error.diagnostics.first?.message.contains("'flying'") == true)
        }
        do {
            _ = try AdaptPlanRequest(text: "week: 3\ncheckins: []\n", name: "request.yaml")
            Issue.record("a request without current_plan was accepted")
        } catch {
            #expect(error.code == .request)
            #expect(error.diagnostics.count == 1)
            #expect(error.diagnostics.first?.location == SourceLocation(file: "request.yaml", line: 1, column: 1))
            #expect(error.description.hasPrefix("request.yaml:1:1: error:"))
        }
        for name in ["workout-tracker/missing", "../rules/security/workout-tracker/corrected", "", "workout-tracker//corrected", "workout-tracker/corrected.tests"] {
            do {
                _ = try engine.policy(named: name)
                Issue.record("policy '\(name)' was found")
            } catch {
                #expect(error.code == .policyNotFound)
                #expect(error.diagnostics.first?.message == "no policy named '\(name)'")
                #expect(error.isInputError)
            }
        }
    }
}
