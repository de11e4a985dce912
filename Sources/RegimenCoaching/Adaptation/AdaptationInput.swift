import RegimenLanguage
import OrderedCollections

/// A daily readiness check-in: sleep hours, soreness by region, stress and motivation (1–5), as
/// stored in the user's `readiness_logs/{date}` (see docs/requirements.md#readiness-adaptation).
public struct CheckIn: Sendable, Hashable {
    /// `YYYY-MM-DD`; check-ins without a date count as days of the current week, in order.
    public var date: String?
    public var sleepHours: Double
    /// Region (or muscle) → soreness 1–5.
    public var soreness: OrderedDictionary<String, Int>
    /// 1 (calm) – 5 (very stressed).
    public var stress: Int
    /// 1 (none) – 5 (eager).
    public var motivation: Int

    public init(date: String? = nil, sleepHours: Double, soreness: OrderedDictionary<String, Int> = [:], stress: Int, motivation: Int) {
        self.date = date
        self.sleepHours = sleepHours
        self.soreness = soreness
        self.stress = stress
        self.motivation = motivation
    }
}

/// One logged working set.
public struct LoggedSet: Sendable, Hashable {
    public var loadKg: Double?
    public var reps: Int
    /// Reps in reserve the lifter reported; `nil` when not recorded.
    public var rir: Double?

    public init(loadKg: Double? = nil, reps: Int, rir: Double? = nil) {
        self.loadKg = loadKg
        self.reps = reps
        self.rir = rir
    }
}

/// How a lift felt (the app's "Too easy / Too hard" buttons).
public enum SessionFeel: String, Sendable, Hashable, CaseIterable { case easy, ok, hard }

/// The sets of one exercise in a logged session.
public struct LoggedExercise: Sendable, Hashable {
    public var exerciseId: String
    public var sets: [LoggedSet]
    public var feel: SessionFeel?
    /// The plan block's muscle, when the plan uses the exercise for more than one muscle and the
    /// session's day does not say which block it was.
    public var muscle: String?

    public init(exerciseId: String, sets: [LoggedSet], feel: SessionFeel? = nil, muscle: String? = nil) {
        self.exerciseId = exerciseId
        self.sets = sets
        self.feel = feel
        self.muscle = muscle
    }
}

/// A logged training session.
public struct LoggedSession: Sendable, Hashable {
    public var date: String?
    /// The plan day it followed (`workouts[].day`); progression applies from the next day on.
    public var day: Int?
    public var exercises: [LoggedExercise]

    public init(date: String? = nil, day: Int? = nil, exercises: [LoggedExercise]) {
        self.date = date
        self.day = day
        self.exercises = exercises
    }
}

/// The two-week weight trend against the goal's target (the request's `weight_trend_2w`).
public enum WeightTrend: String, Sendable, Hashable, CaseIterable {
    case below
    case onTarget = "on_target"
    case above
}

/// Everything `adaptPlan` reads besides the plan: its request (docs/requirements.md#adaptplan),
/// with several days of check-ins and the logged sessions.
public struct AdaptationInput: Sendable, Hashable {
    public var checkIns: [CheckIn]
    public var sessions: [LoggedSession]
    public var adherencePct: Double?
    public var weightTrend: WeightTrend?
    /// Week of the training block (1-based); deload rules read it.
    public var week: Int?
    /// The plan day the user trains next; defaults to the day after the last logged session.
    public var nextDay: Int?
    /// Muscles the user wants to bring up.
    public var laggingMuscles: [String]
    /// Where each field was written, when the input was read from a file, so that a problem the
    /// plan reveals (an unknown region, a day the plan lacks) points at the line.
    public var fieldLocations = FieldLocations()

    public init(
        checkIns: [CheckIn] = [], sessions: [LoggedSession] = [], adherencePct: Double? = nil,
        weightTrend: WeightTrend? = nil, week: Int? = nil, nextDay: Int? = nil, laggingMuscles: [String] = []
    ) {
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
public struct FieldLocations: Sendable, Hashable {
    var byPath: [String: SourceLocation] = [:]

    public init() {}

    /// The location of `path`, or of the nearest enclosing field that has one.
    public func location(of path: String) -> SourceLocation? {
        var path = path
        while true {
            if let location = byPath[path] { return location }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return nil }
            path = String(path[..<cut])
        }
    }

    public static func == (lhs: FieldLocations, rhs: FieldLocations) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}
