import OrderedCollections
import RegimenLanguage
import RegimenRules

extension Supplement.Category: NodeEnum {}
extension Supplement.EvidenceTier: NodeEnum {}
extension Supplement.SodiumLoad: NodeEnum {}
extension Supplement.Pregnancy: NodeEnum {}
extension SupplementDose.Basis: NodeEnum {}
extension SupplementDose.Unit: NodeEnum {}
extension SupplementDose.Period: NodeEnum {}
extension SupplementDose.Point: NodeEnum {}

/// `kind: supplement_catalog` — `catalogs/supplement-catalog.yaml`.
struct SupplementCatalogFile: RuleFileKind {
    package static let kind = "supplement_catalog"
    package let catalog: SupplementCatalog
    /// Where each item's id is written.
    let locations: [String: SourceLocation]
    /// Each word an item names from another vocabulary (a food tag, a medication class), where it
    /// is written, for the checks against the files that define them.
    var references: [Reference] = []

    /// Every item id written, an item with errors included (so that what names it is not reported
    /// a second time).
    var writtenIds: [String] = []

    /// A word item `item` names under `key`, at `location`.
    struct Reference: Sendable {
        var item: String
        var key: String
        var word: String
        var location: SourceLocation
    }

    package var catalogEntryCount: Int { catalog.supplements.count }

    /// `supplement`: the catalog's item ids, which expressions compare `item.id` with (and a
    /// fact's list such as `minor_allowed`); `supplement goal`: the goals items may serve.
    package static func vocabularies(_ ruleSet: RuleSet) -> [String: Set<String>] {
        let files = ruleSet.all(SupplementCatalogFile.self)
        let ids = files.flatMap(\.writtenIds)
        guard !ids.isEmpty else { return [:] }
        return [SchemaVocabulary.supplement: Set(ids), SchemaVocabulary.supplementGoal: Set(files.flatMap(\.catalog.goals))]
    }

    package static func decode(_ document: inout MappingDecoder) -> SupplementCatalogFile? {
        let context = document.context
        let goals = document.required("goals", as: [String].self) ?? []
        // The schema lists the loaded goals here too: a misspelt goal in this list leaves the
        // items that name the right one unknown, which the loader reports in this file.
        document.vocabulary("goals", SchemaVocabulary.supplementGoal)
        var locations: [String: SourceLocation] = [:]
        var ids: [(id: String, location: SourceLocation)] = []
        var references: [Reference] = []
        let supplements = document.list("supplements") { node, path in
            decodeSupplement(node, at: path, goals: goals, in: context).map { supplement, location, named in
                locations[supplement.id] = location
                ids.append((supplement.id, location))
                references += named
                return supplement
            }
        }
        context.checkUnique(ids, what: "supplement")
        // Ids of items with errors count as written: what names them is not reported again.
        let writtenIds = (document.node["supplements"]?.sequence ?? []).compactMap { $0["id"]?.scalar?.text }
        let known = Set(writtenIds)
        for reference in references where reference.key == "redundant_with" {
            context.checkReference(reference.word, at: reference.location,
                                   path: DecodingPath(subject: "supplement '\(reference.item)'", keyPath: "redundant_with"),
                                   what: "supplement", known: known, diagnostic: SchemaVocabulary.unknownWord)
        }
        guard let supplements else { return nil }
        return SupplementCatalogFile(catalog: SupplementCatalog(goals: goals, supplements: supplements), locations: locations,
                                     references: references.filter { $0.key != "redundant_with" }, writtenIds: writtenIds)
    }

    /// Medication classes named in `interactions` must exist in the caution rules, and the tags
    /// of `contains` and `usual_source_contains` in the dietary exclusions (a misspelt tag would
    /// show a vegan the whey): each an error at the word, with a suggestion.
    package static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        let classes = ruleSet.first(SupplementRulesFile.self).map { Set($0.rules.medicationClasses.keys) }
        let diets = ruleSet.all(DietaryExclusionsFile.self)
        let tags = diets.isEmpty ? nil : Set(diets.flatMap(\.tags))
        for file in ruleSet.all(SupplementCatalogFile.self) {
            for reference in file.references {
                let path = DecodingPath(subject: "supplement '\(reference.item)'", keyPath: reference.key)
                if reference.key == "interactions", let classes {
                    context.checkReference(reference.word, at: reference.location, path: path, what: "medication class", known: classes)
                } else if reference.key != "interactions", let tags {
                    context.checkReference(reference.word, at: reference.location, path: path, what: "tag (dietary_exclusions.tags)", known: tags,
                                           diagnostic: SchemaVocabulary.unknownWord)
                }
            }
        }
    }

    private static func decodeSupplement(_ node: LocatedNode, at path: DecodingPath, goals: [String], in context: DecodingContext) -> (Supplement, SourceLocation, [Reference])? {
        context.mapping(node, at: path) { map -> (Supplement, SourceLocation, [Reference])? in
            guard let idNode = map.requiredNode("id"), let id = context.decode(idNode, as: String.self, at: path.appending(key: "id")) else {
                for key in map.keys { map.allow(key) }
                return nil
            }
            map.path = DecodingPath(subject: "supplement '\(id)'")
            let name = map.required("name", as: String.self)
            let category = map.required("category", as: Supplement.Category.self)
            let itemGoals = map.required("goals", as: [String].self)
            for (index, goal) in (itemGoals ?? []).enumerated() where !goals.contains(goal) {
                let location = map.node("goals")?.sequence?[index].location ?? idNode.location
                context.checkReference(goal, at: location, path: map.path.appending(key: "goals"), what: "goal (this file's 'goals')", known: Set(goals),
                                       diagnostic: SchemaVocabulary.unknownWord)
            }
            map.vocabulary("goals", SchemaVocabulary.supplementGoal)
            let tier = map.required("evidence_tier", as: Supplement.EvidenceTier.self)
            let dose = map.mapping("dose") { doseMap in decodeDose(&doseMap, in: context) }
            let stimulant = map.required("stimulant", as: Bool.self)
            let sodium = map.required("sodium_load", as: Supplement.SodiumLoad.self)
            let gi = map.required("gi_risk", as: Bool.self)
            let pregnancy = map.required("pregnancy", as: Supplement.Pregnancy.self)
            let contains = map.required("contains", as: [String].self)
            let usualSource = map.optional("usual_source_contains", default: [String]())
            let alternative = map.optional("alternative_source", as: String.self)
            if !usualSource.isEmpty && alternative == nil {
                context.error("rules.missing-key", map.path.prefixed("'usual_source_contains' needs 'alternative_source' (what an excluded user should choose)"), at: idNode.location)
            }
            let interactions = map.required("interactions", as: OrderedDictionary<String, String>.self)
            let redundant = map.optional("redundant_with", default: [String]())
            map.vocabulary("contains", SchemaVocabulary.foodTag)
            map.vocabulary("usual_source_contains", SchemaVocabulary.foodTag)
            map.vocabulary("redundant_with", SchemaVocabulary.supplement)
            // Each word named from another vocabulary, where it is written.
            var references: [Reference] = []
            if !context.isDescribing {
                for (key, words) in [("contains", contains ?? []), ("usual_source_contains", usualSource), ("redundant_with", redundant)] {
                    let items = map.node(key)?.sequence ?? []
                    for (index, word) in words.enumerated() {
                        references.append(Reference(item: id, key: key, word: word, location: items.indices.contains(index) ? items[index].location : idNode.location))
                    }
                }
                for pair in map.node("interactions")?.mapping ?? [] {
                    guard let word = pair.key.scalar?.text else { continue }
                    references.append(Reference(item: id, key: "interactions", word: word, location: pair.key.location))
                }
            }
            let pros = map.required("pros", as: [String].self)
            let cons = map.required("cons", as: [String].self)
            let sideEffects = map.required("side_effects", as: [String].self)
            let cautions = map.required("cautions", as: [String].self)
            let purchase = map.required("purchase_checks", as: [String].self)
            guard let name, let category, let itemGoals, let tier, let dose, let stimulant, let sodium, let gi, let pregnancy,
                  let contains, let interactions, let pros, let cons, let sideEffects, let cautions, let purchase else { return nil }
            let supplement = Supplement(
                id: id, name: name, category: category, goals: itemGoals, evidenceTier: tier, dose: dose, stimulant: stimulant,
                sodiumLoad: sodium, giRisk: gi, pregnancy: pregnancy, contains: contains, usualSourceContains: usualSource,
                alternativeSource: alternative, interactions: interactions, redundantWith: redundant, pros: pros, cons: cons,
                sideEffects: sideEffects, cautions: cautions, purchaseChecks: purchase)
            return (supplement, idNode.location, references)
        }
    }

    private static func decodeDose(_ map: inout MappingDecoder, in context: DecodingContext) -> SupplementDose? {
        let node = map.node
        let basis = map.required("basis", as: SupplementDose.Basis.self)
        let range = map.required("range", as: NumberRange.self)
        if let range, range.lower <= 0 {
            context.error("rules.out-of-range", map.path.message("range must be above 0, got \(range)"), at: map.node("range")?.location ?? node.location)
        }
        let unit = map.required("unit", as: SupplementDose.Unit.self)
        let period = map.required("per", as: SupplementDose.Period.self)
        let point = map.required("point", as: SupplementDose.Point.self)
        let roundTo = map.required("round_to", as: Double.self, in: 0.001...10_000)
        let maxSingle = map.optional("max_single", as: Double.self, in: 0.001...100_000)
        let doses = map.optional("doses", as: Int.self, in: 1...12)
        if maxSingle != nil, doses != nil {
            context.error("rules.conflict", map.path.prefixed("give 'doses' (a fixed number of intakes) or 'max_single' (split by size), not both"), at: node.location)
        }
        let timing = map.required("timing", as: String.self)
        let source = map.required("source", as: String.self)
        let seed = map.required("seed", as: String.self)
        let stand = map.optional("stand", as: String.self)
        let choice = map.optional("choice", as: String.self)
        let limit = map.mapping("upper_limit", required: false) { limitMap -> SupplementDose.UpperLimit? in
            let amount = limitMap.required("amount", as: Double.self, in: 0.000_001...1_000_000)
            let limitBasis = limitMap.required("basis", as: SupplementDose.Basis.self)
            let limitPeriod = limitMap.required("per", as: SupplementDose.Period.self)
            let limitSource = limitMap.required("source", as: String.self)
            guard let amount, let limitBasis, let limitPeriod, let limitSource else { return nil }
            return SupplementDose.UpperLimit(amount: amount, basis: limitBasis, period: limitPeriod, source: limitSource)
        }
        guard let basis, let range, range.lower > 0, let unit, let period, let point, let roundTo, let timing, let source, let seed else { return nil }
        if let stand, choice == nil {
            context.error("rules.missing-key", map.path.prefixed("the stand's figure ('\(stand)') is recorded, so 'choice' must say why the range was chosen"), at: node.location)
        }
        if let limit, limit.basis == basis, limit.period == period || limit.period == .day, range.upper > limit.amount + 1e-9 {
            // Safety first: a dose range may never reach above an upper limit in the same terms.
            context.error("rules.out-of-range", map.path.prefixed("dose range \(range) \(unit.rawValue) goes above the upper limit of \(ValueText.number(limit.amount)) (\(limit.source))"),
                          at: map.node("range")?.location ?? node.location)
            return nil
        }
        return SupplementDose(
            basis: basis, range: range.lower...range.upper, unit: unit, period: period, point: point, roundTo: roundTo,
            maxSingle: maxSingle, doses: doses, upperLimit: limit, timing: timing, source: source, seed: seed, stand: stand, choice: choice)
    }
}
