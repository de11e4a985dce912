import ArgumentParser
import RegimenKit

/// `regimen diff OLD NEW`: what a profile change recomputes, by the auto-adjust matrix.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changes in the plan when a profile changes, with the auto-adjust matrix's reason per line.",
        discussion: """
            Compares two profiles field by field, looks each changed field up in rules/auto-adjust-matrix.yaml \
            and recomputes only the outputs its row lists (indexes, kcal/macros, meals, split and \
            weekly sets, exercise pool, supplements). A change the matrix marks "none" changes \
            nothing. JSON and YAML add the old plan patched with the recomputed areas. \
            Exit status: 0 ok, 1 rule error, 2 bad profile.
            """)

    @Argument(help: ArgumentHelp("The profile before (YAML or JSON).", valueName: "old"))
    var old: String

    @Argument(help: ArgumentHelp("The profile after (YAML or JSON).", valueName: "new"))
    var new: String

    @Option(name: .long, help: "Output format: text, json or yaml.")
    var format: ReportFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        let before = try EngineInput.profile(old, engine: engine, in: context)
        let after = try EngineInput.profile(new, engine: engine, in: context)
        let diff = try EngineInput.run({ () throws(RegimenError) in try engine.diff(old: before, new: after) }, in: context)
        ProfileInput.print(format == .text ? diff.value : diff.reportValue, format: format, text: { DiffText.render(diff) }, in: context)
    }
}

/// The diff as a coach reads it.
enum DiffText {
    static func render(_ diff: ProfileDiff) -> String {
        guard !diff.fieldChanges.isEmpty else { return "The profiles are the same: nothing to recompute.\n" }
        var lines = ["Profile changes:"]
        for change in diff.fieldChanges {
            lines.append("  \(change.field): \(show(change.before)) → \(show(change.after))")
            lines.append("    workout: \(change.workoutImpact) · nutrition: \(change.nutritionImpact) · why: \(change.why)")
        }
        lines.append("")
        if diff.recomputed.isEmpty {
            lines.append("Nothing to recompute: the matrix lists no impact for these fields.")
        } else {
            lines.append("Recomputed: \(diff.recomputed.map(\.label).joined(separator: ", "))")
        }
        if diff.outputChanges.isEmpty {
            if !diff.recomputed.isEmpty { lines.append("No output changed.") }
        } else {
            lines.append("")
            lines.append("Changes:")
            for change in diff.outputChanges {
                lines.append("  \(change.key): \(describe(change))   (\(change.why.joined(separator: "; ")))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `a → b`, or for lists what was added and removed.
    private static func describe(_ change: ProfileDiff.OutputChange) -> String {
        if case .list(let before) = change.before, case .list(let after) = change.after {
            let added = after.filter { !before.contains($0) }.map(show)
            let removed = before.filter { !after.contains($0) }.map(show)
            var parts: [String] = []
            if !added.isEmpty { parts.append("+ \(added.joined(separator: ", "))") }
            if !removed.isEmpty { parts.append("- \(removed.joined(separator: ", "))") }
            return parts.isEmpty ? "reordered" : parts.joined(separator: "; ")
        }
        if case .map = change.after { return "changed" }
        return "\(show(change.before)) → \(show(change.after))"
    }

    private static func show(_ value: Value) -> String {
        switch value {
        case .null: return "—"
        case .string(let s): return s
        case .float(let f): return NumberText.plain(f)
        case .list(let items): return "[" + items.map(show).joined(separator: ", ") + "]"
        case .map(let map) where map.count > 4: return "{…}"
        default: return value.description
        }
    }
}
