import RegimenLanguage
import RegimenRules

/// The variables the formulas of `rules/periodization.yaml` read, declared once: the file
/// compiles its formulas against them (types checked), the periodizer binds exactly them, and
/// `regimen explain-kind periodization` and the file's header print them.
enum PeriodizationVariables {
    typealias V = VariableDeclaration

    static let start = V("start", .number, "the ramp's starting intensity (fraction of 1RM)")
    static let end = V("end", .number, "the ramp's ending intensity (fraction of 1RM)")
    static let week = V("week", .int, "the week within the ramp, from 1")
    static let weeks = V("weeks", .int, "the ramp's length in weeks")
    static let low = V("low", .number, "the lower end of the intensity range")
    static let high = V("high", .number, "the upper end of the intensity range")
    static let inLibrary = V("in_library", .bool, "the candidate is in the trainer's library")
    static let emphasized = V("emphasized", .bool, "the candidate trains an emphasized muscle")
    static let underRepresented = V("under_represented", .bool, "the candidate's muscle has had few sets so far")
    static let patternRepeated = V("pattern_repeated", .bool, "the candidate repeats a movement pattern already chosen")

    static let weeklyScope = ExpressionScope("weekly_intensity", "once per training week of a phase", [start, end, week, weeks])
    static let deloadScope = ExpressionScope("deload.intensity", "once per deload week, over the deload focus range", [low, high])
    static let effortScope = ExpressionScope("effort_intensity", "once per single workout, over its effort level's range", [low, high])
    static let selectionScope = ExpressionScope(
        "selection_ranking.score", "once per candidate exercise; each factor of selection_ranking is a number variable too",
        [inLibrary, emphasized, underRepresented, patternRepeated])

    /// The score's variables: the declared ones, then each factor the file writes, by name.
    static func selectionVariables(factors: [String]) -> [VariableDeclaration] {
        selectionScope.variables + factors.sorted().map { V($0, .number, "a factor of selection_ranking") }
    }
}
