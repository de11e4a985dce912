/// `rules/auto-adjust-matrix.yaml`: what each profile field's change makes stale and must be recomputed
/// (docs/requirements.md#adaptation-matrix).
public struct AutoAdjustMatrix: Sendable, Hashable {
    /// An output of the planner that a profile change can make stale.
    public enum Area: String, Sendable, Hashable, CaseIterable, Comparable {
        // Workout
        /// Workout outputs: the split, weekly sets, exercise pool, reps and RIR, and cues.
        case split, weeklySets = "weekly_sets", exercisePool = "exercise_pool", prescription, cues
        // Nutrition
        /// Nutrition outputs: BMR/TDEE, calories, macros, meal options and carb timing.
        case energy, calories, macros, meals, carbTiming = "carb_timing"
        // Context
        /// Context outputs: body indexes, accuracy, cautions and supplements.
        case bodyIndexes = "body_indexes", accuracy, cautions, supplements

        /// The workout areas.
        public static let workout: Set<Area> = [.split, .weeklySets, .exercisePool, .prescription, .cues]
        /// The nutrition areas.
        public static let nutrition: Set<Area> = [.energy, .calories, .macros, .meals, .carbTiming]
        /// The context areas.
        public static let context: Set<Area> = [.bodyIndexes, .accuracy, .cautions, .supplements]

        public static func < (lhs: Area, rhs: Area) -> Bool {
            (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
        }

        /// How the area reads in a sentence.
        public var label: String {
            switch self {
            case .split: "split"
            case .weeklySets: "weekly sets"
            case .exercisePool: "exercise pool"
            case .prescription: "reps and RIR"
            case .cues: "cues"
            case .energy: "BMR/TDEE"
            case .calories: "calories"
            case .macros: "macros"
            case .meals: "meal options"
            case .carbTiming: "carb timing"
            case .bodyIndexes: "BMI/WHtR/FFMI"
            case .accuracy: "accuracy"
            case .cautions: "cautions"
            case .supplements: "supplements"
            }
        }
    }

    /// One row: a profile field (and the fields that share its row), its impacts and why.
    package struct Row: Sendable, Hashable {
        package var field: String
        /// Other profile fields the row covers (`height_cm` also covers `weight_kg`).
        package var also: [String]
        /// Set when the field is not a profile field and another command handles it (`adapt`).
        var handledBy: String?
        var workoutImpact: String
        var workout: [Area]
        var nutritionImpact: String
        package var nutrition: [Area]
        package var context: [Area]
        var why: String

        init(
            field: String, also: [String] = [], handledBy: String? = nil, workoutImpact: String, workout: [Area],
            nutritionImpact: String, nutrition: [Area], context: [Area], why: String
        ) {
            self.field = field
            self.also = also
            self.handledBy = handledBy
            self.workoutImpact = workoutImpact
            self.workout = workout
            self.nutritionImpact = nutritionImpact
            self.nutrition = nutrition
            self.context = context
            self.why = why
        }

        /// Every area the row recomputes.
        var recomputes: Set<Area> { Set(workout + nutrition + context) }
        package var fields: [String] { [field] + also }
    }

    /// The profile fields, with the seed's names, that a matrix must cover (one row each).
    static let profileFields = [
        "sex", "schedule_days", "age_range", "age", "height_cm", "weight_kg", "bodyfat_pct", "waist_cm", "experience",
        "equipment", "injuries", "overrides", "goal", "budget_tier", "meals_per_day", "exclusions", "pregnant",
        "trimester", "hypertension", "medications", "daily_caffeine_mg",
    ]

    package var rows: [Row]

    init(rows: [Row]) { self.rows = rows }

    /// The row covering `field`.
    package func row(for field: String) -> Row? { rows.first { $0.fields.contains(field) } }
}
