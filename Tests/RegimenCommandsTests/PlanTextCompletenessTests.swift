import RegimenTestSupport
import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
@testable import RegimenCommands

/// Every caution, warning, note, assumption and tip of `regimen plan --format json` also appears
/// in the text a person reads.
@Suite struct PlanTextCompletenessTests {
    static let generator: PlanGenerator? = {
        let root = AdaptationCommandTests.repository
        let sources = RuleSources(rules: root.appendingPathComponent("rules"), catalogs: root.appendingPathComponent("catalogs"), displayBase: root)
        let result = RuleSetLoader(kinds: PlanGenerator.kinds, otherModulesKinds: .anyUnregistered).load(from: sources)
        guard let ruleSet = try? result.get() else { return nil }
        return try? PlanGenerator(ruleSet: ruleSet)
    }()

    static func strings(_ value: Value?) -> [String] { (value?.listValue ?? []).compactMap(\.stringValue) }

    @Test func everyCautionWarningAndTipOfTheJSONIsInTheText() throws {
        let generator = try #require(Self.generator)
        var rng = SeededGenerator(seed: 0x7E47)
        var cautions = 0
        var warnings = 0
        for _ in 0..<120 {
            let sex = Bool.random(using: &rng) ? Profile.Sex.male : .female
            var profile = Profile(
                sex: sex, scheduleDays: Int.random(in: 1...7, using: &rng),
                ageRange: ["<18", "18-24", "25-34", "45-54", nil].randomElement(using: &rng) ?? nil,
                heightCm: Bool.random(using: &rng) ? Double(Int.random(in: 150...200, using: &rng)) : nil,
                weightKg: Bool.random(using: &rng) ? Double(Int.random(in: 45...120, using: &rng)) : nil,
                experience: Profile.Experience.allCases.randomElement(using: &rng),
                equipment: Profile.Equipment.allCases.randomElement(using: &rng),
                goal: ["fat_loss", "lean_mass", "strength", "recomp"].randomElement(using: &rng))
            if Bool.random(using: &rng) { profile.overrides.bmr = Double(Int.random(in: 1000...2800, using: &rng)) }
            if Int.random(in: 0..<4, using: &rng) == 0 { profile.overrides.tdee = Double(Int.random(in: 1500...4500, using: &rng)) }
            let plan = try generator.generatePlan(profile)
            let json = plan.jsonValue()
            let text = PlanText.render(plan, explain: false, ingredientName: { generator.nutrition.catalog.ingredient($0)?.name })
            let idx = json["idx"]
            cautions += Self.strings(idx?["cautions"]).count
            warnings += Self.strings(idx?["warnings"]).count
            let required = Self.strings(idx?["cautions"]) + Self.strings(idx?["warnings"]) + Self.strings(idx?["notes"])
                + Self.strings(json["tips"]) + Self.strings(json["training"]?["notes"]) + Self.strings(json["training"]?["assumptions"])
            for line in required {
                #expect(text.contains(line), "missing from text: \(line)")
            }
        }
        #expect(cautions > 10)
        #expect(warnings > 10)
    }
}


/// plan, indexes, adapt, diff and supplements print text for people unless asked for JSON, and
/// `--format json` keeps the seed's contracts.
@Suite struct TextByDefaultTests {
    private func run(_ arguments: [String]) -> CommandRun { runRegimen(arguments, in: AdaptationCommandTests.repository) }

    @Test func everyPlannerCommandPrintsTextByDefault() throws {
        let scratch = try ScratchDirectory(["plan.json": AdaptationCommandTests.plan])
        defer { scratch.cleanUp() }
        let commands: [[String]] = [
            ["plan", "examples/minimal.yaml"], ["indexes", "examples/minimal.yaml"],
            ["adapt", scratch.url.appendingPathComponent("plan.json").path, "examples/checkins/sore-legs.yaml"],
            ["diff", "examples/minimal.yaml", "examples/complete.yaml"], ["supplements", "examples/complete.yaml"],
        ]
        for command in commands {
            let text = run(command)
            #expect(text.status == 0, "\(command): \(text.standardError)")
            #expect(!text.standardOutput.hasPrefix("{"), "\(command)")
            let json = run(command + ["--format", "json"])
            #expect(json.standardOutput.hasPrefix("{"), "\(command)")
            #expect(YAMLReader.read(json.standardOutput, file: "out.json").document?.value().mapValue != nil, "\(command)")
        }
    }

    @Test func planJSONKeepsTheSeedsGeneratePlanKeys() throws {
        let json = run(["plan", "examples/minimal.yaml", "--format", "json"])
        let value = try #require(YAMLReader.read(json.standardOutput, file: "out.json").document?.value())
        for key in ["idx", "kcal", "macros", "workouts", "ingredients", "confidence", "tips"] { #expect(value[key] != nil, "\(key)") }
        let indexes = run(["indexes", "examples/minimal.yaml", "--format", "json"])
        let idx = try #require(YAMLReader.read(indexes.standardOutput, file: "out.json").document?.value())
        for key in ["BMR", "method", "TDEE", "BMI", "WHtR", "FFMI", "accuracy", "next_best_input"] { #expect(idx[key] != nil, "\(key)") }
    }
}
