@testable import RegimenLanguage
@testable import RegimenRules

/// A small rule kind in the shape domain modules use, for loader and decoding tests.
struct ThresholdRules: RuleFileKind {
    static let kind = "threshold_rules"

    enum Level: String, NodeEnum { case low, medium, high }

    struct Rule: Sendable {
        let id: String
        let idLocation: SourceLocation
        let threshold: Double
        let level: Level
        let next: String?
        let nextLocation: SourceLocation?
    }

    let rules: [Rule]
    var ruleCount: Int { rules.count }

    static func decode(_ document: inout MappingDecoder) -> ThresholdRules? {
        let context = document.context
        let rules = document.list("rules") { node, path in
            context.mapping(node, at: path) { map -> Rule? in
                guard let idNode = map.requiredNode("id"), let id = context.decode(idNode, as: String.self, at: path.appending(key: "id")) else {
                    map.allow("threshold", "level", "next", "note")
                    return nil
                }
                map.path = DecodingPath(subject: "rule '\(id)'")
                map.allow("note")
                let threshold = map.required("threshold", as: Double.self, in: 0...100)
                let level = map.optional("level", default: Level.medium)
                let nextNode = map.node("next")
                let next = nextNode.flatMap { context.decode($0, as: String.self, at: map.path.appending(key: "next")) }
                guard let threshold else { return nil }
                return Rule(id: id, idLocation: idNode.location, threshold: threshold, level: level, next: next, nextLocation: nextNode?.location)
            }
        }
        return rules.map { ThresholdRules(rules: $0) }
    }

    static func validate(_ ruleSet: RuleSet, context: DecodingContext) {
        let rules = ruleSet.all(ThresholdRules.self).flatMap(\.rules)
        context.checkUnique(rules.map { ($0.id, $0.idLocation) }, what: "rule")
        let ids = Set(rules.map(\.id))
        for rule in rules {
            if let next = rule.next, let location = rule.nextLocation {
                context.checkReference(next, at: location, path: DecodingPath(subject: "rule '\(rule.id)'", keyPath: "next"), what: "rule", known: ids)
            }
        }
    }
}

/// A catalog kind, to check catalog-entry counting.
struct ColourCatalog: RuleFileKind {
    static let kind = "colours"
    let names: [String]
    var catalogEntryCount: Int { names.count }

    static func decode(_ document: inout MappingDecoder) -> ColourCatalog? {
        document.required("colours", as: [String].self).map { ColourCatalog(names: $0) }
    }
}

/// A kind whose entries hold expressions over a `profile` variable.
struct ConditionRules: RuleFileKind {
    static let kind = "condition_rules"
    struct Entry: Sendable {
        let id: String
        let when: CompiledExpression
    }
    let entries: [Entry]
    var ruleCount: Int { entries.count }

    static func decode(_ document: inout MappingDecoder) -> ConditionRules? {
        let context = document.context
        let environment = context.environment(variables: ["profile"])
        return document.list("rules") { node, path in
            context.mapping(node, at: path) { map -> Entry? in
                let id = map.required("id", as: String.self) ?? "?"
                map.path = DecodingPath(subject: "rule '\(id)'")
                return map.requiredExpression("when", in: environment).map { Entry(id: id, when: $0) }
            }
        }.map { ConditionRules(entries: $0) }
    }
}

/// A kind mixing coach notation and a decision table, like the training rules will.
struct TrainingBlocks: RuleFileKind {
    static let kind = "training_blocks"
    struct Block: Sendable {
        let id: String
        let prescription: Prescription
        let rest: Quantity?
    }
    let blocks: [Block]
    let split: DecisionTable<String>
    var ruleCount: Int { blocks.count + split.rows.count }

    static func decode(_ document: inout MappingDecoder) -> TrainingBlocks? {
        let context = document.context
        let blocks = document.list("blocks") { node, path in
            context.mapping(node, at: path) { map -> Block? in
                let id = map.required("id", as: String.self) ?? "?"
                map.path = DecodingPath(subject: "block '\(id)'")
                let prescription = map.required("prescription", as: Prescription.self)
                let rest = map.node("rest").flatMap { Quantity.decode(from: $0, at: map.path.appending(key: "rest"), in: context, dimension: .time) }
                return prescription.map { Block(id: id, prescription: $0, rest: rest) }
            }
        }
        let split = document.requiredNode("split").flatMap { node in
            DecisionTable<String>.decode(from: node, named: "split", in: context, expectedInputs: ["days"]) { node, path in
                context.decode(node, as: String.self, at: path)
            }
        }
        guard let blocks, let split else { return nil }
        return TrainingBlocks(blocks: blocks, split: split)
    }
}
