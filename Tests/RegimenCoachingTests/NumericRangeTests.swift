import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing
import OrderedCollections

/// Numbers from profiles and plans can be anything a file can hold (`1e308`, `-9e18`, 2^63):
/// each is checked against its field's range before any arithmetic or conversion, and rejected
/// with the field, the value as written and what is allowed. Nothing traps.
@Suite struct NumericRangeTests {
    static let hostile = ["1e19", "-1e19", "9.3e18", "9223372036854775807", "-9223372036854775808", "1e308", "-1e308", "1.7976931348623157e308"]
    static let numericFields = ["schedule_days", "age", "height_cm", "weight_kg", "bodyfat_pct", "waist_cm", "meals_per_day", "daily_caffeine_mg"]

    @Test("every numeric profile field rejects every huge value by name, as written", arguments: numericFields)
    func profileField(field: String) throws {
        let decoder = try TestRules.rules().profileDecoder
        for value in Self.hostile {
            let base = field == "schedule_days" ? "sex: female\n" : "sex: female\nschedule_days: 3\n"
            do {
                _ = try decoder.decode(text: base + "\(field): \(value)\n", file: "p.yaml")
                Issue.record("\(field): \(value) must be rejected")
            } catch {
                let problem = error.problems.first { $0.field == field }
                #expect(problem?.value == value, "\(field): \(value) → \(error.problems)")
                #expect(problem?.location?.line == (field == "schedule_days" ? 2 : 3))
            }
        }
    }

    @Test("every override rejects every huge value by name, as written", arguments: ["BMR", "TDEE", "BMI"])
    func override(key: String) throws {
        let decoder = try TestRules.rules().profileDecoder
        for value in Self.hostile {
            do {
                _ = try decoder.decode(text: "sex: male\nschedule_days: 3\noverrides:\n  \(key): \(value)\n", file: "p.yaml")
                Issue.record("overrides.\(key): \(value) must be rejected")
            } catch {
                #expect(error.problems.contains { $0.field == "overrides.\(key)" && $0.value == value }, "\(error.problems)")
            }
        }
    }

    static func plan(_ edit: (inout [String: Any]) -> Void) -> Value {
        var plan: [String: Any] = [
            "kcal": 2200, "macros": ["protein_g": 150, "fat_g": 70, "carb_g": 240], "idx": ["BMR": 1600],
            "workouts": [["day": 1, "blocks": [["muscle": "chest", "exerciseId": "push_up", "sets": 3, "reps": "8-12", "load_kg": 20]]]],
        ]
        edit(&plan)
        return value(plan)
    }

    static func value(_ any: Any) -> Value {
        switch any {
        case let i as Int: .int(Int64(i))
        case let d as Double: .float(d)
        case let s as String: .string(s)
        case let list as [Any]: .list(list.map(value))
        case let map as [String: Any]: .map(Value.Map(uniqueKeysWithValues: map.sorted { $0.key < $1.key }.map { ($0.key, value($0.value)) }))
        default: .null
        }
    }

    @Test("a plan's numbers are range-checked before adaptation does arithmetic on them")
    func planNumbers() throws {
        _ = try PlanView(document: Self.plan { _ in })
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("plan.kcal", { $0["kcal"] = 1e308 }), ("plan.kcal", { $0["kcal"] = 1e19 }), ("plan.kcal", { $0["kcal"] = -5 }),
            ("plan.kcal", { $0["kcal"] = "oops" }),
            ("plan.macros", { $0["macros"] = "oops" }), ("plan.macros.fat_g", { $0["macros"] = ["protein_g": 150, "fat_g": 1e19, "carb_g": 240] }),
            ("plan.macros.carb_g", { $0["macros"] = ["protein_g": 150, "fat_g": 70] }),
            ("plan.idx.BMR", { $0["idx"] = ["BMR": 1e308] }),
            ("plan.workouts[0].blocks[0].sets", { $0["workouts"] = [["day": 1, "blocks": [["muscle": "chest", "exerciseId": "x", "sets": Int.max]]]] }),
            ("plan.workouts[0].blocks[0].load_kg", { $0["workouts"] = [["day": 1, "blocks": [["muscle": "chest", "exerciseId": "x", "sets": 3, "load_kg": 1e300]]]] }),
            ("plan.workouts[0].day", { $0["workouts"] = [["day": 9_223_372_036_854_775_807, "blocks": []]] }),
        ]
        for (path, edit) in cases {
            do {
                _ = try PlanView(document: Self.plan(edit))
                Issue.record("\(path) must be rejected")
            } catch {
                #expect(error.problems.contains { $0.hasPrefix(path + ": ") }, "\(path) → \(error.problems)")
            }
        }
    }
}
