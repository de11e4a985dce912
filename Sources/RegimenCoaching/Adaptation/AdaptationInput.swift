import RegimenLanguage
import OrderedCollections

/// A daily readiness check-in: sleep hours, soreness by region, stress and motivation (1–5), as
/// stored in the user's `readiness_logs/{date}` (see docs/requirements.md#readiness-adaptation).
package struct CheckIn: Sendable, Hashable {
    /// `YYYY-MM-DD`; check-ins without a date count as days of the current week, in order.
    var date: String?
    var sleepHours: Double
    /// Region (or muscle) → soreness 1–5.
    var soreness: OrderedDictionary<String, Int>
    /// 1 (calm) – 5 (very stressed).
    var stress: Int
    /// 1 (none) – 5 (eager).
    var motivation: Int
    /// Body weight that morning, kg (the measured weight trend reads it).
    package var weightKg: Double?
    /// The day's logged intake, kcal (reported beside the trend).
    var intakeKcal: Double?

    init(
        date: String? = nil, sleepHours: Double, soreness: OrderedDictionary<String, Int> = [:], stress: Int, motivation: Int,
        weightKg: Double? = nil, intakeKcal: Double? = nil
    ) {
        self.weightKg = weightKg
        self.intakeKcal = intakeKcal
        self.date = date
        self.sleepHours = sleepHours
        self.soreness = soreness
        self.stress = stress
        self.motivation = motivation
    }
}

/// One logged working set.
package struct LoggedSet: Sendable, Hashable {
    var loadKg: Double?
    var reps: Int
    /// Reps in reserve the lifter reported; `nil` when not recorded.
    var rir: Double?

    init(loadKg: Double? = nil, reps: Int, rir: Double? = nil) {
        self.loadKg = loadKg
        self.reps = reps
        self.rir = rir
    }
}

/// How a lift felt (the app's "Too easy / Too hard" buttons).
enum SessionFeel: String, Sendable, Hashable, CaseIterable { case easy, ok, hard }

/// The sets of one exercise in a logged session.
package struct LoggedExercise: Sendable, Hashable {
    var exerciseId: String
    var sets: [LoggedSet]
    var feel: SessionFeel?
    /// The plan block's muscle, when the plan uses the exercise for more than one muscle and the
    /// session's day does not say which block it was.
    var muscle: String?

    init(exerciseId: String, sets: [LoggedSet], feel: SessionFeel? = nil, muscle: String? = nil) {
        self.exerciseId = exerciseId
        self.sets = sets
        self.feel = feel
        self.muscle = muscle
    }
}

/// A logged training session.
package struct LoggedSession: Sendable, Hashable {
    var date: String?
    /// The plan day it followed (`workouts[].day`); progression applies from the next day on.
    var day: Int?
    package var exercises: [LoggedExercise]

    init(date: String? = nil, day: Int? = nil, exercises: [LoggedExercise]) {
        self.date = date
        self.day = day
        self.exercises = exercises
    }
}

/// The two-week weight trend against the goal's target (the request's `weight_trend_2w`).
package enum WeightTrend: String, Sendable, Hashable, CaseIterable {
    case below
    case onTarget = "on_target"
    case above
}

/// Everything `adaptPlan` reads besides the plan: its request (docs/requirements.md#adaptplan),
/// with several days of check-ins and the logged sessions.
public struct AdaptationInput: Sendable, Hashable {
    var checkIns: [CheckIn]
    var sessions: [LoggedSession]
    /// Percentage of planned sessions completed, when the request reports it.
    public var adherencePct: Double?
    var weightTrend: WeightTrend?
    /// Week of the training block (1-based); deload rules read it.
    public var week: Int?
    /// The plan day the user trains next; defaults to the day after the last logged session.
    public var nextDay: Int?
    /// Muscles the user wants to bring up.
    public var laggingMuscles: [String]
    /// The plan's goal when the plan does not say (`fat_loss`, …): the calorie band and the
    /// target weight trend are the goal's.
    public var goal: String?
    /// The day training started (`YYYY-MM-DD`); with no `week`, the week is counted from it.
    /// Defaults to the plan's `start_date`, else the first check-in's date.
    public var startDate: String?
    /// Where each field was written, when the input was read from a file, so that a problem the
    /// plan reveals (an unknown region, a day the plan lacks) points at the line.
    var fieldLocations = FieldLocations()

    init(
        checkIns: [CheckIn] = [], sessions: [LoggedSession] = [], adherencePct: Double? = nil,
        weightTrend: WeightTrend? = nil, week: Int? = nil, nextDay: Int? = nil, laggingMuscles: [String] = [],
        goal: String? = nil, startDate: String? = nil
    ) {
        self.goal = goal
        self.startDate = startDate
        self.checkIns = checkIns
        self.sessions = sessions
        self.adherencePct = adherencePct
        self.weightTrend = weightTrend
        self.week = week
        self.nextDay = nextDay
        self.laggingMuscles = laggingMuscles
    }
}

/// Field path (`checkins[0].soreness.legs`) → where it was written. Not part of the input's
/// value: two inputs that differ only in where they were read are the same request.
struct FieldLocations: Sendable, Hashable {
    var byPath: [String: SourceLocation] = [:]

    init() {}

    /// The location of `path`, or of the nearest enclosing field that has one.
    package func location(of path: String) -> SourceLocation? {
        var path = path
        while true {
            if let location = byPath[path] { return location }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return nil }
            path = String(path[..<cut])
        }
    }

    package static func == (lhs: FieldLocations, rhs: FieldLocations) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}
