/// A level of the workout tracker's hierarchy: program → week → workout → exercise → set.
public enum TrackerLevel: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The levels from the top (`program`) down to `set`.
    case program, week, workout, exercise, set

    /// The Firestore collection that holds documents of this level.
    public var collection: String {
        switch self {
        case .program: "programs"
        case .week: "weeks"
        case .workout: "workouts"
        case .exercise: "exercises"
        case .set: "sets"
        }
    }

    /// The level below this one, `nil` for sets.
    public var child: TrackerLevel? {
        switch self {
        case .program: .week
        case .week: .workout
        case .workout: .exercise
        case .exercise: .set
        case .set: nil
        }
    }

    /// The level above this one, `nil` for programs.
    public var parent: TrackerLevel? {
        switch self {
        case .program: nil
        case .week: .program
        case .workout: .week
        case .exercise: .workout
        case .set: .exercise
        }
    }

    /// The capitalised name used in audit keys (`sourceWeekId`).
    public var capitalized: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    private var depth: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: TrackerLevel, rhs: TrackerLevel) -> Bool { lhs.depth < rhs.depth }
}
