import RegimenLanguage
import RegimenRules

/// The variables the formulas of `rules/student-progress.yaml` read, declared once: the file
/// compiles its formulas against them (types checked), the progress report binds exactly them,
/// and `regimen explain-kind student_progress` and the file's header print them.
enum StudentProgressVariables {
    typealias V = VariableDeclaration

    static let durationWeeks = V("duration_weeks", .int, "the workout's durationWeeks (default_duration_weeks when not given)")
    static let daysPerWeek = V("days_per_week", .int, "the file's days_per_week")
    static let completed = V("completed", .int, "the number of days the student marked done")
    static let total = V("total", .int, "total_days of the workout")
    static let day = V("day", .int, "the day of the programme, 1 = startDate")
    static let weekday = V("weekday", .int, "1 = Monday … 7 = Sunday")

    static let totalDaysScope = ExpressionScope("total_days", "once per progress report", [durationWeeks, daysPerWeek])
    static let percentScope = ExpressionScope("percent_complete", "once per progress report", [completed, total])
    static let restDayScope = ExpressionScope("streak.rest_day", "once per day of the programme, for the streak", [day, weekday])
}
