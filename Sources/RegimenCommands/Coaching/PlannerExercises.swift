import RegimenCoaching
import RegimenRules

/// Exercise facts adaptation uses (names, muscles, equipment, regressions), from the exercise
/// catalog of the rule set when it has one.
enum PlannerExercises {
    static func facts(_ ruleSet: RuleSet) -> [String: ExerciseFacts] { [:] }
}
