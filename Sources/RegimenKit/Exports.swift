// The public surface an app needs beside `RegimenEngine`: values, diagnostics, the seed's result
// types and the security request and decision types. Only these names are re-exported, so
// `import RegimenKit` does not bring the rule decoders, the compiler or the commands into scope.

// Values and diagnostics.
@_exported import enum RegimenLanguage.Value
@_exported import struct RegimenLanguage.Diagnostic
@_exported import enum RegimenLanguage.Severity
@_exported import protocol RegimenLanguage.DiagnosticError
@_exported import enum RegimenLanguage.ErrorKind
@_exported import struct RegimenLanguage.SourceLocation
@_exported import struct RegimenLanguage.Timestamp
// The payloads of Value's cases (a map is an OrderedDictionary, which the security request
// types' fields, tokens and metadata also are: an app names it with `import RegimenKit` alone).
@_exported import struct OrderedCollections.OrderedDictionary
@_exported import struct RegimenLanguage.ValueSet
@_exported import struct RegimenLanguage.PathValue
@_exported import struct RegimenLanguage.DurationValue
@_exported import struct RegimenLanguage.LatLng
@_exported import struct RegimenLanguage.MapDiff
@_exported import struct RegimenLanguage.QueryConstraint
// How a number is written for people (`90`, not `90.0`; `2.8`, not `2.8000000000000003`), so an
// app's report shows the numbers the engine's own messages and the `regimen` reports show.
@_exported import enum RegimenLanguage.NumberText
@_exported import func RegimenLanguage.humanNumber

// The planner's inputs and results.
@_exported import struct RegimenCoaching.Profile
@_exported import struct RegimenCoaching.ProfileProblem
@_exported import struct RegimenCoaching.GeneratedPlan
@_exported import struct RegimenCoaching.IndexReport
@_exported import struct RegimenCoaching.NutritionPlan
@_exported import struct RegimenCoaching.AdaptationInput
@_exported import struct RegimenCoaching.AdaptationResult
@_exported import struct RegimenCoaching.ChangeLogEntry
@_exported import struct RegimenCoaching.ProfileDiff
@_exported import struct RegimenCoaching.SupplementAdvice
// The parts of a plan its results hold.
@_exported import struct RegimenCoaching.TrainingWeek
@_exported import struct RegimenCoaching.Workout
@_exported import struct RegimenCoaching.WorkoutBlock
@_exported import struct RegimenCoaching.CompactVariant
@_exported import struct RegimenCoaching.MuscleVolume
@_exported import struct RegimenCoaching.DailyMacros
@_exported import struct RegimenCoaching.PlannedMeal
@_exported import struct RegimenCoaching.MealTotals

// The workout tracker and periodization.
@_exported import struct RegimenTracking.TrackerTree
@_exported import struct RegimenTracking.TrackerDocument
@_exported import struct RegimenTracking.TrackerViolation
@_exported import struct RegimenTracking.TrackerValidationReport
@_exported import struct RegimenTracking.TrackerAnalytics
@_exported import struct RegimenTracking.PeriodizedPlan
@_exported import struct RegimenTracking.StudentProgress
@_exported import struct RegimenTracking.BurnResult
@_exported import struct RegimenTracking.DailySummary
@_exported import enum RegimenTracking.TrackerLevel
@_exported import struct RegimenTracking.DuplicationResult

// Security policies: requests, documents, decisions, test results and audit findings.
@_exported import struct RegimenSecurity.SecurityRequest
@_exported import enum RegimenSecurity.SecurityOperation
@_exported import enum RegimenSecurity.SecurityService
@_exported import struct RegimenSecurity.AuthContext
@_exported import struct RegimenSecurity.WriteData
@_exported import enum RegimenSecurity.WriteValue
@_exported import struct RegimenSecurity.ListQuery
@_exported import struct RegimenSecurity.QueryFilter
@_exported import struct RegimenSecurity.QueryCursor
@_exported import struct RegimenSecurity.StorageUpload
@_exported import struct RegimenSecurity.DocumentStore
@_exported import struct RegimenSecurity.RequestPath
@_exported import struct RegimenSecurity.Decision
@_exported import struct RegimenSecurity.AuditFinding
@_exported import struct RegimenSecurity.SecurityTestFileResult
@_exported import struct RegimenSecurity.SecurityTestResult
@_exported import enum RegimenSecurity.SecurityTestReport
