import RegimenLanguage
import RegimenRules

/// `kind: student_progress` — decodes `rules/student-progress.yaml` into ``ProgressRules``.
struct StudentProgressFile: RuleFileKind {
    package static let kind = "student_progress"
    package static var expressionScopes: [ExpressionScope] {
        [StudentProgressVariables.totalDaysScope, StudentProgressVariables.percentScope, StudentProgressVariables.restDayScope]
    }
    package let rules: ProgressRules

    package var ruleCount: Int { 4 }

    package static func decode(_ document: inout MappingDecoder) -> StudentProgressFile? {
        let daysPerWeek = document.required("days_per_week", as: Int.self, in: 1...7)
        let totalDays = document.formula("total_days", declaring: StudentProgressVariables.totalDaysScope.variables)
        let defaultWeeks = document.required("default_duration_weeks", as: Int.self, in: 1...520)
        let percent = document.formula("percent_complete", declaring: StudentProgressVariables.percentScope.variables)
        let streak = document.mapping("streak") { map -> (Formula, Bool, Bool)? in
            let rest = map.formula("rest_day", declaring: StudentProgressVariables.restDayScope.variables)
            let extends = map.required("rest_day_extends", as: Bool.self)
            let pending = map.required("today_breaks_when_pending", as: Bool.self)
            guard let rest, let extends, let pending else { return nil }
            return (rest, extends, pending)
        }
        let upload = document.mapping("upload") { map -> UploadRules? in
            let types = map.strings("content_types")
            let extensions = map.strings("extensions")
            let signature = map.required("signature", as: String.self)
            let minBytes = map.required("min_bytes", as: Int.self, in: 0...Int(Int32.max))
            let maxBytes = map.required("max_bytes", as: Int.self, in: 1...Int(Int32.max))
            guard let signature, let minBytes, let maxBytes else { return nil }
            return UploadRules(contentTypes: types, extensions: extensions, signature: signature, minBytes: minBytes, maxBytes: maxBytes)
        }
        guard let daysPerWeek, let totalDays, let defaultWeeks, let percent, let streak, let upload else { return nil }
        return StudentProgressFile(rules: ProgressRules(daysPerWeek: daysPerWeek, totalDays: totalDays, defaultDurationWeeks: defaultWeeks,
                                                        percentComplete: percent, restDay: streak.0, restDayExtends: streak.1,
                                                        todayBreaksWhenPending: streak.2, upload: upload))
    }
}
