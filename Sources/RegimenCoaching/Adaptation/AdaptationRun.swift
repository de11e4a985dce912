import Foundation
import OrderedCollections
import RegimenLanguage

/// One adaptation in progress: the plan being patched, the log, and what has changed so far.
struct AdaptationRun {
    let engine: AdaptationEngine
    let original: PlanView
    let input: AdaptationInput
    var plan: PlanView
    var log: [ChangeLogEntry] = []
    var warnings: [String] = []
    /// Lifts whose load a rule already changed (one load change per lift per adaptation).
    var loadChanged: Set<String> = []
    /// The rules this run applied and the evidence each fired on (recorded in the patched plan).
    var applied: [AdaptationRecord.Applied] = []
    /// Rules not applied because an earlier adaptation of this plan applied them to the same evidence.
    var notes: [String] = []
    /// Whether this run made the week a deload week.
    var deloaded = false
    /// The plan's baseline, its changes in effect and its weigh-ins, as this run leaves them.
    var state: AdaptationState
    /// Blocks whose rep range this run extended on the way to a load step (not earned reps: the
    /// baseline keeps its range).
    var extendedBlocks: Set<BlockKey> = []
    /// The RIR floor the rule being performed set, if any.
    var lastRIRFloor: Int?
    /// Lifts (exercise and muscle) a progression rule moves by reps or to a harder variant this
    /// run: a readiness "too easy" does not move them a second time.
    var progressedByReps: Set<String> = []

    var readiness: ReadinessRules { engine.readiness }

    init(engine: AdaptationEngine, plan: PlanView, input: AdaptationInput) {
        self.engine = engine
        self.original = plan
        self.plan = plan
        self.input = input
        self.state = plan.state
        if state.baseline.isEmpty { state.baseline = Self.initialBaseline(plan) }
    }

    // MARK: - Firing

    /// A rule that fired for one instance (the week, a region, a lift).
    struct Firing {
        let rule: AdaptationRule
        let bindings: [String: Value]
        /// The region or the logged lift the instance is about.
        let region: String?
        let lift: LiftLog?
        /// The evidence it fired on (see ``AdaptationRecord``).
        let basis: [String]
    }

    /// The latest logged occurrence of one exercise, with the plan block that prescribed it.
    struct LiftLog {
        let exercise: LoggedExercise
        let sessionDay: Int?
        /// ``EvidenceKey/session(_:)`` of the session it was logged in.
        let sessionKey: String
        let prescription: PlanView.Block
    }

    mutating func apply() {
        let week = weekBindings()
        endAdjustments(week: week)
        // Changes still in effect from earlier weeks are not made again on new evidence.
        let inEffect = Set(state.adjustments.map(\.rule))
        var firings: [Firing] = []
        for rule in readiness.rules {
            firings += fire(rule, week: week)
        }
        // Progression: the first rule that holds for a lift is the one that applies.
        for lift in loggedLifts() {
            let bindings = liftBindings(lift, week: week)
            for rule in engine.progression.rules where holds(rule, bindings, about: lift.exercise.exerciseId) {
                firings.append(Firing(rule: rule, bindings: bindings, region: nil, lift: lift, basis: liftBasis(lift)))
                break
            }
        }
        for firing in firings {
            guard let lift = firing.lift, engine.progression.rules.contains(where: { $0.id == firing.rule.id }),
                  firing.rule.actions.reps != nil || firing.rule.actions.harderVariant else { continue }
            progressedByReps.insert(lift.exercise.exerciseId + " " + lift.prescription.muscle)
        }
        var superseded: Set<String> = []
        for firing in firings where !superseded.contains(firing.rule.id) {
            superseded.formUnion(firing.rule.supersedes)
        }
        // A firing that an earlier adaptation already applied to the same evidence still
        // supersedes (an applied deload keeps the -10% cut away) but changes nothing again.
        for firing in firings where !superseded.contains(firing.rule.id) {
            if let earlier = alreadyApplied(firing) {
                let note = "rule '\(firing.rule.id)' was already applied to \(earlier.joined(separator: ", ")); not repeated"
                if !notes.contains(note) { notes.append(note) }
                continue
            }
            if firing.rule.lasts != .persistent, inEffect.contains(firing.rule.id) {
                let line = state.adjustments.first { $0.rule == firing.rule.id }?.line ?? firing.rule.id
                let note = "rule '\(firing.rule.id)' is still in effect (\(firing.rule.lasts.phrase)): “\(line)”; not made again"
                if !notes.contains(note) { notes.append(note) }
                continue
            }
            let before = snapshot()
            let logStart = log.count
            lastRIRFloor = nil
            perform(firing, week: week)
            account(firing, before: before, logStart: logStart, rirFloor: lastRIRFloor)
            applied.append(AdaptationRecord.Applied(rule: firing.rule.id, basis: firing.basis))
        }
    }

    /// The evidence an earlier adaptation of the plan applied this firing's rule to, if any
    /// of it is this firing's evidence too.
    func alreadyApplied(_ firing: Firing) -> [String]? {
        let basis = Set(firing.basis)
        var shared: [String] = []
        for record in original.adaptations {
            for entry in record.applied where entry.rule == firing.rule.id {
                for key in entry.basis where basis.contains(key) && !shared.contains(key) { shared.append(key) }
            }
        }
        return shared.isEmpty ? nil : shared
    }

    /// A week-level rule fires on the week's check-ins and the block week; with neither, on the
    /// request itself.
    func weekBasis() -> [String] {
        var basis = windowCheckIns().map(EvidenceKey.checkIn)
        if let week = input.week { basis.append("week \(week)") }
        return basis.isEmpty ? ["request \(EvidenceKey.fingerprint(input))"] : basis
    }

    func liftBasis(_ lift: LiftLog) -> [String] { ["\(lift.sessionKey) \(lift.exercise.exerciseId) \(lift.prescription.muscle)"] }

    mutating func fire(_ rule: AdaptationRule, week: [String: Value]) -> [Firing] {
        switch rule.scope {
        case .week:
            return holds(rule, week, about: nil) ? [Firing(rule: rule, bindings: week, region: nil, lift: nil, basis: weekBasis())] : []
        case .soreRegion:
            guard let latest = latestCheckIn() else { return [] }
            let latestKey = EvidenceKey.checkIn(latest)
            var out: [Firing] = []
            for (region, level) in latest.soreness.sorted(by: { $0.key < $1.key }) {
                let bindings = Self.regionBindings(week: week, region: region, soreness: level)
                if holds(rule, bindings, about: region) {
                    out.append(Firing(rule: rule, bindings: bindings, region: region, lift: nil, basis: ["\(latestKey) \(region)"]))
                }
            }
            return out
        case .loggedExercise:
            return loggedLifts().compactMap { lift in
                let bindings = liftBindings(lift, week: week)
                return holds(rule, bindings, about: lift.exercise.exerciseId)
                    ? Firing(rule: rule, bindings: bindings, region: nil, lift: lift, basis: liftBasis(lift)) : nil
            }
        }
    }

    /// Whether the rule's condition is true; an error is a warning and the rule does not fire
    /// (adaptation fails safe: no change).
    mutating func holds(_ rule: AdaptationRule, _ bindings: [String: Value], about subject: String?) -> Bool {
        do {
            let value = try rule.condition.evaluate(bindings)
            if case .bool(let b) = value { return b }
            warnings.append("rule '\(rule.id)'\(subject.map { " (\($0))" } ?? ""): condition gave \(value.typeName), not bool; not applied")
        } catch {
            warnings.append("rule '\(rule.id)'\(subject.map { " (\($0))" } ?? ""): \(error.message); not applied")
        }
        return false
    }

    /// An amount expression's number; an error is a warning and the action is skipped.
    mutating func amount(_ expression: CompiledExpression, _ rule: AdaptationRule, _ bindings: [String: Value]) -> Double? {
        do {
            let value = try expression.evaluate(bindings)
            if let number = value.numberValue, number.isFinite { return number }
            warnings.append("rule '\(rule.id)': amount gave \(value.typeName), not a number; not applied")
        } catch {
            warnings.append("rule '\(rule.id)': \(error.message); not applied")
        }
        return nil
    }
}
