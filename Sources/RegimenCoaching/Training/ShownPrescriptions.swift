/// The goal's prescription per movement as a week's blocks show it: reps and RIR already spelled
/// out, and the rest rule behind it. Every block of one movement shows the same text, so a week
/// spells each once instead of once per block.
struct ShownPrescriptions {
    struct Shown {
        var reps: String
        /// The reps a bodyweight lifting block shows: `exercise_choice.bodyweight_reps` when the
        /// goal's range ends below it (a 3–6 set cannot be loaded with the body alone).
        var bodyweightReps: String
        var rir: String
        /// The rest-seconds rule for the goal and movement, when there is one.
        var restSource: RuleReference?
    }

    private let compound: Shown
    private let isolation: Shown

    init(context: PlanningContext) {
        let modifier = context.modifier.value
        let rests = context.rules.restSeconds[modifier.name]
        func shown(_ movement: Exercise.Movement) -> Shown {
            let prescription = modifier.prescription(for: movement)
            // A safety screen's RIR floor (rules/training-selection.yaml safety_screens): no set
            // closer to failure than the floor.
            let floor = context.minRIR ?? prescription.rir.lowerBound
            let rir = max(prescription.rir.lowerBound, floor)...max(prescription.rir.upperBound, floor)
            var bodyweightReps = prescription.reps
            if let range = context.rules.exerciseChoice.bodyweightReps, prescription.reps.upperBound < range.upperBound {
                bodyweightReps = range
            }
            return Shown(
                reps: RangeText.of(prescription.reps), bodyweightReps: RangeText.of(bodyweightReps), rir: RangeText.of(rir),
                restSource: rests?[movement]?.source)
        }
        compound = shown(.compound)
        isolation = shown(.isolation)
    }

    /// The reps a block of this exercise shows when planned for `muscle`: a hold's time, the
    /// bodyweight range for bodyweight-only lifting (core keeps the goal's), else the goal's.
    func reps(for exercise: Exercise, muscle: String, rules: ExerciseChoiceRules) -> String {
        if let hold = exercise.hold { return RangeText.hold(hold) }
        let shown = self[exercise.movement]
        return rules.isBodyweightOnly(exercise) && !rules.bodyweightMuscles.contains(muscle) ? shown.bodyweightReps : shown.reps
    }

    subscript(movement: Exercise.Movement) -> Shown {
        switch movement {
        case .compound: compound
        case .isolation: isolation
        }
    }
}
