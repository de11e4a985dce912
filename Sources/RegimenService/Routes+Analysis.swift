import Foundation
import Hummingbird
import RegimenKit
import RegimenAnalysis

extension ServiceRoutes {
    /// The simulator's symbolic analysis (issue 37), the page's "Check a property" and "Compare
    /// with the served version": the queries of `regimen rules prove` and `regimen rules diff`,
    /// asked of a served or pasted Firestore policy. Registered from ``addPlayground(to:)``, so
    /// they exist only while the playground is on.
    ///
    /// The solver runs as a separate process; each query is bounded by ``AnalysisSettings``, and a
    /// request stops asking new paths once it has used ``AnalysisSettings/askingShare`` of the
    /// time budget: the paths it did not reach are answered "unknown (not asked …)", so a partial
    /// answer never reads as a proof and the worker is free before the budget ends.
    func addAnalysis(to router: Router<ServiceContext>) {
        let settings = playground.analysis, budget = timeBudget
        heavy(router, "/v1/playground/simulator/prove") { body, token in
            let fields = try Self.simulatorFields(try body.document(), keys: Self.proveKeys)
            let policy = try Self.analysedPolicy(Self.simulatedPolicy(fields, body.snapshot))
            guard case .string(let scope)? = fields["scope"], let shapes = PolicyAnalysis.shapes(inScope: scope) else {
                throw ServiceError(.unprocessableContent, "analysis.scope", "'scope' is a method and a document path pattern, e.g. \"write /users/{uid}/**\" (read, write, get, create, update, delete)", path: "scope")
            }
            let question = try Self.question(fields)
            let analysis = try settings.analysis(budget: budget)
            let proceed = settings.proceed(budget: budget, token: token)
            let entries: [PolicyAnalysis.Entry]
            switch question {
            case .assertion(let assertion):
                do {
                    entries = try analysis.prove(policy, scope: scope, assertion: assertion, proceed: proceed)
                } catch let error as any DiagnosticError {
                    throw ServiceError(.unprocessableContent, problems: error.diagnostics.map {
                        ServiceError.Problem(id: "analysis.assert", message: "assert: \($0.message)", path: "assert")
                    })
                }
            case .query(let query):
                entries = analysis.ask(query, of: policy, for: shapes, proceed: proceed)
            }
            try token.checkpoint()
            return Self.json(.map([
                "policy": Self.policyValue(policy), "scope": .string(scope), "question": question.value,
                "proved": .bool(entries.allSatisfy(\.first.isProved)),
                "entries": .list(entries.map(\.proofValue)),
            ]))
        }
        heavy(router, "/v1/playground/simulator/compare") { body, token in
            let fields = try Self.simulatorFields(try body.document(), keys: Self.compareKeys)
            guard case .string(let name)? = fields["policy"] else {
                throw ServiceError(.unprocessableContent, "analysis.policy", "'policy' is required: the served policy to compare with (GET /v1/policies lists them)", path: "policy")
            }
            guard case .string(let text)? = fields["policyText"] else {
                throw ServiceError(.unprocessableContent, "analysis.policy-text", "'policyText' is required: the edited version of the policy", path: "policyText")
            }
            let served = try Self.analysedPolicy(Self.servedPolicy(name, body.snapshot))
            let edited = try Self.analysedPolicy(Self.pastedPolicy(text, fields))
            let analysis = try settings.analysis(budget: budget)
            let entries = analysis.diff(served, edited, proceed: settings.proceed(budget: budget, token: token))
            try token.checkpoint()
            let (differences, open) = PolicyAnalysis.tally(entries)
            return Self.json(.map([
                "policy": Self.policyValue(served),
                "equivalent": .bool(differences + open == 0),
                "differences": .int(Int64(differences)), "open": .int(Int64(open)),
                "entries": .list(entries.map(\.comparisonValue)),
            ]))
        }
    }

    private static let proveKeys: Set<String> = ["policy", "policyText", "syntax", "scope", "assert", "query"]
    private static let compareKeys: Set<String> = ["policy", "policyText", "syntax"]

    /// What a proof asks: every allowed request satisfies an assertion, or one of the queries.
    private enum Question {
        case assertion(String)
        case query(PolicyAnalysis.Query)

        var value: Value {
            switch self {
            case .assertion(let text): .map(["assert": .string(text)])
            case .query(let query): .map(["query": .string(query.rawValue)])
            }
        }
    }

    private static func question(_ fields: Value.Map) throws(ServiceError) -> Question {
        switch (fields["assert"], fields["query"]) {
        case (.string(let text)?, nil):
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw ServiceError(.unprocessableContent, "analysis.assert", "'assert' is empty; write a condition such as request.auth.uid == uid", path: "assert")
            }
            return .assertion(text)
        case (nil, .string(let word)?):
            guard let query = PolicyAnalysis.Query(rawValue: word) else {
                throw ServiceError(.unprocessableContent, "analysis.query", "'query' must be one of \(PolicyAnalysis.Query.allCases.map(\.rawValue).joined(separator: ", "))", path: "query")
            }
            return .query(query)
        default:
            throw ServiceError(.unprocessableContent, "analysis.question", "give 'assert' (a condition every allowed request satisfies) or 'query' (always-allows, always-denies, never-errors), one of them, as text", path: "assert")
        }
    }

    /// The analysis covers Firestore policies only (Storage rules are decided, not analysed).
    private static func analysedPolicy(_ policy: Policy) throws(ServiceError) -> Policy {
        guard policy.service == .firestore else {
            throw ServiceError(.unprocessableContent, "analysis.service", "'\(policy.name)' is a \(policy.service) policy; the analysis covers Firestore policies (service cloud.firestore) only", path: "policy")
        }
        return policy
    }
}

/// The solver the playground's analysis runs, and how long it may take.
struct AnalysisSettings: Sendable {
    /// The SMT-LIB 2 solver: a name on `PATH` or a path (`serve --solver`).
    let solver: String
    /// The most one solver query may take; the time budget may make it shorter.
    let queryTimeout: Duration
    /// The share of the time budget a request spends starting queries; the rest is left for the
    /// queries under way (a comparison runs up to four solver calls per path).
    static let askingShare = 0.4

    /// The analysis, each query bounded by the smaller of ``queryTimeout`` and a tenth of the
    /// budget; 503 when the solver is not installed.
    func analysis(budget: Duration) throws(ServiceError) -> PolicyAnalysis {
        let seconds = min(Self.seconds(queryTimeout), Self.seconds(budget) / 10)
        guard let analysis = PolicyAnalysis(solver: solver, timeoutSeconds: seconds) else {
            throw ServiceError(.serviceUnavailable, "analysis.no-solver", "this service has no SMT solver '\(solver)' (install z3, or start it with serve --solver PATH)")
        }
        return analysis
    }

    /// True while the request has used less than ``askingShare`` of `budget` and is not cancelled.
    func proceed(budget: Duration, token: WorkToken) -> () -> Bool {
        let clock = ContinuousClock(), stop = clock.now + budget * Self.askingShare
        return { token.proceed() && clock.now < stop }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
