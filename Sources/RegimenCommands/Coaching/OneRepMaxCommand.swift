import ArgumentParser
import RegimenKit

/// `regimen one-rep-max --load KG --reps N`: the estimated one-rep max (Epley: load × (1 + reps /
/// 30), one rep is the load itself) by the formula of rules/indexes.yaml
/// (docs/requirements.md#one-rep-max).
struct OneRepMaxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "one-rep-max",
        abstract: "Estimate a one-rep max from a set's load and reps (Epley, rules/indexes.yaml).",
        discussion: """
            Uses `one_rep_max` of rules/indexes.yaml (Epley: load × (1 + reps/30); one rep is the \
            load itself). `regimen adapt` prints the same estimate beside each load it changes. \
            Exit status: 0 ok, 1 rule error, 2 bad option.
            """)

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Load lifted, in kg (above 0, at most 1000).", valueName: "kg"))
    var load: Double

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Reps completed with it (1–30).", valueName: "n"))
    var reps: Int

    @Option(name: .long, help: "Output format: text, json or yaml.")
    var format: ReportFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func validate() throws {
        guard load > 0, load <= 1000, load.isFinite else { throw ValidationError("--load: \(load) is outside 0–1000 kg (above 0)") }
        guard (1...30).contains(reps) else { throw ValidationError("--reps: \(reps) is outside 1–30") }
    }

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        let estimate = try EngineInput.run({ () throws(RegimenError) in try engine.oneRepMax(load: load, reps: reps) }, in: context)
        let rounded = (estimate * 10).rounded() / 10
        let fields: [(String, Value)] = [
            ("load_kg", ValueNumberText.value(load)), ("reps", .int(Int64(reps))), ("one_rep_max_kg", ValueNumberText.value(rounded)),
            ("formula", .string("one_rep_max of rules/indexes.yaml")),
        ]
        let value = Value.map(.init(uniqueKeysWithValues: fields))
        ProfileInput.print(value, format: format, text: {
            "Estimated 1RM \(ValueNumberText.text(rounded)) kg from \(ValueNumberText.text(load)) kg × \(reps)"
                + " (rules/indexes.yaml one_rep_max)\n"
        }, in: context)
    }
}

/// Numbers as the one-rep-max output shows them: whole numbers without a decimal point.
private enum ValueNumberText {
    static func value(_ x: Double) -> Value { .number(x) }
    static func text(_ x: Double) -> String { NumberText.plain(x) }
}
