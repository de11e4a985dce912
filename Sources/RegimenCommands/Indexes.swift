import ArgumentParser
import RegimenKit
import Foundation

/// `regimen indexes PROFILE`: the seed's recalculateIndexes response for a profile.
struct Indexes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compute BMR, TDEE, BMI, WHtR and FFMI for a profile (recalculateIndexes).",
        discussion: """
            PROFILE is a YAML or JSON file (see examples/). Formulas, defaults and the accuracy ladder \
            come from rules/. Exit status: 0 ok, 1 rule error, 2 bad profile (every problem listed).
            """)

    @OptionGroup var arguments: ProfileReportArguments

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(arguments.sources, in: context)
        let profile = try EngineInput.profile(arguments.profile, engine: engine, in: context)
        let report = try EngineInput.run({ () throws(RegimenError) in try engine.indexes(profile) }, in: context)
        // Text for people by default; `--format json` is the seed's recalculateIndexes response.
        ProfileInput.print(report.jsonValue, format: arguments.format ?? .text, text: { IndexText.render(report) }, in: context)
    }
}

/// The index report as a coach reads it.
enum IndexText {
    static func render(_ report: IndexReport) -> String {
        func number(_ value: Double?, places: Int) -> String {
            guard let value else { return "—" }
            return String(format: "%.\(places)f", value)
        }
        var lines: [String] = []
        lines.append("BMR       \(number(report.bmr, places: 0)) kcal/day  (\(report.method))")
        lines.append("TDEE      \(number(report.tdee, places: 0)) kcal/day  (×\(number(report.activityMultiplier, places: 3)), \(report.trainingDays) training days)")
        lines.append("BMI       \(number(report.bmi, places: 1))\(report.context["BMI"].map { "  (\($0))" } ?? "")")
        lines.append("WHtR      \(number(report.whtr, places: 2))\(report.context["WHtR"].map { "  (\($0))" } ?? "")")
        lines.append("FFMI      \(number(report.ffmi, places: 1))\(report.context["FFMI"].map { "  (\($0))" } ?? "")")
        lines.append("Accuracy  \(report.accuracy)\(report.nextBestInput.map { "; next best input: \($0)" } ?? "")")
        lines.append("Age used  \(report.ageUsed) (from \(report.ageSource))")
        if !report.assumed.isEmpty {
            lines.append("Assumed   " + report.assumed.map { "\($0.field) \(number($0.value, places: $0.value == $0.value.rounded() ? 0 : 1))" }.joined(separator: ", "))
        }
        for warning in report.warnings { lines.append("warning: \(warning)") }
        for caution in report.cautions { lines.append("caution: \(caution)") }
        for note in report.notes { lines.append("note: \(note)") }
        for tip in report.tips { lines.append("tip: \(tip)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
