import ArgumentParser
import Foundation
import RegimenKit

/// `regimen plan PROFILE`: the seed's `generatePlan` — indexes, kcal and macros, ingredient
/// options and a week of training.
struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate the full plan for a profile: indexes, nutrition and a week of training.",
        discussion: """
            JSON uses the seed's generatePlan fields (idx, kcal, macros, workouts, ingredients, \
            confidence, tips) plus `training`, the week's sets per muscle against its band. Text is a \
            week a person can follow. Exit status: 0 ok, 1 rule error, 2 bad profile or option.
            """)

    @Argument(help: ArgumentHelp("Profile file (YAML or JSON).", valueName: "profile"))
    var profile: String

    /// Text for people by default; `--format json` is the seed's generatePlan response.
    @Option(name: .long, help: "Output format: text (default), json or yaml.")
    var format: ReportFormat = .text

    @Option(name: .long, help: ArgumentHelp("A split the rules offer for the days, e.g. full_body_3.", valueName: "template"))
    var split: String?

    @Flag(name: .long, help: "Name the rules behind each block.")
    var explain = false

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        // A plan `plan` or `adapt` produced (JSON or YAML) prints as the week it is. (Read
        // quietly: anything else is a profile, and the profile reader reports its problems.)
        if profile != "-", let text = try? String(contentsOfFile: profile, encoding: .utf8),
           let plan = RegimenEngine.planDocument(text: text, name: profile) {
            switch format {
            case .json, .yaml: format.write(plan, in: context)
            case .text: context.standardOutput.write(RegimenEngine.planText(plan))
            }
            return
        }
        let engine = try EngineInput.engine(sources, in: context)
        let profile = try EngineInput.profile(self.profile, engine: engine, in: context)
        let plan = try EngineInput.run({ () throws(RegimenError) in try engine.generatePlan(profile, split: split) }, in: context)
        switch format {
        case .json, .yaml: format.write(plan.jsonValue(explain: explain).roundedForPeople, in: context)
        case .text: context.standardOutput.write(PlanText.render(plan, explain: explain, ingredientName: engine.ingredientName))
        }
    }
}

/// The week as text: day, exercise, sets × reps @ RIR, and the busy-day variant.
enum PlanText {
    static func render(_ plan: GeneratedPlan, explain: Bool, ingredientName: (String) -> String?) -> String {
        let week = plan.training
        var lines: [String] = []
        lines.append("\(week.split.name) — \(week.split.trainingDays) training day(s)\(week.split.recoveryDays > 0 ? " + \(week.split.recoveryDays) active recovery" : "")"
            + " · \(week.inputs.experience.rawValue), \(week.inputs.equipment.rawValue), goal \(week.inputs.goal) (\(week.inputs.modifier))")
        if explain { lines.append("  rule: \(week.split.source)") }
        // Every caution and warning of the JSON (the under-18 banner, an override far from the
        // computed value) comes first, where a person reads before training.
        for caution in plan.indexes.cautions + plan.training.cautions { lines.append("caution: \(caution)") }
        for warning in plan.indexes.warnings { lines.append("warning: \(warning)") }
        for assumed in plan.indexes.assumed { lines.append("assumed: \(assumed.field) \(RangeFormat.number(assumed.value))") }
        for assumption in week.assumptions { lines.append("assumed: \(assumption)") }
        for workout in week.workouts {
            lines.append("")
            lines.append("Day \(workout.day) · \(workout.focus) · about \(workout.estimatedMinutes) min")
            for block in workout.blocks {
                let effort = block.rir.map { " @ RIR \($0)" } ?? ""
                let marker = block.altCompact ? "*" : " "
                lines.append(" \(marker) \(block.exerciseName) — \(block.sets) × \(block.reps)\(effort)  [\(block.muscle)]")
                for note in block.notes { lines.append("      \(note)") }
                if explain { for source in block.sources { lines.append("      rule: \(source)") } }
            }
            if let compact = workout.compact {
                lines.append("  Busy day (about \(compact.estimatedMinutes) min):")
                for group in compact.groups {
                    let moves = group.blocks.map { "\($0.exerciseName) \($0.reps)" }.joined(separator: " + ")
                    lines.append("    \(group.label). \(group.rounds) rounds: \(moves)")
                }
            }
        }
        lines.append("")
        let credit = week.setCredit
        lines.append("Weekly sets per muscle (band → planned = direct + indirect × \(RangeFormat.number(credit.indirect))):")
        for muscle in week.volume {
            let parts = credit.direct == 1
                ? "\(muscle.directSets) direct + \(muscle.indirectSets) indirect"
                : "\(muscle.directSets) direct × \(RangeFormat.number(credit.direct)) + \(muscle.indirectSets) indirect"
            var line = "  \(muscle.muscle): \(muscle.band.lowerBound)–\(muscle.band.upperBound) → \(RangeFormat.number(muscle.planned)) (\(parts))"
            if muscle.isShort { line += "  short: \(muscle.shortfallReasons.joined(separator: "; "))" }
            lines.append(line)
            if explain {
                // Why the muscle got its sets: the band, the goal's modifier, any injury cut and the
                // set credit (its rules), then each exercise's share.
                for source in muscle.sources { lines.append("      rule: \(source)") }
                if !muscle.contributions.isEmpty { lines.append("      from: \(muscle.contributions.joined(separator: ", "))") }
            }
        }
        let macros = plan.nutrition.macros
        lines.append("")
        lines.append("Nutrition: \(RangeFormat.number(plan.nutrition.kcal.rounded())) kcal/day · protein \(RangeFormat.number(macros.proteinG.rounded())) g · fat \(RangeFormat.number(macros.fatG.rounded())) g · carbs \(RangeFormat.number(macros.carbG.rounded())) g · \(plan.nutrition.meals.count) meals; \(MealOptionsText.guarantee(plan.nutrition))")
        for adjustment in plan.nutrition.adjustments { lines.append("adjusted: \(adjustment)") }
        for caution in plan.nutrition.cautions { lines.append("caution: \(caution)") }
        lines.append(contentsOf: MealOptionsText.lines(plan.nutrition, ingredientName: ingredientName))
        lines.append("")
        for note in plan.indexes.notes + week.notes { lines.append("note: \(note)") }
        // The JSON's `tips`: indexes, nutrition and training, each once.
        var shownTips: [String] = []
        for tip in plan.indexes.tips + plan.nutrition.tips + week.tips where !shownTips.contains(tip) { shownTips.append(tip) }
        for tip in shownTips { lines.append("tip: \(tip)") }
        lines.append("(* kept in the busy-day variant)")
        lines.append("")
        return lines.joined(separator: "\n") + "\n"
    }
}

private enum RangeFormat {
    static func number(_ value: Double) -> String {
        NumberText.whole(value).map { String($0) } ?? String(format: "%.1f", value)
    }
}

