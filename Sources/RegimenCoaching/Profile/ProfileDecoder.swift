package import Foundation
public import RegimenLanguage
package import RegimenRules
import OrderedCollections

/// One thing wrong with a profile: the field, the value given and what is allowed.
public struct ProfileProblem: Sendable, Hashable, CustomStringConvertible {
    /// Dotted field path, e.g. `overrides.BMR` or `injuries[2]`.
    public var field: String
    /// The value as written (`"300"`, `"'tall'"`), or `nil` for a missing field.
    public var value: String?
    /// What the field accepts (`30-250`, `one of male, female`).
    public var allowed: String
    /// Where the field (or, for a missing one, its mapping) is in the profile file; `nil` for JSON
    /// read without locations.
    public var location: SourceLocation?

    /// A problem with `field`: the `value` as written (`nil` when missing), what is `allowed`, and where.
    public init(field: String, value: String?, allowed: String, location: SourceLocation?) {
        self.field = field
        self.value = value
        self.allowed = allowed
        self.location = location
    }

    /// `file:line:column: error: weight_kg: 300 is not allowed; expected a number in 30-250`.
    public var description: String { diagnostic.description }

    /// The problem as a diagnostic.
    public var diagnostic: Diagnostic {
        .error("profile.invalid", "\(field): \(complaint)", at: location)
    }

    /// What is wrong with the field, without its name: `300 is not allowed; expected 30-250`.
    package var complaint: String {
        value.map { "\($0) is not allowed; expected \(allowed)" } ?? "missing; expected \(allowed)"
    }
}

/// Every problem found in a profile, reported together.
package struct ProfileError: DiagnosticError {
    package var problems: [ProfileProblem]

    init(_ problems: [ProfileProblem]) { self.problems = problems }

    /// A profile is what the caller sent.
    package var kind: ErrorKind { .input }
    package var diagnostics: [Diagnostic] { problems.map(\.diagnostic) }

    package var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// The rule files a profile is validated against.
package struct ProfileRules: Sendable {
    package var fields: ProfileFieldsFile
    var ages: AgeRangesFile
    package var goals: GoalsFile
    package var diets: DietaryExclusionsFile

}

/// Reads a YAML or JSON profile into a validated ``Profile``.
///
/// Every problem is collected in one pass; aliases (goal names, `18–24` with an en dash) resolve to
/// canonical values, and nothing out of range is clamped.
package struct ProfileDecoder: Sendable {
    package let rules: ProfileRules

    init(rules: ProfileRules) { self.rules = rules }

    /// Decodes profile text (YAML or JSON); `file` names it in locations.
    /// - Throws: ``ProfileError`` with every problem.
    package func decode(text: String, file: String) throws(ProfileError) -> Profile {
        let read = YAMLReader.read(text, file: file)
        let syntax = read.diagnostics.filter { $0.severity == .error }
        if !syntax.isEmpty {
            throw ProfileError(syntax.map { ProfileProblem(field: "(file)", value: nil, allowed: "valid YAML or JSON: \($0.message)", location: $0.location) })
        }
        guard let document = read.document else {
            throw ProfileError([ProfileProblem(field: "(file)", value: nil, allowed: "a mapping with at least sex and schedule_days", location: SourceLocation(file: file, line: 1, column: 1))])
        }
        return try decode(document)
    }

    /// Decodes the profile file at `url`.
    package func decode(contentsOf url: URL, displayPath: String) throws(ProfileError) -> Profile {
        let text: String
        do {
            text = try InputFile.read(url, displayPath: displayPath)
        } catch {
            throw ProfileError(error.diagnostics.map { ProfileProblem(field: "(file)", value: nil, allowed: "a readable UTF-8 file: \($0.message)", location: $0.location) })
        }
        return try decode(text: text, file: displayPath)
    }

    /// Decodes a located YAML/JSON tree.
    package func decode(_ document: LocatedNode) throws(ProfileError) -> Profile {
        guard document.mapping != nil else {
            throw ProfileError([ProfileProblem(field: "(profile)", value: document.kindDescription, allowed: "a mapping of profile fields", location: document.location)])
        }
        var reader = FieldReader(document: document)
        let profile = read(&reader)
        reader.reportUnknownFields()
        guard reader.problems.isEmpty, let profile else {
            throw ProfileError(reader.problems.sorted { ($0.location, $0.field) < ($1.location, $1.field) })
        }
        return profile
    }

    /// The profile's shape (JSON Schema for editors), described from the very reads ``decode(_:)``
    /// makes: each field's type, the ranges, goals, age ranges and diets of the loaded rules, the
    /// required field, and no field the decoder does not read. The rules between fields (no
    /// `pregnant: true` with `sex: male`; a `trimester` only with `pregnant: true`) are the decoder's alone.
    package var shape: NodeShape {
        var reader = FieldReader(describing: ())
        _ = read(&reader)
        return .mapping(reader.described)
    }

    /// Reads every field through `reader` (which collects the problems, or in describing mode
    /// records each field's shape); `nil` when a field the profile needs is missing or invalid.
    private func read(_ reader: inout FieldReader) -> Profile? {
        let fields = rules.fields
        let sex = reader.enumeration("sex", Profile.Sex.self, required: true)
        // The index-only request (recalculateIndexes) has no schedule_days: the rules' default is
        // assumed and every output says so (docs/requirements.md#profile-inputs).
        let givenDays = reader.integer("schedule_days", in: fields.range("schedule_days"))
        let daysMissing = reader.node("schedule_days") == nil
        let days = givenDays ?? (daysMissing ? fields.defaultScheduleDays : nil)
        let ageRange = reader.word(
            "age_range", among: rules.ages.ranges.map(\.id), spelled: FieldReader.ageRangePattern,
            allowed: "one of \(rules.ages.ranges.map(\.id).joined(separator: ", ")) (hyphen or en dash)"
        ) { rules.ages.range(named: $0)?.id }
        let age = reader.integer("age", in: rules.ages.exactAge)
        // The seed's contracts give height in whole centimetres: 180.5 is rejected naming the
        // field rather than rounded silently.
        let height = reader.integer("height_cm", in: fields.range("height_cm")).map(Double.init)
        let weight = reader.number("weight_kg", in: fields.range("weight_kg"))
        let bodyfat = reader.number("bodyfat_pct", in: fields.range("bodyfat_pct"))
        let waist = reader.number("waist_cm", in: fields.range("waist_cm"))
        let experience = reader.enumeration("experience", Profile.Experience.self)
        let equipment = reader.enumeration("equipment", Profile.Equipment.self)
        let injuries = reader.enumerationList("injuries", Profile.Injury.self)
        let overrides = reader.overrides(fields)
        let goal = reader.word(
            "goal", among: rules.goals.acceptedNames, spelled: FieldReader.caseInsensitivePattern,
            allowed: "one of \(rules.goals.acceptedNames.joined(separator: ", "))"
        ) { rules.goals.canonical($0) }
        let budget = reader.enumeration("budget_tier", Profile.BudgetTier.self)
        let meals = reader.integer("meals_per_day", in: fields.range("meals_per_day"))
        let exclusions = reader.stringList("exclusions", allowed: rules.diets.names)
        let pregnant = reader.boolean("pregnant")
        // Three trimesters by definition, not a coaching choice.
        let trimester = reader.integer("trimester", in: 1...3)
        let hypertension = reader.boolean("hypertension")
        let medications = reader.stringList("medications", allowed: nil)
        let caffeine = reader.number("daily_caffeine_mg", in: fields.range("daily_caffeine_mg"))
        if sex == .male, pregnant == true {
            reader.problem("pregnant", value: "true", allowed: "false or absent for sex male", at: reader.location("pregnant"))
        }
        if let trimester, pregnant != true {
            reader.problem("trimester", value: String(trimester), allowed: "absent unless pregnant: true", at: reader.location("trimester"))
        }
        guard let sex, let days else { return nil }
        var profile = Profile(
            sex: sex, scheduleDays: days, ageRange: ageRange, age: age, heightCm: height, weightKg: weight, bodyfatPct: bodyfat,
            waistCm: waist, experience: experience, equipment: equipment, injuries: injuries, overrides: overrides, goal: goal,
            budgetTier: budget, mealsPerDay: meals, exclusions: exclusions, pregnant: pregnant, trimester: trimester, hypertension: hypertension,
            medications: medications, dailyCaffeineMg: caffeine)
        profile.scheduleDaysAssumed = daysMissing
        return profile
    }
}

private func < (lhs: SourceLocation?, rhs: SourceLocation?) -> Bool {
    switch (lhs, rhs) {
    case let (l?, r?): l < r
    case (nil, _?): true
    default: false
    }
}

private func < (lhs: (SourceLocation?, String), rhs: (SourceLocation?, String)) -> Bool {
    if lhs.0 != rhs.0 { return lhs.0 < rhs.0 }
    return lhs.1 < rhs.1
}

/// Reads typed fields of one mapping, collecting problems instead of stopping.
///
/// In describing mode (``init(describing:)``) it reads nothing: each call records the field's
/// shape in ``described`` instead, so the profile's schema comes from the reads themselves.
/// Fields other than `sex` may be null, which reads as absent.
private struct FieldReader {
    let document: LocatedNode
    var problems: [ProfileProblem] = []
    /// The fields asked for, in order: every other field is unknown.
    private var asked: [String] = []
    /// In describing mode, the shape recorded so far; `nil` when reading a profile.
    private var describing: MappingShape?

    init(document: LocatedNode) { self.document = document }

    /// A reader that records shapes instead of reading.
    init(describing: Void) {
        document = LocatedNode(.mapping([]), at: SourceLocation(file: "<schema>", line: 1, column: 1))
        self.describing = MappingShape()
    }

    /// The shape recorded in describing mode.
    var described: MappingShape { describing ?? MappingShape() }

    /// In describing mode, records `key` with `shape` (nullable unless required) and returns
    /// `true`; otherwise marks `key` as known and returns `false`.
    private mutating func describe(_ key: String, _ shape: @autoclosure () -> NodeShape, required: Bool = false) -> Bool {
        if !asked.contains(key) { asked.append(key) }
        guard var mapping = describing else { return false }
        if mapping.properties[key] == nil { mapping.properties[key] = required ? shape() : shape().orNull }
        if required, !mapping.required.contains(key) { mapping.required.append(key) }
        describing = mapping
        return true
    }

    mutating func problem(_ field: String, value: String?, allowed: String, at location: SourceLocation?) {
        problems.append(ProfileProblem(field: field, value: value, allowed: allowed, location: location))
    }

    /// Reports every field of the profile that no read asked for, suggesting the closest one.
    /// At most ``maxReportedUnknownFields`` are reported one by one, then one line counts the rest:
    /// a profile of 100,000 stray keys must not answer with 100,000 messages.
    mutating func reportUnknownFields() {
        var unknown = 0
        var firstUnreported: SourceLocation?
        for pair in document.mapping ?? [] {
            guard let key = pair.key.scalar?.text, !asked.contains(key) else { continue }
            unknown += 1
            guard unknown <= Self.maxReportedUnknownFields else {
                if firstUnreported == nil { firstUnreported = pair.key.location }
                continue
            }
            let hint = Suggestion.closest(to: key, among: asked).map { "'\($0)'" }
            problem(key, value: "an unknown field", allowed: hint.map { "a known field (did you mean \($0)?)" } ?? "one of \(asked.joined(separator: ", "))", at: pair.key.location)
        }
        let more = unknown - Self.maxReportedUnknownFields
        if more > 0 {
            problem("(and \(more) more)", value: "\(more) more unknown field\(more == 1 ? "" : "s") (not listed one by one)", allowed: "only known fields", at: firstUnreported)
        }
    }

    static let maxReportedUnknownFields = 20

    func location(_ key: String) -> SourceLocation? { document[key]?.location ?? document.location }

    /// The node under `key`, `nil` when absent or null (a missing required field is reported).
    mutating func node(_ key: String, required: Bool = false, allowed: String = "") -> LocatedNode? {
        guard let node = document[key], !Self.isNull(node) else {
            if required { problem(key, value: nil, allowed: allowed, at: document.location) }
            return nil
        }
        return node
    }

    static func isNull(_ node: LocatedNode) -> Bool {
        guard let scalar = node.scalar else { return false }
        return scalar.plainType == .null
    }

    static func shown(_ node: LocatedNode) -> String {
        guard let scalar = node.scalar else { return node.kindDescription }
        return scalar.plainType == .string ? "'\(scalar.text)'" : scalar.text
    }

    mutating func numberValue(_ node: LocatedNode, field: String, allowed: String) -> Double? {
        let value: Double?
        switch node.scalar?.plainType {
        case .int(let int): value = Double(int)
        case .float(let float) where float.isFinite: value = float
        default: value = nil
        }
        guard let value else {
            problem(field, value: Self.shown(node), allowed: allowed, at: node.location)
            return nil
        }
        return value
    }

    mutating func number(_ key: String, in range: ClosedRange<Double>?, field: String? = nil, within parent: LocatedNode? = nil) -> Double? {
        if parent == nil, describe(key, .number(minimum: range?.lowerBound, maximum: range?.upperBound)) { return nil }
        let name = field ?? key
        let allowed = range.map { "a number in \(formatted($0.lowerBound))-\(formatted($0.upperBound))" } ?? "a number"
        let source = parent ?? document
        guard let node = source[key], !Self.isNull(node) else { return nil }
        guard let value = numberValue(node, field: name, allowed: allowed) else { return nil }
        if let range, !range.contains(value) {
            problem(name, value: Self.shown(node), allowed: allowed, at: node.location)
            return nil
        }
        return value
    }

    mutating func integer(_ key: String, in range: ClosedRange<Double>?, required: Bool = false) -> Int? {
        if describe(key, .integer(minimum: range?.lowerBound, maximum: range?.upperBound), required: required) { return nil }
        let allowed = range.map { "a whole number in \(formatted($0.lowerBound))-\(formatted($0.upperBound))" } ?? "a whole number"
        guard let node = node(key, required: required, allowed: allowed) else { return nil }
        guard case .int(let raw)? = node.scalar?.plainType, let value = Int(exactly: raw) else {
            problem(key, value: Self.shown(node), allowed: allowed, at: node.location)
            return nil
        }
        if let range, !range.contains(Double(value)) {
            problem(key, value: String(value), allowed: allowed, at: node.location)
            return nil
        }
        return value
    }

    /// A string naming one of `names`, in any spelling `resolve` accepts (the schema lists the
    /// names, for completion, and allows what `spelled` matches); `nil` with a problem otherwise.
    mutating func word(
        _ key: String, among names: [String], spelled pattern: ([String]) -> String, allowed: String, _ resolve: (String) -> String?
    ) -> String? {
        if describe(key, .anyOf([.oneOf(names), .pattern(pattern(names))])) { return nil }
        guard let node = node(key) else { return nil }
        guard let scalar = node.scalar, scalar.plainType == .string else {
            problem(key, value: Self.shown(node), allowed: "a string", at: node.location)
            return nil
        }
        guard let resolved = resolve(scalar.text) else {
            problem(key, value: "'\(scalar.text)'", allowed: allowed, at: location(key))
            return nil
        }
        return resolved
    }

    /// Any of `names` in any letter case (goals are compared case-insensitively).
    static func caseInsensitivePattern(_ names: [String]) -> String {
        let spelled = names.filter { $0 == $0.lowercased() }.map { name in
            name.map { letter -> String in
                let upper = letter.uppercased()
                return upper == String(letter) ? escaped(letter) : "[\(letter)\(upper)]"
            }.joined()
        }
        return "^(?:\(spelled.joined(separator: "|")))$"
    }

    /// Any of `names` (age ranges such as `18-24`) with spaces anywhere and an en or em dash for
    /// the hyphen, as ``AgeRangesFile/range(named:)`` reads them.
    static func ageRangePattern(_ names: [String]) -> String {
        let spelled = names.map { name in
            name.map { $0 == "-" ? "[-–—]" : escaped($0) }.joined(separator: " *")
        }
        return "^ *(?:\(spelled.joined(separator: "|"))) *$"
    }

    private static func escaped(_ character: Character) -> String {
        "\\^$.|?*+()[]{}/".contains(character) ? "\\\(character)" : String(character)
    }

    mutating func boolean(_ key: String) -> Bool? {
        if describe(key, .boolean) { return nil }
        guard let node = node(key) else { return nil }
        guard case .bool(let value)? = node.scalar?.plainType else {
            problem(key, value: Self.shown(node), allowed: "true or false", at: node.location)
            return nil
        }
        return value
    }

    mutating func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type, required: Bool = false) -> E? where E.RawValue == String {
        if describe(key, .oneOf(E.allCases.map(\.rawValue)), required: required) { return nil }
        let allowed = "one of \(E.allCases.map(\.rawValue).joined(separator: ", "))"
        guard let node = node(key, required: required, allowed: allowed) else { return nil }
        guard let scalar = node.scalar, scalar.plainType == .string, let value = E(rawValue: scalar.text) else {
            problem(key, value: Self.shown(node), allowed: allowed, at: node.location)
            return nil
        }
        return value
    }

    mutating func list(_ key: String) -> [LocatedNode]? {
        guard let node = node(key) else { return nil }
        guard let items = node.sequence else {
            problem(key, value: Self.shown(node), allowed: "a list", at: node.location)
            return nil
        }
        return items
    }

    mutating func enumerationList<E: RawRepresentable & CaseIterable & Comparable>(_ key: String, _ type: E.Type) -> [E] where E.RawValue == String {
        if describe(key, .distinctList(.oneOf(E.allCases.map(\.rawValue)))) { return [] }
        let allowed = "one of \(E.allCases.map(\.rawValue).joined(separator: ", "))"
        var result: [E] = []
        for (index, item) in (list(key) ?? []).enumerated() {
            guard let scalar = item.scalar, scalar.plainType == .string, let value = E(rawValue: scalar.text) else {
                problem("\(key)[\(index)]", value: Self.shown(item), allowed: allowed, at: item.location)
                continue
            }
            if result.contains(value) {
                problem("\(key)[\(index)]", value: "'\(scalar.text)'", allowed: "each entry once (it is already listed)", at: item.location)
                continue
            }
            result.append(value)
        }
        return result.sorted()
    }

    mutating func stringList(_ key: String, allowed names: [String]?) -> [String] {
        if describe(key, .distinctList(names.map(NodeShape.oneOf) ?? .string)) { return [] }
        let allowed = names.map { "one of \($0.joined(separator: ", "))" } ?? "a string"
        var result: [String] = []
        for (index, item) in (list(key) ?? []).enumerated() {
            guard let scalar = item.scalar, scalar.plainType == .string, names.map({ $0.contains(scalar.text) }) ?? true else {
                problem("\(key)[\(index)]", value: Self.shown(item), allowed: allowed, at: item.location)
                continue
            }
            if result.contains(scalar.text) {
                problem("\(key)[\(index)]", value: "'\(scalar.text)'", allowed: "each entry once (it is already listed)", at: item.location)
                continue
            }
            result.append(scalar.text)
        }
        return names == nil ? result : result.sorted()
    }

    /// The override keys, each a number within the rules' range for it.
    static let overrideKeys = ["BMR", "TDEE", "BMI"]

    mutating func overrides(_ fields: ProfileFieldsFile) -> Profile.Overrides {
        let known = Self.overrideKeys
        var shape = MappingShape(summary: "Values that replace the computed ones.")
        for key in known {
            let range = fields.range(key)
            shape.properties[key] = NodeShape.number(minimum: range?.lowerBound, maximum: range?.upperBound).orNull
        }
        if describe("overrides", .mapping(shape)) { return Profile.Overrides() }
        guard let node = node("overrides") else { return Profile.Overrides() }
        guard let pairs = node.mapping else {
            problem("overrides", value: Self.shown(node), allowed: "a mapping with BMR, TDEE and/or BMI", at: node.location)
            return Profile.Overrides()
        }
        for pair in pairs {
            guard let key = pair.key.scalar?.text, !known.contains(key) else { continue }
            problem("overrides.\(key)", value: "an unknown override", allowed: "BMR, TDEE or BMI\(Suggestion.clause(for: key.uppercased() == key ? key : key.uppercased(), among: known))", at: pair.key.location)
        }
        return Profile.Overrides(
            bmr: number("BMR", in: fields.range("BMR"), field: "overrides.BMR", within: node),
            tdee: number("TDEE", in: fields.range("TDEE"), field: "overrides.TDEE", within: node),
            bmi: number("BMI", in: fields.range("BMI"), field: "overrides.BMI", within: node))
    }
}
