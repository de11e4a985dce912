import ArgumentParser
import RegimenCoaching
import RegimenKit
import RegimenRules
import RegimenTracking

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
        let rules = try TrackingCommandSupport.rules(sources, in: context)
        let exercises = try Self.exercises(sources, in: context)
        let byId = Dictionary(exercises.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let known = Set(exercises.flatMap(\.muscles))
        func split(_ values: [String]) -> [String] {
            values.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        }
        var problems: [String] = []
        let muscles = split(muscle), libraryIds = split(library), emphasized = split(emphasis), chosenIds = split(chosen)
        for (option, ids) in [("--library", libraryIds), ("--chosen", chosenIds)] {
            for id in ids where byId[id] == nil { problems.append("\(option): unknown exercise '\(id)'") }
        }
        for (option, names) in [("--muscle", muscles), ("--emphasis", emphasized)] {
            for name in names where !known.contains(name) {
                problems.append("\(option): unknown muscle '\(name)'; expected one of \(known.sorted().joined(separator: ", "))")
            }
        }
        if let top, top < 1 { problems.append("--top must be at least 1, not \(top)") }
        guard problems.isEmpty else {
            for problem in problems { context.standardError.writeLine("error: \(problem)") }
            throw CommandFailure.usage
        }
        func candidate(_ exercise: Exercise) -> RankingCandidate {
            RankingCandidate(id: exercise.id, muscles: exercise.muscles, pattern: exercise.pattern)
        }
        let chosenSet = Set(chosenIds)
        let pool = exercises.filter {
            $0.kind == .strength && !chosenSet.contains($0.id) && (muscles.isEmpty || $0.muscles.contains(where: muscles.contains))
        }
        var ranked: [RankedCandidate]
        do {
            ranked = try rules.periodization.selection.rank(pool.map(candidate), library: Set(libraryIds), emphasis: Set(emphasized),
                                                             chosen: chosenIds.compactMap { byId[$0] }.map(candidate))
        } catch {
            context.standardError.writeLine("error: the selection score failed: \(error)")
            throw CommandFailure.failed
        }
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

    /// The exercise catalog alone, read with the planner's decoder.
    static func exercises(_ sources: RuleSourceOptions, in context: CommandContext) throws(CommandFailure) -> [Exercise] {
        let located = try sources.locate(in: context)
        guard let catalogs = located.catalogs else {
            context.standardError.writeLine("error: no catalogs directory to read exercise-catalog.yaml from")
            throw .usage
        }
        let url = catalogs.appendingPathComponent("exercise-catalog.yaml")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            context.standardError.writeLine("error: cannot read \(located.displayPath(for: url))")
            throw .failed
        }
        let result = RuleSetLoader(kinds: [ExerciseCatalogFile.self]).load(files: [(located.displayPath(for: url), text)])
        if result.hasErrors {
            DiagnosticPrinter.print(result.diagnostics, to: context.standardError)
            throw .failed
        }
        return result.ruleSet.all(ExerciseCatalogFile.self).flatMap(\.exercises)
    }
}
