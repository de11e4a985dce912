import Foundation
import Hummingbird
import RegimenKit

extension ServiceRoutes {
    /// The seed's planner functions: a profile (or the adaptPlan request) in, its contract out.
    func addPlanner(to router: Router<ServiceContext>) {
        route(router, .post, "/v1/indexes") { request, context in
            let (snapshot, profile) = try await profile(request, context)
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.indexes(profile) })
        }
        route(router, .post, "/v1/plans") { request, context in
            let (snapshot, profile) = try await profile(request, context)
            let split = Self.query(request, "split")
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.generatePlan(profile, split: split) })
        }
        route(router, .post, "/v1/nutrition") { request, context in
            let (snapshot, profile) = try await profile(request, context)
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.nutrition(profile) })
        }
        route(router, .post, "/v1/supplements") { request, context in
            let (snapshot, profile) = try await profile(request, context)
            let goal = Self.query(request, "goal")
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.supplements(for: profile, goal: goal) })
        }
        route(router, .post, "/v1/adapt") { request, context in
            let snapshot = try Self.snapshot(context)
            let (data, _) = try await document(request, snapshot)
            return Self.json(try Self.engine { () throws(RegimenError) in
                try snapshot.engine.adaptPlan(try AdaptPlanRequest(json: data, name: "<body>"))
            })
        }
        route(router, .post, "/v1/diff") { request, context in
            let snapshot = try Self.snapshot(context)
            let (_, value) = try await document(request, snapshot)
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
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.diff(old: profiles[0], new: profiles[1]) })
        }
    }

    /// The body as a profile, read as `regimen plan PROFILE` reads its file.
    private func profile(_ request: Request, _ context: ServiceContext) async throws(ServiceError) -> (RuleSnapshot, Profile) {
        let snapshot = try Self.snapshot(context)
        let (data, _) = try await document(request, snapshot)
        let profile = try Self.engine { () throws(RegimenError) in try snapshot.engine.profile(from: data, name: "<body>") }
        return (snapshot, profile)
    }
}
