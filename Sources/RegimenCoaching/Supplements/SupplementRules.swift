import Foundation
import OrderedCollections
import RegimenLanguage

/// `rules/supplement-rules.yaml`: the advisor's policy and its safety rules, compiled.
struct SupplementRules: Sendable {
    /// A named value about the person, computed once per profile before any caution.
    struct Fact: Sendable {
        package var name: String
        package var expression: CompiledExpression

    }

    /// What a caution does when its condition holds.
    enum Action: Sendable {
        /// The item leaves the shortlist; the message is the reason.
        case exclude
        /// The item stays, with the message.
        case caution
        /// The dose is lowered so that `alreadyTaken + dose <= dailyCap` (both in the item's unit);
        /// when less than the smallest effective dose is left, the item is left out with the message.
        case limit(dailyCap: CompiledExpression, alreadyTaken: CompiledExpression)

        package var name: String {
            switch self {
            case .exclude: "exclude"
            case .caution: "caution"
            case .limit: "limit"
            }
        }
    }

    /// One safety rule: a condition on the person and the item.
    struct Caution: Sendable {
        package var id: String
        package var condition: CompiledExpression
        var action: Action
        package var message: MessageTemplate

    }

    /// Variables every caution and message can read, besides the facts.
    static var builtinVariables: [VariableDeclaration] { SupplementVariables.person + SupplementVariables.item_ }
    /// Of those, the ones that describe the item (facts may not read them: facts are per person).
    static var itemVariables: Set<String> { Set(SupplementVariables.item_.map(\.name)) }

    var shortlistMinTier: Supplement.EvidenceTier
    var alwaysIncludeGoals: [String]
    /// Items of this tier that pass every safety rule are offered as optional, with their tier,
    /// when nothing of a stronger tier serves the goal itself; `nil`: never.
    var optionalTier: Supplement.EvidenceTier?
    var facts: [Fact]
    /// Class id → the medication names (lower-case, `_` for spaces) it covers.
    var medicationClasses: OrderedDictionary<String, [String]>
    var cautions: [Caution]
    /// The environment the cautions were compiled against: the built-in names, then the facts.
    /// Each fact was compiled against a prefix of it, so one slot array serves every expression.
    package var environment: ExpressionEnvironment

    init(
        shortlistMinTier: Supplement.EvidenceTier, alwaysIncludeGoals: [String], optionalTier: Supplement.EvidenceTier? = nil, facts: [Fact],
        medicationClasses: OrderedDictionary<String, [String]>, cautions: [Caution], environment: ExpressionEnvironment
    ) {
        self.optionalTier = optionalTier
        self.shortlistMinTier = shortlistMinTier
        self.alwaysIncludeGoals = alwaysIncludeGoals
        self.facts = facts
        self.medicationClasses = medicationClasses
        self.cautions = cautions
        self.environment = environment
    }

    /// Splits a profile's medications into the classes they belong to and the names no class lists.
    /// Names match case-insensitively, with spaces and hyphens read as `_`; a class id matches itself.
    func classify(medications: [String]) -> (classes: [String], unknown: [String]) {
        var classes: [String] = []
        var unknown: [String] = []
        for medication in medications {
            let key = Self.normalizedMedication(medication)
            var matched = false
            for (classId, names) in medicationClasses where classId == key || names.contains(key) {
                matched = true
                if !classes.contains(classId) { classes.append(classId) }
            }
            if !matched && !key.isEmpty { unknown.append(medication) }
        }
        return (classes.sorted(), unknown)
    }

    static func normalizedMedication(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces).lowercased()
            .split(whereSeparator: { $0 == " " || $0 == "-" }).joined(separator: "_")
    }
}
