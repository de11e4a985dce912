@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing

/// The advisor binds exactly the variables the supplement rules are compiled against, each
/// with a value of its declared type, and every fact's value has the type its expression was
/// declared with.
@Suite struct SupplementVariableBindingTests {
    @Test func everyDeclaredVariableIsBoundWithItsTypeForEveryItemAndProfile() throws {
        let advisor = try #require(SupplementAdvisorTests.advisor)
        let declared = SupplementRulesFile.expressionScopes.flatMap(\.variables)
        let declaredByName = Dictionary(declared.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var profiles: [Profile] = []
        for weight in [nil, 45.0, 90.0] {
            for caffeine in [nil, 0.0, 400.0] {
                for medications in [[String](), ["lisinopril"], ["something_unlisted"]] {
                    var profile = Profile(sex: .female, scheduleDays: 3, ageRange: "25-34", weightKg: weight, goal: "lean_mass", dailyCaffeineMg: caffeine)
                    profile.medications = medications
                    profile.pregnant = weight == 45
                    profiles.append(profile)
                }
            }
        }
        for profile in profiles {
            let person = advisor.personSlots(profile: profile, excludedTags: SupplementAdvisorTests.veganTags)
            for fact in advisor.rules.facts where !person.unavailable.contains(fact.name) {
                #expect(fact.expression.inferredType.admits(person[fact.name]), "fact \(fact.name) gave \(person[fact.name].typeName)")
            }
            for supplement in advisor.catalog.supplements {
                for dose in [nil, 2.5] {
                    let slots = SupplementAdvisor.itemSlots(supplement, dose: dose, person: person)
                    #expect(slots.bound == Set(declaredByName.keys), "bound \(slots.bound.sorted()), declared \(declaredByName.keys.sorted())")
                    for name in slots.bound {
                        guard let variable = declaredByName[name] else { continue }
                        #expect(variable.type.admits(slots[name]), "\(name) is declared \(variable.type), bound \(slots[name].typeName)")
                    }
                }
            }
        }
    }
}
