public import RegimenLanguage
package import RegimenRules
import OrderedCollections

/// `generatePlan` (docs/requirements.md#generateplan) on a loaded rule set: indexes, calories and
/// macros, the ingredient plan and the week of training, from one profile.
package struct PlanGenerator: Sendable {
    package let nutrition: NutritionRuleSet
    package let training: TrainingPlanner

    /// Every rule-file kind the planner reads; register them with the loader.
    package static var kinds: [any RuleFileKind.Type] { NutritionRuleSet.kinds + TrainingRules.fileKinds }

    /// - Throws: ``DiagnosticsError`` when the nutrition or training rules are missing or inconsistent.
    package init(ruleSet: RuleSet) throws(DiagnosticsError) {
        self.nutrition = try NutritionRuleSet(ruleSet)
        self.training = try TrainingPlanner(ruleSet: ruleSet)
    }

    package init(nutrition: NutritionRuleSet, training: TrainingPlanner) {
        self.nutrition = nutrition
        self.training = training
    }

    /// The full plan for `profile`.
    /// - Throws: ``PlanGenerationError`` naming the rule or profile field that stopped it.
    package func generatePlan(_ profile: Profile, options: TrainingPlanOptions = TrainingPlanOptions()) throws(PlanGenerationError) -> GeneratedPlan {
        let week: TrainingWeek
        do throws(TrainingPlanError) {
            week = try training.plan(for: profile, options: options)
        } catch {
            throw PlanGenerationError(message: error.description, location: nil, kind: error.kind)
        }
        do throws(RuleEvaluationError) {
            let indexes = try nutrition.recalculateIndexes(profile)
            let meals = try nutrition.planNutrition(profile, indexes: indexes)
            return GeneratedPlan(indexes: indexes, nutrition: meals, training: week)
        } catch {
            throw PlanGenerationError(message: error.message, location: error.location, kind: error.kind)
        }
    }
}

/// Why a plan could not be generated: a training option the rules do not offer (the caller's
/// input), or a rule expression that failed (the rules).
package struct PlanGenerationError: DiagnosticError {
    package var message: String
    package var location: SourceLocation?
    package var kind: ErrorKind

    package var diagnostics: [Diagnostic] { [.error("plan.failed", message, at: location)] }
}

/// A generated plan as typed values, with the seed's JSON shape one call away.
public struct GeneratedPlan: Sendable, Hashable {
    /// Body indexes, energy and accuracy.
    public var indexes: IndexReport
    /// Calories, macros and meal options.
    public var nutrition: NutritionPlan
    /// The training week: split, workouts and weekly volume.
    public var training: TrainingWeek

    /// The seed's response `{idx, kcal, macros, workouts, ingredients, confidence, tips}` plus the
    /// week's `training` accounting; `explain` adds the rules behind every block.
    public func jsonValue(explain: Bool = false) -> Value {
        let meals = nutrition.jsonValue
        let section = PlanNutritionSection(
            idx: indexes.jsonValue, kcal: meals["kcal"] ?? .null, macros: meals["macros"] ?? .null,
            ingredients: meals["ingredients"] ?? .null, confidence: .string(indexes.confidence),
            tips: indexes.tips + nutrition.tips,
            // `goal`: adapt keeps later calorie steps in its band and reads its target weight trend.
            // `cautions`: what the client must know about the target (pregnancy: no deficit, why).
            accounting: .map([
                "goal": meals["goal"] ?? .null, "basis": meals["basis"] ?? .null, "adjustments": meals["adjustments"] ?? .list([]),
                "cautions": meals["cautions"] ?? .list([]),
            ]))
        return GeneratePlanResponse.make(training: training, nutrition: section, explain: explain)
    }
}
