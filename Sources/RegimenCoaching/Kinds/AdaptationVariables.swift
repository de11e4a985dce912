import RegimenLanguage
import RegimenRules

/// The variables adaptation expressions read, declared once with their types and meaning, by
/// where they are evaluated. The rule files compile against these declarations, `AdaptationRun`
/// binds exactly these names, and `regimen explain-kind` and the header of the readiness rules
/// file print them.
enum AdaptationVariables {
    typealias V = VariableDeclaration

    // Per check-in: `checkin_readiness` and its `let:` bindings.
    static let checkin = V("checkin", .record([
        "date": ExpressionType.string.orNull, "sleep_h": .number, "stress": .int, "motivation": .int, "soreness": .map, "max_soreness": .int,
    ]), "{date, sleep_h, stress, motivation, soreness: {region: 1–5}, max_soreness (1 when none)}")
    // `low_day` and `high_day`.
    static let readiness = V("readiness", .number, "the check-in's score from checkin_readiness")

    // Week-level facts.
    static let checkinDays = V("checkin_days", .int, "check-ins in the week (the 7 days up to the latest dated check-in)")
    static let lowDays = V("low_days", .int, "check-ins of that week for which low_day holds")
    static let highDays = V("high_days", .int, "check-ins of that week for which high_day holds")
    static let latestReadiness = V("latest_readiness", ExpressionType.number.orNull, "readiness of the latest scored check-in")
    static let meanReadiness = V("mean_readiness", ExpressionType.float.orNull, "mean readiness of the week's scored check-ins")
    static let week = V("week", .int, "the week of training (the request's week, 1 when not given)")
    static let blockWeeks = V("block_weeks", .int, "block_weeks of this file: weeks in a training block")
    static let weekInBlock = V("week_in_block", .int, "1 … block_weeks: where week falls in its block (week 7 of a 6-week block is 1)")
    static let deloadedThisBlock = V("deloaded_this_block", .bool, "an earlier adaptation of this plan already deloaded a week of this block")
    static let weightTrend = V("weight_trend_2w", ExpressionType.oneOf(WeightTrend.allCases.map(\.rawValue)).orNull, "'below' | 'on_target' | 'above'")
    static let adherencePct = V("adherence_pct", ExpressionType.float.orNull, "last week's adherence in percent")
    static let kcal = V("kcal", ExpressionType.float.orNull, "the plan's daily calories")
    static let bmr = V("bmr", ExpressionType.float.orNull, "the plan's BMR")

    // Per region of the latest check-in's soreness.
    static let region = V("region", .string, "the region as the check-in names it")
    static let soreness = V("soreness", .int, "its soreness, 1–5")

    // Per exercise of the logged sessions (its latest occurrence and the block that prescribed it).
    static let exercise = V("exercise", .string, "the exercise id")
    static let muscle = V("muscle", .string, "the muscle its block trains")
    static let repsMin = V("reps_min", ExpressionType.int.orNull, "bottom of the block's rep range")
    static let repsMax = V("reps_max", ExpressionType.int.orNull, "top of the block's rep range")
    static let rirMin = V("rir_min", ExpressionType.int.orNull, "bottom of the block's reps-in-reserve range")
    static let rirMax = V("rir_max", ExpressionType.int.orNull, "top of the block's reps-in-reserve range")
    static let setsLogged = V("sets_logged", .int, "sets logged")
    static let minReps = V("min_reps", .int, "fewest reps of any logged set")
    static let minRir = V("min_rir", ExpressionType.number.orNull, "lowest logged RIR")
    static let allSetsAtTop = V("all_sets_at_top", .bool, "every set reached the top of the rep range")
    static let missedReps = V("missed_reps", .bool, "some set fell below the bottom of the rep range")
    static let loadKg = V("load_kg", ExpressionType.number.orNull, "lightest logged load in kg")
    static let feel = V("feel", ExpressionType.oneOf(SessionFeel.allCases.map(\.rawValue)).orNull, "'easy' | 'ok' | 'hard'")
    static let loaded = V("loaded", .bool, "the lift carries an external load (its equipment has a load step)")
    static let harderVariant = V("harder_variant", ExpressionType.string.orNull, "the catalog's next progression of the exercise")
    static let weeklySets = V("weekly_sets", .number, "the muscle's counted weekly sets")
    static let bandMin = V("band_min", ExpressionType.number.orNull, "bottom of the muscle's weekly band")
    static let bandMax = V("band_max", ExpressionType.number.orNull, "top of the muscle's weekly band")
    static let lagging = V("lagging", .bool, "the lagging expression holds for the muscle")

    // The `lagging` expression.
    static let laggingBandMin = V("band_min", .number, "bottom of the muscle's weekly band")
    static let laggingBandMax = V("band_max", .number, "top of the muscle's weekly band")
    static let declaredLagging = V("declared_lagging", .bool, "the request's lagging_muscles names the muscle")

    static let checkinScope = ExpressionScope("checkin_readiness", "once per check-in; its let: names are visible to the later ones and to score", [checkin])
    static let dayScope = ExpressionScope("low_day, high_day", "once per scored check-in", [readiness, checkin])
    static let weekScope = ExpressionScope(
        "rules", "once per adaptation; every rule sees these",
        [checkinDays, lowDays, highDays, latestReadiness, meanReadiness, week, blockWeeks, weekInBlock, deloadedThisBlock, weightTrend,
         adherencePct, kcal, bmr])
    static let soreRegionScope = ExpressionScope("for_each: sore_region", "once per region of the latest check-in, with the week's", [region, soreness])
    static let loggedExerciseScope = ExpressionScope(
        "for_each: logged_exercise", "once per exercise of the logged sessions, with the week's; every progression rule",
        [exercise, muscle, repsMin, repsMax, rirMin, rirMax, setsLogged, minReps, minRir, allSetsAtTop, missedReps, loadKg, feel, loaded,
         harderVariant, weeklySets, bandMin, bandMax, lagging])
    static let laggingScope = ExpressionScope(
        "lagging", "once per logged lift whose muscle has a band", [muscle, weeklySets, laggingBandMin, laggingBandMax, declaredLagging])

}
