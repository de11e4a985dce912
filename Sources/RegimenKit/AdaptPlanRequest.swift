public import Foundation
import RegimenCoaching
import RegimenLanguage
import RegimenRules

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
    package var planName: String

    /// Reads the seed's single request shape (JSON or YAML) with the plan under `current_plan`,
    /// as `regimen adapt REQUEST` does.
    /// - Throws: ``RegimenError/Code/request`` listing every problem with its line and column.
    public init(json: Data, name: String = "<request>") throws(RegimenError) {
        try self.init(text: try RequestDocument.text(json, name: name), name: name)
    }

    /// Reads the request from text; see ``init(json:name:)``.
    public init(text: String, name: String = "<request>") throws(RegimenError) {
        let decoded: (plan: Value, input: AdaptationInput)
        do {
            decoded = try AdaptationInputDecoder.decodeRequest(text: text, file: name)
        } catch {
            throw .request(error.diagnostics, input: name)
        }
        self.init(plan: decoded.plan, input: decoded.input, name: name)
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
    }

    /// The two-file form of `regimen adapt PLAN CHECKINS`: the plan (a document read from
    /// `planName`) and the check-ins' text (from `name`), each file naming its own problems.
    package init(plan: Value, planName: String, checkIns: String, name: String) throws(RegimenError) {
        let decoded: AdaptationInput
        do {
            decoded = try AdaptationInputDecoder.decode(text: checkIns, file: name)
        } catch {
            throw .request(error.diagnostics, input: name)
        }
        self.init(plan: plan, input: decoded, name: name, planName: planName)
    }

    /// The plan a request adapts. adapt's own response (`patched_plan`, `change_log`, …) is
    /// accepted as it is, so a result can be adapted again: its patched plan is the plan.
    package static func planToAdapt(_ document: Value) -> Value {
        guard case .map(let root) = document, root["workouts"] == nil, let patched = root["patched_plan"] else { return document }
        return patched
    }
}
