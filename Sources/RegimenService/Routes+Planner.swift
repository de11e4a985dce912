import Foundation
import Hummingbird
import RegimenKit

extension ServiceRoutes {
    /// The seed's planner functions: a profile (or the adaptPlan request) in, its contract out.
    func addPlanner(to router: Router<ServiceContext>) {
        heavy(router, "/v1/indexes") { body, token in
            let (snapshot, profile) = try Self.profile(body, token)
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.indexes(profile) })
        }
        heavy(router, "/v1/plans") { body, token in
            let (snapshot, profile) = try Self.profile(body, token)
            let split = Self.query(body.request, "split")
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.generatePlan(profile, split: split) })
        }
        heavy(router, "/v1/nutrition") { body, token in
            let (snapshot, profile) = try Self.profile(body, token)
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.nutrition(profile) })
        }
        heavy(router, "/v1/supplements") { body, token in
            let (snapshot, profile) = try Self.profile(body, token)
            let goal = Self.query(body.request, "goal")
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.supplements(for: profile, goal: goal) })
        }
        heavy(router, "/v1/adapt") { body, token in
            let snapshot = body.snapshot, data = body.data
            _ = try body.document()
            try token.checkpoint()
            return Self.json(try Self.engine { () throws(RegimenError) in
                try snapshot.engine.adaptPlan(try AdaptPlanRequest(json: data, name: "<body>"))
            })
        }
        heavy(router, "/v1/diff") { body, token in
            let snapshot = body.snapshot
            let value = try body.document()
            guard case .map(let fields) = value else {
                throw ServiceError(.unprocessableContent, "diff.body", "the body must be {\"old\": PROFILE, \"new\": PROFILE}", path: "<body>")
            }
            var profiles: [Profile] = []
            var problems: [ServiceError.Problem] = []
            for key in ["old", "new"] {
                guard let field = fields[key] else {
                    problems.append(ServiceError.Problem(id: "diff.body", message: "'\(key)' is required: the profile \(key == "old" ? "before" : "after")", path: key))
                    continue
                }
                do throws(RegimenError) {
                    profiles.append(try snapshot.engine.profile(from: Data(field.jsonString().utf8), name: key))
                } catch {
                    problems += ServiceError(error).problems.map { problem in
                        var problem = problem
                        problem.path = problem.path.map { "\(key).\($0)" } ?? key
                        return problem
                    }
                }
            }
            let unknown = fields.keys.filter { $0 != "old" && $0 != "new" }
            problems += unknown.map { ServiceError.Problem(id: "diff.body", message: "unknown key '\($0)'; the body has 'old' and 'new'", path: $0) }
            guard problems.isEmpty, profiles.count == 2 else { throw ServiceError(.unprocessableContent, problems: problems) }
            try token.checkpoint()
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.diff(old: profiles[0], new: profiles[1]) })
        }
    }

    /// The body as a profile, read as `regimen plan PROFILE` reads its file; then a checkpoint,
    /// so a job cancelled while it read plans nothing.
    private static func profile(_ body: BodyRequest, _ token: WorkToken) throws -> (RuleSnapshot, Profile) {
        let snapshot = body.snapshot, data = body.data
        _ = try body.document()
        let profile = try engine { () throws(RegimenError) in try snapshot.engine.profile(from: data, name: "<body>") }
        try token.checkpoint()
        return (snapshot, profile)
    }
}
