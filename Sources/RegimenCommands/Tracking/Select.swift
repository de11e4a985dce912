import ArgumentParser
import Foundation
import RegimenKit

/// `regimen select --muscle chest`: candidate exercises ranked by the selection ranking
/// (docs/requirements.md#exercise-ranking).
struct Select: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rank candidate exercises from catalogs/exercise-catalog.yaml by the selection ranking of rules/periodization.yaml.",
        discussion: """
            The score multiplies the ranking's factors: in the user's --library, a muscle \
            in --emphasis, a muscle with fewer --chosen exercises than the most-trained one \
            (under-represented), and a movement pattern a --chosen exercise already has (repeated). \
            Candidates are the strength exercises training a --muscle (every one without --muscle), \
            minus those already chosen. Lists take comma-separated ids or repeat the option.
            """)

    @Option(help: "Only candidates whose primary muscles include one of these.") var muscle: [String] = []
    @Option(help: "Exercise ids in the user's library.") var library: [String] = []
    @Option(help: "Emphasized muscles.") var emphasis: [String] = []
    @Option(help: "Exercise ids already chosen for the session.") var chosen: [String] = []
    @Option(parsing: .unconditional, help: "Print only the best N.") var top: Int?
    @Option(help: "text, json or yaml.") var format: ReportFormat = .text

    @OptionGroup var sources: RuleSourceOptions

    func run() throws {
        let context = CommandContext.current
        let engine = try EngineInput.engine(sources, in: context)
        func split(_ values: [String]) -> [String] {
            values.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        }
        let ranking = Result { () throws(RegimenError) in
            try engine.rankExercises(muscles: split(muscle), library: split(library), emphasis: split(emphasis), chosen: split(chosen))
        }
        // Every problem of the options at once: the ids and muscles the catalog lacks, then --top.
        var problems: [String] = []
        if case .failure(let error) = ranking, error.code == .option { problems = error.diagnostics.map(EngineInput.optionLine) }
        if let top, top < 1 { problems.append("error: --top must be at least 1, not \(top)") }
        guard problems.isEmpty else {
            for problem in problems { context.standardError.writeLine(problem) }
            throw CommandFailure.usage
        }
        var ranked = try EngineInput.run({ () throws(RegimenError) in try ranking.get() }, in: context)
        if let top { ranked = Array(ranked.prefix(top)) }
        switch format {
        case .json, .yaml:
            let list = ranked.map { entry in
                Value.map([
                    "id": .string(entry.id), "score": .float(entry.score),
                    "inLibrary": .bool(entry.reasons.inLibrary), "emphasized": .bool(entry.reasons.emphasized),
                    "underRepresented": .bool(entry.reasons.underRepresented), "patternRepeated": .bool(entry.reasons.patternRepeated),
                ])
            }
            format.write(Value.list(list).roundedForPeople, in: context)
        case .text:
            for entry in ranked {
                var reasons: [String] = []
                if entry.reasons.inLibrary { reasons.append("in library") }
                if entry.reasons.emphasized { reasons.append("emphasized") }
                if entry.reasons.underRepresented { reasons.append("under-represented") }
                if entry.reasons.patternRepeated { reasons.append("repeats a pattern") }
                let why = reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))"
                context.standardOutput.writeLine("\(TrackingCommandSupport.show(entry.score))\t\(entry.id)\(why)")
            }
        }
    }
}
