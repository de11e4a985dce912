import Foundation
@testable import RegimenLanguage
import Testing
@testable import RegimenCommands
import RegimenTestSupport

/// `regimen indexes` and `regimen nutrition` run in-process against the repository's rules.
@Suite struct ProfileCommandTests {
    static let repository = RepositoryRoot.url

    func run(_ arguments: [String]) -> CommandRun { runRegimen(arguments, in: Self.repository) }

    func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func indexesPrintsTheSeedsResponseAsJSON() throws {
        let result = run(["indexes", "examples/masters-strength.yaml", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let response = try json(result.standardOutput)
        // Katch: LBM 82 · 0.76 = 62.32 → 370 + 21.6 · 62.32 = 1716.1; ×1.55 = 2660
        #expect(response["method"] as? String == "katch")
        #expect(response["BMR"] as? Int == 1716)
        #expect(response["TDEE"] as? Int == 2660)
        #expect(response["accuracy"] as? String == "highest")
        #expect(response["next_best_input"] is NSNull)
        for key in ["BMI", "WHtR", "FFMI"] { #expect(response[key] is NSNumber, "\(key)") }
    }

    @Test func indexesTextIsForPeople() {
        let result = run(["indexes", "examples/minimal.yaml", "--format", "text"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("BMR       "))
        #expect(result.standardOutput.contains("Assumed   age 29, height_cm 163, weight_kg 60"))
        #expect(result.standardOutput.contains("tip: Add your weight to improve BMR accuracy"))
    }

    @Test func yamlHasTheSameContentAsJSON() {
        // ICRP reference woman: 10·60 + 6.25·163 − 5·29 − 161 = 1312.75
        let result = run(["indexes", "examples/minimal.yaml", "--format", "yaml"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("BMR: 1313\n"))
        #expect(result.standardOutput.contains("method: mifflin\n"))
        #expect(result.standardOutput.contains("next_best_input: weight_kg\n"))
    }

    @Test func nutritionJSONCarriesMealsWithOptionsAndTargets() throws {
        let result = run(["nutrition", "examples/complete.yaml", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let plan = try json(result.standardOutput)
        #expect(plan["kcal"] is Int)
        let macros = try #require(plan["macros"] as? [String: Any])
        #expect(Set(macros.keys) == ["protein_g", "fat_g", "carb_g"])
        let ingredients = try #require(plan["ingredients"] as? [String: Any])
        let meals = try #require(ingredients["meals"] as? [[String: Any]])
        #expect(meals.count == 4)
        for meal in meals {
            #expect(meal["targets"] is [String: Any])
            for key in ["protein_opts", "carb_opts", "veg_opts", "fat_opts"] {
                let options = try #require(meal[key] as? [[String: Any]])
                #expect(options.count >= 3, "\(key)")
                #expect(options.allSatisfy { $0["ingredientId"] is String && $0["grams"] is NSNumber && $0["budget_tier"] is String })
                // No peanut for a profile that excludes peanuts.
                #expect(!options.contains { ($0["ingredientId"] as? String)?.contains("peanut") == true })
            }
        }
    }

    @Test func nutritionTextIsATable() {
        let result = run(["nutrition", "examples/cutting-office-worker.yaml", "--format", "text"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Goal fat_loss: "))
        #expect(result.standardOutput.contains("\nBreakfast — target P "))
        #expect(result.standardOutput.contains("  protein "))
    }

    @Test func nutritionPrintsTextByDefaultWithEveryMealsOptionsAndGrams() throws {
        let result = run(["nutrition", "examples/minimal.yaml"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("Goal "))
        let text = result.standardOutput
        let meals = text.components(separatedBy: "\n").filter { $0.contains(" — target P ") }
        #expect(meals.count >= 2)
        // Every meal offers options: at least 3 per category, each line with grams and macros.
        #expect(text.components(separatedBy: "pick one from each of protein, carb, veg and fat:").count - 1 == meals.count)
        let optionLines = text.components(separatedBy: "\n").filter { $0.range(of: #" \d+ g  P +[\d.]+  C "#, options: .regularExpression) != nil }
        #expect(optionLines.count >= 12 * meals.count)
        #expect(!text.contains("no options"))
    }

    @Test func jsonNeverSpreadsAnEmptyListOverBlankLines() throws {
        // The plan's `adjustments` and `exclusions` are empty lists for this profile.
        let result = run(["nutrition", "examples/minimal.yaml", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.contains("\n\n"))
        #expect(result.standardOutput.contains("\"adjustments\" : []"))
        let plan = try json(result.standardOutput)
        #expect((plan["adjustments"] as? [Any])?.isEmpty == true)
    }

    @Test func badProfileExitsTwoWithEveryProblem() throws {
        let scratch = try ScratchDirectory(["bad.yaml": "sex: robot\nschedule_days: 9\nweight_kg: 20\n"])
        defer { scratch.cleanUp() }
        let result = run(["nutrition", scratch.url.appendingPathComponent("bad.yaml").path])
        #expect(result.status == 2)
        #expect(result.standardOutput == "")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasSuffix(":1:6: error: sex: 'robot' is not allowed; expected one of male, female"))
        #expect(lines[3] == "profile rejected: 3 problems")
    }

    @Test func missingProfileFileIsAUsageError() {
        let result = run(["indexes", "no-such-profile.yaml"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("does not exist"))
    }

    @Test func everyExampleRunsInEveryFormat() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("examples").path).sorted()
        for file in files where file.hasSuffix(".yaml") || file.hasSuffix(".json") {
            for command in ["indexes", "nutrition"] {
                for format in ["json", "yaml", "text"] {
                    let result = run([command, "examples/\(file)", "--format", format])
                    #expect(result.status == 0, "\(command) \(file) \(format): \(result.standardError)")
                    #expect(!result.standardOutput.isEmpty)
                }
            }
        }
    }
}
