import Foundation
import OrderedCollections
package import RegimenLanguage

/// A whole-number range as plans write it: `"6–10"`, `"1-3"`, `"8"`. Keeps the dash it was
/// written with so a patched plan reads like the original.
package struct PlanRange: Sendable, Hashable, CustomStringConvertible {
    package var lower: Int
    var upper: Int
    var dash: String

    init(_ lower: Int, _ upper: Int, dash: String = "–") {
        self.lower = lower
        self.upper = upper
        self.dash = dash
    }

    /// Parses `a–b`, `a-b` or `a`; `nil` for anything else (a hold such as `30–45s`).
    init?(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for dash in ["–", "-", "—"] where trimmed.contains(dash) {
            let parts = trimmed.components(separatedBy: dash).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a <= b else { return nil }
            self.init(a, b, dash: dash)
            return
        }
        guard let single = Int(trimmed), single >= 0 else { return nil }
        self.init(single, single)
    }

    package var description: String { lower == upper ? String(lower) : "\(lower)\(dash)\(upper)" }
}

/// The parts of a plan document (`regimen plan` output) that adaptation reads and changes, with
/// the document itself so that everything else passes through untouched.
package struct PlanView: Sendable, Hashable {
    struct Block: Sendable, Hashable {
        var muscle: String
        var exerciseId: String
        var sets: Int
        var reps: PlanRange?
        var rir: PlanRange?
        var loadKg: Double?
        var suggestedRegression: String?
        /// The exercise's display name, when a change of exercise sets it.
        var exerciseName: String?
        /// Position in the document: `workouts[workout].blocks[block]`.
        let workout: Int
        let block: Int
    }

    struct Day: Sendable, Hashable {
        var day: Int
        package var blocks: [Block]
    }

    package struct Macros: Sendable, Hashable {
        package var proteinG: Double
        package var fatG: Double
        package var carbG: Double
    }

    var days: [Day]
    package var kcal: Double?
    package var macros: Macros?
    package var bmr: Double?
    /// Weekly band per muscle (counted sets).
    var bands: [String: ClosedRange<Double>]
    var deload: Bool
    /// What earlier adaptations applied to this plan (its `adaptations` list).
    var adaptations: [AdaptationRecord]
    /// The goal the plan was made for (`goal`, as `regimen plan` writes it), when it says.
    var goal: String?
    /// The plan's TDEE (`idx.TDEE`): the calorie band is a multiple of it.
    var tdee: Double?
    /// The baseline, the changes in effect, the weigh-ins (`adaptation`).
    var state: AdaptationState
    /// The goal's calorie band and the highest safety/pregnancy floor as the plan's calorie
    /// precedence decided them (`nutrition.basis.calorie_precedence`), when the plan says.
    var plannedCalories: CaloriePrecedence.Decision?

    package static func == (a: PlanView, b: PlanView) -> Bool { a.document == b.document && a.days == b.days && a.kcal == b.kcal && a.macros == b.macros && a.deload == b.deload && a.state == b.state }
    package func hash(into hasher: inout Hasher) { hasher.combine(document) }
    /// The plan as read.
    package let document: Value

    /// Reads `document`; every problem is reported at once.
    /// - Throws: ``AdaptationInputError`` naming each field that is missing or of the wrong type.
    package init(document: Value) throws(AdaptationInputError) {
        var problems = PlanProblems()
        self.document = document
        guard case .map(let root) = document else {
            var notAMapping = PlanProblems()
            notAMapping.append("plan", "must be a mapping (the output of `regimen plan`), not \(document.typeName)")
            throw AdaptationInputError(notAMapping.diagnostics)
        }
        let workouts = root["workouts"]?.listValue ?? []
        if root["workouts"] == nil { problems.append("plan", "missing 'workouts'") }
        var days: [Day] = []
        for (w, workout) in workouts.enumerated() {
            let path = "plan.workouts[\(w)]"
            guard let dayNumber = workout["day"]?.intValue, Self.plausible.day.contains(Double(dayNumber)) else {
                problems.append("\(path).day", "must be a whole number in \(Self.shown(Self.plausible.day)), not \(Self.shown(workout["day"]))")
                continue
            }
            var blocks: [Block] = []
            for (b, block) in (workout["blocks"]?.listValue ?? []).enumerated() {
                let blockPath = "\(path).blocks[\(b)]"
                guard let muscle = block["muscle"]?.stringValue, let exercise = block["exerciseId"]?.stringValue else {
                    problems.append("\(blockPath)", "needs 'muscle' and 'exerciseId' strings")
                    continue
                }
                guard let sets = block["sets"]?.intValue, Self.plausible.sets.contains(Double(sets)) else {
                    problems.append("\(blockPath).sets", "must be a whole number in \(Self.shown(Self.plausible.sets)), not \(Self.shown(block["sets"]))")
                    continue
                }
                let loadKg = Self.number(block["load_kg"], "\(blockPath).load_kg", in: Self.plausible.loadKg, &problems)
                blocks.append(Block(
                    muscle: muscle, exerciseId: exercise, sets: Int(sets),
                    reps: block["reps"]?.stringValue.flatMap(PlanRange.init(text:)),
                    rir: block["rir"]?.stringValue.flatMap(PlanRange.init(text:)),
                    loadKg: loadKg,
                    suggestedRegression: block["suggested_regression"]?.stringValue,
                    exerciseName: nil, workout: w, block: b))
            }
            days.append(Day(day: Int(dayNumber), blocks: blocks))
        }
        if Set(days.map(\.day)).count != days.count { problems.append("plan.workouts", "two workouts have the same day") }
        self.days = days.sorted { $0.day < $1.day }
        kcal = Self.number(root["kcal"], "plan.kcal", in: Self.plausible.kcal, &problems)
        if let macros = root["macros"], macros != .null {
            let grams = ["protein_g", "fat_g", "carb_g"].map { Self.number(macros[$0], "plan.macros.\($0)", in: Self.plausible.grams, &problems) }
            if case .map = macros, let p = grams[0], let f = grams[1], let c = grams[2] {
                self.macros = Macros(proteinG: p, fatG: f, carbG: c)
            } else {
                if macros.mapValue == nil {
                    problems.append("plan.macros", "must be a mapping with protein_g, fat_g and carb_g, not \(Self.shown(macros))")
                } else if let missing = ["protein_g", "fat_g", "carb_g"].first(where: { macros[$0] == nil || macros[$0] == .null }) {
                    problems.append("plan.macros.\(missing)", "missing; the macros need protein_g, fat_g and carb_g")
                }
                self.macros = nil
            }
        } else {
            macros = nil
        }
        bmr = Self.number(root["idx"]?["BMR"], "plan.idx.BMR", in: Self.plausible.kcal, &problems)
        tdee = Self.number(root["idx"]?["TDEE"], "plan.idx.TDEE", in: Self.plausible.kcal, &problems)
        goal = root["nutrition"]?["goal"]?.stringValue ?? root["goal"]?.stringValue
        // The calorie precedence's decision when the plan was made (rules/nutrition.yaml
        // `calorie_precedence`): the goal's band and the highest safety or pregnancy floor.
        let decision = root["nutrition"]?["basis"]?["calorie_precedence"]
        if let band = decision?["band_kcal"]?.listValue, band.count == 2, let low = band[0].numberValue, let high = band[1].numberValue,
           low <= high, Self.plausible.kcal.contains(low), Self.plausible.kcal.contains(high) {
            let floor = decision?["floor_kcal"]?.numberValue.flatMap { Self.plausible.kcal.contains($0) ? $0 : nil } ?? 0
            let planned = decision?["kcal"]?.numberValue ?? decision?["proposed_kcal"]?.numberValue ?? low
            let applied = decision?["applied"]?.stringValue.flatMap(CaloriePrecedence.Bound.init(rawValue:))
            plannedCalories = CaloriePrecedence.Decision(proposed: planned, kcal: planned, band: low...high, floor: floor, bound: applied, reason: nil)
        } else {
            plannedCalories = nil
        }
        state = AdaptationState(value: root["adaptation"])
        bands = Self.readBands(root)
        deload = root["deload"]?.boolValue ?? false
        // The records are what makes a second run of the same request a no-op: one that cannot be
        // read would let the request apply again, so it is refused rather than skipped.
        var records: [AdaptationRecord] = []
        switch root["adaptations"] {
        case nil, .null?:
            break
        case .list(let items)?:
            for (index, item) in items.enumerated() {
                if let record = AdaptationRecord(value: item) {
                    records.append(record)
                } else {
                    problems.append("plan.adaptations[\(index)]", "must be a record written by `regimen adapt` (a mapping with an 'input' string), not \(Self.shown(item))")
                }
            }
        case let other?:
            problems.append("plan.adaptations", "must be the list of records written by `regimen adapt`, not \(Self.shown(other))")
        }
        adaptations = records
        if !problems.diagnostics.isEmpty { throw AdaptationInputError(problems.diagnostics) }
    }

    /// What a plan document can hold and still be a plan for a person: limits of plausibility, not
    /// coaching choices (those live in rules/). They keep a hand-edited `kcal: 1e308` or
    /// `sets: 9e18` from reaching arithmetic that would overflow or print nonsense.
    static let plausible = (
        kcal: 0.0...20_000, grams: 0.0...5_000, sets: 0.0...100, day: 1.0...7, loadKg: 0.0...1_000, bandSets: 0.0...200
    )

    /// A number at `path` within `range`; a value that is present but not such a number is a problem.
    private static func number(_ value: Value?, _ path: String, in range: ClosedRange<Double>, _ problems: inout PlanProblems) -> Double? {
        guard let value, value != .null else { return nil }
        guard let number = value.numberValue, number.isFinite, range.contains(number) else {
            problems.append("\(path)", "must be a number in \(shown(range)), not \(shown(value))")
            return nil
        }
        return number
    }

    private static func shown(_ range: ClosedRange<Double>) -> String { "\(range.lowerBound.plainText)-\(range.upperBound.plainText)" }

    private static func shown(_ value: Value?) -> String {
        switch value {
        case nil: "nothing"
        case .string(let text)?: "'\(text.count > 40 ? String(text.prefix(40)) + "…" : text)'"
        case .int(let i)?: String(i)
        case .float(let f)?: f.plainText
        case let other?: other.typeName
        }
    }

    /// The plan's weekly accounting per muscle: `training.weekly_sets` as `regimen plan` writes
    /// it, or a top-level `volume` list.
    static func weeklyEntries(_ root: OrderedDictionary<String, Value>) -> [Value] {
        root["training"]?["weekly_sets"]?.listValue ?? root["volume"]?.listValue ?? []
    }

    /// Bands from the plan's weekly accounting: `[{muscle, band}]` where `band` is `"12–16"`,
    /// `[12, 16]` or `{min, max}`.
    private static func readBands(_ root: OrderedDictionary<String, Value>) -> [String: ClosedRange<Double>] {
        var bands: [String: ClosedRange<Double>] = [:]
        let entries = weeklyEntries(root)
        for entry in entries {
            guard let muscle = entry["muscle"]?.stringValue, let band = entry["band"] else { continue }
            var range: ClosedRange<Double>?
            switch band {
            case .string(let text):
                if let r = PlanRange(text: text) { range = Double(r.lower)...Double(r.upper) }
            case .list(let items) where items.count == 2:
                if let a = items[0].numberValue, let b = items[1].numberValue, a <= b { range = a...b }
            case .map:
                if let a = band["min"]?.numberValue, let b = band["max"]?.numberValue, a <= b { range = a...b }
            default:
                break
            }
            if let range, plausible.bandSets.contains(range.lowerBound), plausible.bandSets.contains(range.upperBound) { bands[muscle] = range }
        }
        return bands
    }

    /// Every block, in day order.
    var allBlocks: [Block] { days.flatMap(\.blocks) }

    /// The plan document with this view's values written back; `setChanges` (the change of each
    /// muscle's counted weekly sets) updates `planned` in the plan's weekly accounting.
    /// The change of one muscle's weekly sets: the count and its direct and indirect sets.
    struct SetChange {
        var planned: Double
        var direct: Int
        var indirect: Int
    }

    /// `record`, when given, is appended to the plan's `adaptations` list, which is then trimmed
    /// to `keptRecords` (the records the rules keep); `state` replaces the plan's `adaptation`.
    func patchedDocument(
        setChanges: [String: SetChange] = [:], record: AdaptationRecord? = nil, keptRecords: ((AdaptationRecord) -> Bool)? = nil,
        state: AdaptationState? = nil
    ) -> Value {
        guard case .map(var root) = document else { return document }
        if var workouts = root["workouts"]?.listValue {
            for day in days {
                for block in day.blocks where block.workout < workouts.count {
                    guard case .map(var workout) = workouts[block.workout], var blocks = workout["blocks"]?.listValue,
                          block.block < blocks.count, case .map(var entry) = blocks[block.block] else { continue }
                    entry["sets"] = .int(Int64(block.sets))
                    if entry["exerciseId"]?.stringValue != block.exerciseId {
                        entry["exerciseId"] = .string(block.exerciseId)
                        if let name = block.exerciseName, entry["name"] != nil { entry["name"] = .string(name) }
                    }
                    if let reps = block.reps, let old = entry["reps"]?.stringValue, PlanRange(text: old) != reps {
                        entry["reps"] = .string(reps.description)
                    }
                    if let rir = block.rir { entry["rir"] = .string(rir.description) }
                    if let load = block.loadKg { entry["load_kg"] = ValueNumber.value(load) }
                    if let regression = block.suggestedRegression { entry["suggested_regression"] = .string(regression) }
                    blocks[block.block] = .map(entry)
                    workout["blocks"] = .list(blocks)
                    workouts[block.workout] = .map(workout)
                }
            }
            root["workouts"] = .list(workouts)
        }
        if let kcal { root["kcal"] = ValueNumber.value(kcal) }
        if let macros {
            var map = root["macros"]?.mapValue ?? [:]
            map["protein_g"] = ValueNumber.value(macros.proteinG)
            map["fat_g"] = ValueNumber.value(macros.fatG)
            map["carb_g"] = ValueNumber.value(macros.carbG)
            root["macros"] = .map(map)
        }
        if deload {
            root["deload"] = .bool(true)
        } else if root["deload"] != nil {
            root["deload"] = .bool(false)
        }
        if !setChanges.isEmpty { Self.refreshPlanned(&root, setChanges) }
        if let record {
            let records = (adaptations + [record]).filter { keptRecords?($0) ?? true }
            root["adaptations"] = .list(records.map(\.value))
        }
        if let state { root["adaptation"] = state.value }
        return .map(root)
    }

    /// Adds each muscle's change to `planned` (and `direct_sets`, `indirect_sets`) in the weekly
    /// accounting.
    private static func refreshPlanned(_ root: inout OrderedDictionary<String, Value>, _ changes: [String: SetChange]) {
        func refreshed(_ entries: [Value]) -> [Value] {
            entries.map { entry in
                guard case .map(var map) = entry, let muscle = map["muscle"]?.stringValue, let planned = map["planned"]?.numberValue,
                      let change = changes[muscle] else { return entry }
                map["planned"] = ValueNumber.value(((planned + change.planned) * 1000).rounded() / 1000)
                if let direct = map["direct_sets"]?.intValue { map["direct_sets"] = .int(direct + Int64(change.direct)) }
                if let indirect = map["indirect_sets"]?.intValue { map["indirect_sets"] = .int(indirect + Int64(change.indirect)) }
                return .map(map)
            }
        }
        if case .map(var training)? = root["training"], let weekly = training["weekly_sets"]?.listValue {
            training["weekly_sets"] = .list(refreshed(weekly))
            root["training"] = .map(training)
        } else if let volume = root["volume"]?.listValue {
            root["volume"] = .list(refreshed(volume))
        }
    }
}

/// Numbers in documents: whole numbers as ints, others as floats.
enum ValueNumber {
    static func value(_ x: Double) -> Value {
        x == x.rounded() && abs(x) < 1e15 ? .int(Int64(x)) : .float(x)
    }
}

/// The problems of a plan document, each naming its field (`plan.workouts[0].day`) as data, so
/// that a caller holding the document's text can place it at its line and column.
struct PlanProblems {
    var diagnostics: [Diagnostic] = []

    mutating func append(_ field: String, _ message: String) {
        diagnostics.append(Diagnostic(.error, id: "input.invalid", message, at: nil, field: field))
    }
}
