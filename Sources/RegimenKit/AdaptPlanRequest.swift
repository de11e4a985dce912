public import Foundation
import RegimenCoaching
import RegimenLanguage
package import RegimenRules

/// The seed's `adaptPlan` request: the plan to adapt (`current_plan`, a `generatePlan` result)
/// beside the check-ins, logged sessions, adherence and weight trend.
public struct AdaptPlanRequest: Sendable, Hashable {
    /// The plan to adapt, as its JSON value.
    public var currentPlan: Value
    /// The check-ins, logged sessions, adherence and weight trend.
    public var input: AdaptationInput
    /// Names the request in problems (a file name, `<stdin>`, a request id).
    public var name: String
    /// Names the plan in its own problems: the plan's file when it came apart from the check-ins.
    var planName: String
    /// The plan as read from text, with the place of each field, so that the plan's problems
    /// carry their line and column; `nil` for a plan that was not read from text.
    var planNode: LocatedNode?

    /// Reads the seed's single request shape (JSON or YAML) with the plan under `current_plan`,
    /// as `regimen adapt REQUEST` does.
    /// - Throws: ``RegimenError/Code/request`` listing every problem with its line and column.
    public init(json: Data, name: String = "<request>") throws(RegimenError) {
        try self.init(text: try RequestDocument.text(json, name: name), name: name)
    }

    /// Reads the request from text; see ``init(json:name:)``.
    public init(text: String, name: String = "<request>") throws(RegimenError) {
        let decoded: (plan: Value, planNode: LocatedNode, input: AdaptationInput)
        do {
            decoded = try AdaptationInputDecoder.decodeRequest(text: text, file: name)
        } catch {
            throw .request(error.diagnostics, input: name)
        }
        self.init(plan: decoded.plan, input: decoded.input, name: name)
        planNode = decoded.planNode
    }

    /// A request for a plan the engine generated, with the check-ins as JSON or YAML text (the
    /// request's other fields: `checkins`, `sessions`, `week`, `weight_trend_2w`, …).
    public init(currentPlan: GeneratedPlan, checkIns: String, name: String = "<check-ins>") throws(RegimenError) {
        let decoded: AdaptationInput
        do {
            decoded = try AdaptationInputDecoder.decode(text: checkIns, file: name)
        } catch {
            throw .request(error.diagnostics, input: name)
        }
        self.init(plan: currentPlan.contractValue, input: decoded, name: name)
    }

    // Every stored property is set in one place, after decoding can no longer throw.
    package init(plan: Value, input: AdaptationInput, name: String, planName: String? = nil) {
        self.currentPlan = plan
        self.input = input
        self.name = name
        self.planName = planName ?? name
        self.planNode = nil
    }

    /// The two-file form with the plan read first (``PlanFile``), so that its problems are
    /// reported before the check-ins are read, and the check-ins' text from `name`.
    package init(plan: PlanFile, checkIns: String, name: String) throws(RegimenError) {
        try self.init(plan: plan.document, planName: plan.name, checkIns: checkIns, name: name)
    }

    /// The two-file form of `regimen adapt PLAN CHECKINS`: the plan (a document read from
    /// `planName`) and the check-ins' text (from `name`), each file naming its own problems.
    package init(plan: LocatedNode, planName: String, checkIns: String, name: String) throws(RegimenError) {
        try self.init(plan: plan.value(), planName: planName, checkIns: checkIns, name: name)
        planNode = plan
    }

    /// The two-file form for a plan held as a value (a previous adapt's `patchedPlan`): its
    /// problems are named by field only, since it was not read from text.
    package init(plan: Value, planName: String, checkIns: String, name: String) throws(RegimenError) {
        let decoded: AdaptationInput
        do {
            decoded = try AdaptationInputDecoder.decode(text: checkIns, file: name)
        } catch {
            throw .request(error.diagnostics, input: name)
        }
        self.init(plan: plan, input: decoded, name: name, planName: planName)
    }

    /// Requests are equal when they hold the same plan, read from the same places, and the same
    /// input under the same names.
    public static func == (a: AdaptPlanRequest, b: AdaptPlanRequest) -> Bool {
        a.currentPlan == b.currentPlan && a.input == b.input && a.name == b.name && a.planName == b.planName && a.planNode == b.planNode
    }

    /// Hashes the plan, the input and the names (where the plan was read is left to `==`).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(currentPlan)
        hasher.combine(input)
        hasher.combine(name)
        hasher.combine(planName)
    }

    /// The plan a request adapts. adapt's own response (`patched_plan`, `change_log`, …) is
    /// accepted as it is, so a result can be adapted again: its patched plan is the plan.
    static func planToAdapt(_ document: Value) -> Value {
        guard case .map(let root) = document, root["workouts"] == nil, let patched = root["patched_plan"] else { return document }
        return patched
    }

    /// The node of the plan ``planToAdapt(_:)`` picks out of `node` (the document as read).
    static func planNodeToAdapt(_ node: LocatedNode) -> LocatedNode {
        guard node["workouts"] == nil, let patched = node["patched_plan"] else { return node }
        return patched
    }

    /// The plan's problems, each placed at its field (`plan.workouts[0].day`) in the plan as read
    /// (a missing field at the mapping it is missing from); unchanged when the plan was not read
    /// from text.
    func locatedPlanProblems(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard let planNode else { return diagnostics }
        let fields = RequestFieldLocation(root: Self.planNodeToAdapt(planNode), firstIndex: 0)
        return diagnostics.map { diagnostic in
            guard diagnostic.location == nil, let field = diagnostic.field else { return diagnostic }
            var located = diagnostic
            // Fields are named from the plan (`plan.kcal`); the walk starts at the plan itself.
            located.location = fields.node(at: field == "plan" ? "" : field.hasPrefix("plan.") ? String(field.dropFirst(5)) : field).location
            return located
        }
    }
}

extension AdaptPlanRequest {
    /// The plan file of `regimen adapt PLAN CHECKINS`, read with the place of each of its nodes
    /// so that the plan's problems found later are placed at their line and column.
    package struct PlanFile: Sendable {
        /// The file's name in problems.
        package let name: String
        let document: LocatedNode

        /// Reads the plan's text (JSON or YAML) from the file named `name`.
        /// - Throws: ``RegimenError/Code/request`` with each syntax error at its line and
        ///   column, or naming the file when it is empty.
        package init(text: String, name: String) throws(RegimenError) {
            let read = YAMLReader.read(text, file: name)
            let errors = read.diagnostics.filter { $0.severity == .error }
            guard errors.isEmpty, let document = read.document else {
                let problems = errors.isEmpty ? [.error("request.empty", "plan file '\(name)' is empty", at: nil)] : errors.sorted(by: Diagnostic.sortKey)
                throw .request(problems, input: nil)
            }
            self.name = name
            self.document = document
        }
    }
}
