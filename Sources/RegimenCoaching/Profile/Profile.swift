/// A user's answers to the planner's questions (see docs/requirements.md#profile-inputs).
///
/// Only `sex` and `scheduleDays` are required; every other field improves accuracy. Values here are
/// already validated and canonical (aliases resolved); decoding and validation live beside this type.
public struct Profile: Sendable, Hashable {
    public enum Sex: String, Sendable, Hashable, CaseIterable { case male, female }
    public enum Experience: String, Sendable, Hashable, CaseIterable { case novice, intermediate, advanced }
    public enum Equipment: String, Sendable, Hashable, CaseIterable {
        case fullGym = "full_gym"
        case dumbbellsOnly = "dumbbells_only"
        case bandsOnly = "bands_only"
        case bodyweightOnly = "bodyweight_only"
    }
    public enum Injury: String, Sendable, Hashable, CaseIterable, Comparable {
        case shoulder, elbow, wrist
        case lowBack = "low_back"
        case hip, knee, ankle

        public static func < (lhs: Injury, rhs: Injury) -> Bool { lhs.rawValue < rhs.rawValue }
    }
    public enum BudgetTier: String, Sendable, Hashable, CaseIterable { case low, medium, high }

    /// Indexes the user entered directly; each replaces the computed value, which is still shown.
    public struct Overrides: Sendable, Hashable {
        public var bmr: Double?
        public var tdee: Double?
        public var bmi: Double?

        public init(bmr: Double? = nil, tdee: Double? = nil, bmi: Double? = nil) {
            self.bmr = bmr
            self.tdee = tdee
            self.bmi = bmi
        }
    }

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
    public var heightCm: Double?
    public var weightKg: Double?
    public var bodyfatPct: Double?
    public var waistCm: Double?
    public var experience: Experience?
    public var equipment: Equipment?
    public var injuries: [Injury]
    public var overrides: Overrides
    /// Canonical goal id from `rules/goals.yaml` (aliases resolved), e.g. `"fat_loss"`.
    public var goal: String?
    public var budgetTier: BudgetTier?
    public var mealsPerDay: Int?
    /// Dietary patterns and allergens to exclude, e.g. `vegetarian`, `dairy`.
    public var exclusions: [String]
    // Supplements advisor inputs.
    public var pregnant: Bool?
    public var hypertension: Bool?
    public var medications: [String]
    public var dailyCaffeineMg: Double?

    public init(
        sex: Sex, scheduleDays: Int, ageRange: String? = nil, age: Int? = nil, heightCm: Double? = nil,
        weightKg: Double? = nil, bodyfatPct: Double? = nil, waistCm: Double? = nil,
        experience: Experience? = nil, equipment: Equipment? = nil, injuries: [Injury] = [],
        overrides: Overrides = Overrides(), goal: String? = nil, budgetTier: BudgetTier? = nil,
        mealsPerDay: Int? = nil, exclusions: [String] = [], pregnant: Bool? = nil,
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
        self.hypertension = hypertension
        self.medications = medications
        self.dailyCaffeineMg = dailyCaffeineMg
    }
}
