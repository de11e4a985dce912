import RegimenLanguage
import RegimenRules
import Foundation

/// A number a plan test expects: exact (`3`), a closed range (`12-16`, `2100-2300`) or one-sided
/// (`>= 8`, `<= 2400`).
package struct ExpectedNumber: Sendable, Hashable, CustomStringConvertible {
    package var lower: Double?
    package var upper: Double?

    package func contains(_ value: Double) -> Bool {
        // A hair of tolerance: planned sets are sums of halves, kcal and grams come rounded.
        if let lower, value < lower - 1e-9 { return false }
        if let upper, value > upper + 1e-9 { return false }
        return true
    }

    package var description: String {
        switch (lower, upper) {
        case let (lower?, upper?) where lower == upper: return NumberText.tenths(lower)
        case let (lower?, upper?): return "\(NumberText.tenths(lower))-\(NumberText.tenths(upper))"
        case let (lower?, nil): return ">= \(NumberText.tenths(lower))"
        case let (nil, upper?): return "<= \(NumberText.tenths(upper))"
        case (nil, nil): return "any number"
        }
    }

    /// The text forms read below, for the schema: `a-b`, `>= a`, `<= b` (decimal numbers; the
    /// low end of a range is not negative, as the first `-` divides it).
    static let textPattern: String = {
        let number = #"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"#
        return #"^\s*(?:(?:>=|<=)\s*[+-]?"# + number + #"|\+?"# + number + #"\s*-\s*[+-]?"# + number + #")\s*$"#
    }()

    /// Reads a number, `a-b`, `>= a` or `<= b`; reports anything else at the value.
    static func decode(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> ExpectedNumber? {
        if context.describe(.anyOf([.number(minimum: nil, maximum: nil), .pattern(textPattern)]), for: node) { return nil }
        let bad = { () -> ExpectedNumber? in
            context.wrongType(node, expected: "a number, a range such as 12-16, or '>= 8' / '<= 20'", at: path)
            return nil
        }
        guard let scalar = node.scalar else { return bad() }
        switch scalar.value() {
        case .int(let number): return ExpectedNumber(lower: Double(number), upper: Double(number))
        case .float(let number) where number.isFinite: return ExpectedNumber(lower: number, upper: number)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            for (prefix, isLower) in [(">=", true), ("<=", false)] where trimmed.hasPrefix(prefix) {
                guard let bound = Double(trimmed.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)), bound.isFinite else { return bad() }
                return isLower ? ExpectedNumber(lower: bound, upper: nil) : ExpectedNumber(lower: nil, upper: bound)
            }
            // Empty parts are kept, so `-8-12` is refused rather than read as 8-12.
            let parts = trimmed.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let lower = Double(parts[0]), let upper = Double(parts[1]), lower.isFinite, upper.isFinite else { return bad() }
            guard lower <= upper else {
                context.error("tests.range", path.message("'\(text)' is an empty range: its low end is above its high end"), at: node.location)
                return nil
            }
            return ExpectedNumber(lower: lower, upper: upper)
        default: return bad()
        }
    }
}

/// Members a plan test expects in a set of the result (exercise ids, change-log lines, rule ids,
/// supplement ids): written as a list (every one must be present) or as `{include: […],
/// exclude: […]}`.
package struct ExpectedMembers: Sendable, Hashable {
    var include: [String]
    var exclude: [String]

    static func decode(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> ExpectedMembers? {
        if context.isDescribing {
            // Both forms: a list of words, or the mapping below.
            let mapping = context.shape { _ = decodeMapping($0, at: path, in: context) }
            _ = context.describe(.anyOf([.list(.text), mapping]), for: node)
            return nil
        }
        if node.sequence != nil {
            return [String].decode(from: node, at: path, in: context).map { ExpectedMembers(include: $0, exclude: []) }
        }
        return decodeMapping(node, at: path, in: context)
    }

    /// The `{include: […], exclude: […]}` form.
    private static func decodeMapping(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> ExpectedMembers? {
        context.mapping(node, at: path) { map -> ExpectedMembers? in
            let include = map.optional("include", as: [String].self) ?? []
            let exclude = map.optional("exclude", as: [String].self) ?? []
            if !context.isDescribing, !map.contains("include"), !map.contains("exclude") {
                context.error("tests.members", path.message("needs 'include:' or 'exclude:' (or a plain list of what must be included)"), at: node.location)
                return nil
            }
            for both in Set(include).intersection(exclude).sorted() {
                context.error("tests.members", path.message("'\(both)' is both included and excluded"), at: node.location)
            }
            return ExpectedMembers(include: include, exclude: exclude)
        }
    }
}

/// One declarative expectation of a plan-test case, with the key as written (for messages).
package struct PlanExpectation: Sendable, Hashable {
    /// What the expectation reads from the result.
    package enum Measure: Sendable, Hashable {
        case split, trainingDays, recoveryDays
        case weeklySets(muscle: String), weeklyBand(muscle: String)
        case kcal, macro(String), mealsPerDay, mealOptions(category: String)
        case exercises, ingredients
        case changeLog, rulesFired
        case supplements, leftOut, cautions
        case recomputed
    }

    package enum Check: Sendable, Hashable {
        case text(String)
        case number(ExpectedNumber)
        case members(ExpectedMembers)
    }

    /// The key as the file writes it (`weekly_sets.chest`).
    package var key: String
    package var measure: Measure
    package var check: Check
    package var location: SourceLocation

    /// The categories of a meal's options, as `meal_options` names them, and the plan's key.
    static let mealCategories: [(name: String, key: String)] = [("protein", "protein_opts"), ("carb", "carb_opts"), ("veg", "veg_opts"), ("fat", "fat_opts")]
    static let macros = ["protein_g", "carb_g", "fat_g"]

    /// Reads a case's `expect:` mapping.
    static func decodeAll(_ node: LocatedNode, at path: DecodingPath, in context: DecodingContext, muscles: Set<String>?) -> [PlanExpectation]? {
        context.mapping(node, at: path) { map -> [PlanExpectation]? in
            var out: [PlanExpectation] = []
            func add(_ key: String, _ measure: Measure, _ check: Check?, _ node: LocatedNode) {
                if let check { out.append(PlanExpectation(key: key, measure: measure, check: check, location: node.location)) }
            }
            func number(_ key: String, _ measure: Measure) {
                guard let node = map.node(key) else { return }
                add(key, measure, ExpectedNumber.decode(node, at: map.path.appending(key: key), in: context).map(Check.number), node)
            }
            func members(_ key: String, _ measure: Measure) {
                guard let node = map.node(key) else { return }
                add(key, measure, ExpectedMembers.decode(node, at: map.path.appending(key: key), in: context).map(Check.members), node)
            }
            /// A mapping of names to numbers (`weekly_sets: {chest: 12-16}`). The names are
            /// either `fixed` (the plan's own keys: each read by name, any other an unknown key,
            /// as the schema says) or checked against `known` names from other files (the
            /// loader's alone).
            func named(_ key: String, fixed: [String]? = nil, known: [String]? = nil, _ measure: (String) -> Measure, text: Bool = false) {
                guard let node = map.node(key) else { return }
                _ = context.mapping(node, at: map.path.appending(key: key)) { inner -> Bool? in
                    for name in fixed ?? inner.keys {
                        guard let value = inner.node(name) else { continue }
                        let itemPath = inner.path.appending(key: name)
                        if let known, !known.contains(name) {
                            context.error("tests.unknown-name", itemPath.message("'\(name)' is not one of \(known.joined(separator: ", "))"), at: inner.location(ofKey: name))
                            continue
                        }
                        let check: Check?
                        if text {
                            check = ExpectedNumber.decode(value, at: itemPath, in: context).map { range in
                                Check.text(range.description)
                            }
                        } else {
                            check = ExpectedNumber.decode(value, at: itemPath, in: context).map(Check.number)
                        }
                        add("\(key).\(name)", measure(name), check, value)
                    }
                    return true
                }
            }
            if let node = map.node("split") {
                add("split", .split, String.decode(from: node, at: map.path.appending(key: "split"), in: context).map(Check.text), node)
            }
            number("training_days", .trainingDays)
            number("recovery_days", .recoveryDays)
            let muscleNames = muscles.map { $0.sorted() }
            named("weekly_sets", known: muscleNames) { .weeklySets(muscle: $0) }
            named("weekly_band", known: muscleNames, { .weeklyBand(muscle: $0) }, text: true)
            number("kcal", .kcal)
            named("macros", fixed: macros) { .macro($0) }
            number("meals_per_day", .mealsPerDay)
            named("meal_options", fixed: mealCategories.map(\.name)) { .mealOptions(category: $0) }
            members("exercises", .exercises)
            members("ingredients", .ingredients)
            members("change_log", .changeLog)
            members("rules_fired", .rulesFired)
            members("supplements", .supplements)
            members("left_out", .leftOut)
            members("cautions", .cautions)
            members("recomputed", .recomputed)
            return out
        }
    }
}
