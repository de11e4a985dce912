import ArgumentParser
import RegimenKit
import Foundation

/// `regimen supplements PROFILE [--goal G]`: the safety-first supplements shortlist.
struct SupplementsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "supplements",
        abstract: "Shortlist supplements for a profile's goal, with doses scaled to the person and the cautions that apply.",
        discussion: """
            Doses come from position stands (catalogs/supplement-catalog.yaml names each source); safety \
            rules (rules/supplement-rules.yaml) screen for age, pregnancy, blood pressure, \
            medication, diet and total caffeine, and fail closed. Items left out are listed with the \
            reason. Exit status: 0 ok, 1 rule error, 2 bad profile or goal.
            """)

    @Argument(help: ArgumentHelp("Profile file (YAML or JSON).", valueName: "profile"))
    var profile: String

    @Option(name: .long, help: "Goal (default: the profile's): a goal of rules/goals.yaml or general_health, stress_recovery.")
    var goal: String?

    @Option(name: .long, help: "Output format: text, json or yaml.")
    var format: ReportFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        let person = try EngineInput.profile(profile, engine: engine, in: context)
        let advice = try EngineInput.run({ () throws(RegimenError) in try engine.supplements(for: person, goal: goal) }, in: context)
        ProfileInput.print(advice.value, format: format, text: { SupplementsText.render(advice) }, in: context)
    }
}

/// The advice as a person reads it.
enum SupplementsText {
    static func render(_ advice: SupplementAdvice) -> String {
        var lines: [String] = []
        let weight = advice.weightKg.map { " · \(format($0)) kg" } ?? " · weight not given"
        lines.append("Supplements for \(advice.goal.map { $0.replacingOccurrences(of: "_", with: " ") } ?? "any goal")\(weight)")
        let general = advice.generalNotes.filter { note in advice.shortlist.allSatisfy { $0.personalCautions.contains(note) } }
        if !general.isEmpty {
            lines.append("")
            for note in general { lines.append("! \(note.message)") }
        }
        func show(_ item: SupplementAdvice.Recommendation) {
            lines.append("")
            lines.append("\(item.name) [tier \(item.evidenceTier.rawValue), \(item.category.rawValue)]")
            lines.append("  dose: \(item.dose.amount) — \(item.dose.timing)")
            lines.append("  source: \(item.dose.source)")
            if let choice = item.dose.choice { lines.append("  why this dose: \(choice)") }
            for note in item.personalCautions where !general.contains(note) { lines.append("  ! \(note.message)") }
            if !item.pros.isEmpty { lines.append("  pros: \(item.pros.joined(separator: "; "))") }
            if !item.cons.isEmpty { lines.append("  cons: \(item.cons.joined(separator: "; "))") }
            if !item.sideEffects.isEmpty { lines.append("  side effects: \(item.sideEffects.joined(separator: "; "))") }
            if !item.cautions.isEmpty { lines.append("  cautions: \(item.cautions.joined(separator: "; "))") }
            if !item.purchaseChecks.isEmpty { lines.append("  buying: \(item.purchaseChecks.joined(separator: "; "))") }
        }
        advice.shortlist.forEach(show)
        if !advice.optional.isEmpty {
            lines.append("")
            let goal = advice.goal.map { $0.replacingOccurrences(of: "_", with: " ") } ?? "this goal"
            lines.append("Optional (weak or mixed evidence; nothing stronger serves \(goal)):")
            advice.optional.forEach(show)
        }
        if !advice.leftOut.isEmpty {
            lines.append("")
            lines.append("Left out:")
            for item in advice.leftOut {
                lines.append("  \(item.name): \(item.reasons.map(\.message).joined(separator: " "))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func format(_ x: Double) -> String {
        NumberText.plain(x)
    }
}
