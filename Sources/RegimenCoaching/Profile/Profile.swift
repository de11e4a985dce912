/// A user's answers to the planner's questions (see docs/requirements.md#profile-inputs).
///
/// Only `sex` and `scheduleDays` are required; every other field improves accuracy. Values here are
/// already validated and canonical (aliases resolved); decoding and validation live beside this type.
public struct Profile: Sendable, Hashable {
    /// Sex, for the energy formulas and the supplement cautions.
    public enum Sex: String, Sendable, Hashable, CaseIterable {
        /// Male (the energy formulas' male terms in `rules/indexes.yaml`).
        case male
        /// Female (the energy formulas' female terms).
        case female
    }
    /// Training experience, which sets the weekly volume bands.
    public enum Experience: String, Sendable, Hashable, CaseIterable {
        /// New to structured training: the lowest weekly volume band of `rules/training-volume.yaml`.
        case novice
        /// Trains regularly and progresses steadily: the middle band.
        case intermediate
        /// Long training history: the highest band.
        case advanced
    }
    /// The equipment the user can train with.
    public enum Equipment: String, Sendable, Hashable, CaseIterable {
        /// A full gym: barbells, machines, cables and dumbbells.
        case fullGym = "full_gym"
        /// Dumbbells (and a bench) only.
        case dumbbellsOnly = "dumbbells_only"
        /// Resistance bands only.
        case bandsOnly = "bands_only"
        /// No equipment.
        case bodyweightOnly = "bodyweight_only"
    }
    /// A region to protect: exercises that load it are swapped or regressed.
    public enum Injury: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Upper-limb joints.
        case shoulder, elbow, wrist
        /// The lower back.
        case lowBack = "low_back"
        /// Lower-limb joints.
        case hip, knee, ankle

        public static func < (lhs: Injury, rhs: Injury) -> Bool { lhs.rawValue < rhs.rawValue }
    }
    /// The grocery budget meal options are chosen for.
    public enum BudgetTier: String, Sendable, Hashable, CaseIterable {
        /// The cheapest catalog tier (which tiers a budget admits is `budget_tiers` in `rules/meals.yaml`).
        case low
        /// A middle budget.
        case medium
        /// The largest budget.
        case high
    }

    /// Indexes the user entered directly; each replaces the computed value, which is still shown.
    public struct Overrides: Sendable, Hashable {
        /// Basal metabolic rate in kcal/day.
        public var bmr: Double?
        /// Total daily energy expenditure in kcal/day.
        public var tdee: Double?
        /// Body-mass index in kg/m².
        public var bmi: Double?

        /// Overrides for the given indexes; `nil` keeps the computed value.
        public init(bmr: Double? = nil, tdee: Double? = nil, bmi: Double? = nil) {
            self.bmr = bmr
            self.tdee = tdee
            self.bmi = bmi
        }
    }

    /// The user's sex.
    public var sex: Sex
    /// Training days the user asked for, 1–7 (7 becomes 6 training days plus one recovery day).
    public var scheduleDays: Int
    /// Whether `scheduleDays` was assumed (rules/profile-fields.yaml `default_schedule_days`)
    /// because the request left it out; outputs list it among their assumptions.
    public var scheduleDaysAssumed = false
    /// Canonical age range id such as `"18-24"` or `"<18"` (ASCII hyphen).
    public var ageRange: String?
    /// Exact age in years; wins over the range's mapped age.
    public var age: Int?
    /// Height in centimetres.
    public var heightCm: Double?
    /// Body weight in kilograms.
    public var weightKg: Double?
    /// Body fat as a percentage of body weight.
    public var bodyfatPct: Double?
    /// Waist circumference in centimetres.
    public var waistCm: Double?
    /// Training experience; the rules assume one when absent.
    public var experience: Experience?
    /// Available equipment; the rules assume one when absent.
    public var equipment: Equipment?
    /// Regions to protect, sorted.
    public var injuries: [Injury]
    /// Indexes the user entered directly.
    public var overrides: Overrides
    /// Canonical goal id from `rules/goals.yaml` (aliases resolved), e.g. `"fat_loss"`.
    public var goal: String?
    /// The grocery budget; the rules assume one when absent.
    public var budgetTier: BudgetTier?
    /// Meals per day; the rules assume a number when absent.
    public var mealsPerDay: Int?
    /// Dietary patterns and allergens to exclude, e.g. `vegetarian`, `dairy`.
    public var exclusions: [String]
    // Supplements advisor inputs.
    /// Whether the user is pregnant: no calorie deficit, training cautions and exclusions,
    /// supplement cautions.
    public var pregnant: Bool?
    /// The trimester (1–3) of a pregnancy, when given: the extra energy and the exercises excluded
    /// after the first trimester (`rules/nutrition.yaml`, `rules/training-selection.yaml`).
    public var trimester: Int?
    /// Whether the user has high blood pressure (supplement cautions).
    public var hypertension: Bool?
    /// Medications the user takes, for interaction cautions.
    public var medications: [String]
    /// Caffeine the user already takes each day, in mg.
    public var dailyCaffeineMg: Double?

    /// A profile with the given answers; only `sex` and `scheduleDays` are required.
    public init(
        sex: Sex, scheduleDays: Int, ageRange: String? = nil, age: Int? = nil, heightCm: Double? = nil,
        weightKg: Double? = nil, bodyfatPct: Double? = nil, waistCm: Double? = nil,
        experience: Experience? = nil, equipment: Equipment? = nil, injuries: [Injury] = [],
        overrides: Overrides = Overrides(), goal: String? = nil, budgetTier: BudgetTier? = nil,
        mealsPerDay: Int? = nil, exclusions: [String] = [], pregnant: Bool? = nil, trimester: Int? = nil,
        hypertension: Bool? = nil, medications: [String] = [], dailyCaffeineMg: Double? = nil
    ) {
        self.sex = sex
        self.scheduleDays = scheduleDays
        self.ageRange = ageRange
        self.age = age
        self.heightCm = heightCm
        self.weightKg = weightKg
        self.bodyfatPct = bodyfatPct
        self.waistCm = waistCm
        self.experience = experience
        self.equipment = equipment
        self.injuries = injuries
        self.overrides = overrides
        self.goal = goal
        self.budgetTier = budgetTier
        self.mealsPerDay = mealsPerDay
        self.exclusions = exclusions
        self.pregnant = pregnant
        self.trimester = trimester
        self.hypertension = hypertension
        self.medications = medications
        self.dailyCaffeineMg = dailyCaffeineMg
    }
}
