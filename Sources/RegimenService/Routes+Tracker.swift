import Foundation
import Hummingbird
import RegimenKit

extension ServiceRoutes {
    /// The tracker and burn commands: a tree or a log in, the command's JSON out; the command's
    /// options are query parameters of the same names.
    func addTracker(to router: Router<ServiceContext>) {
        heavy(router, "/v1/tracker/validate") { body, _ in
            let (snapshot, tree) = try Self.tree(body)
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.validate(tree) })
        }
        heavy(router, "/v1/tracker/export") { body, _ in
            let (_, tree) = try Self.tree(body)
            switch Self.query(body.request, "to") ?? "json" {
            case "json": return Self.json(tree)
            case "csv": return JSONResponse.make(json: tree.csv(), contentType: "text/csv; charset=utf-8")
            case let other:
                throw ServiceError(.unprocessableContent, "query.to", "'to' must be json or csv, not '\(other)'", path: "to")
            }
        }
        heavy(router, "/v1/tracker/analytics") { body, _ in
            let (snapshot, tree) = try Self.tree(body)
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.analytics(tree) })
        }
        heavy(router, "/v1/tracker/duplicate") { body, _ in
            let (snapshot, tree) = try Self.tree(body)
            let request = body.request
            let levels: [(TrackerLevel, String)] = [(.program, "program"), (.week, "week"), (.workout, "workout"), (.exercise, "exercise")]
            let chosen = levels.compactMap { level, name in Self.query(request, name).map { (level, $0) } }
            guard chosen.count == 1, let (level, id) = chosen.first else {
                throw ServiceError(.unprocessableContent, "query.level", "name exactly one of program, week, workout or exercise (the id of the document to copy)", path: "program")
            }
            let now = try Self.time(request, "now")
            let seed = try Self.integer(request, "seed").map { UInt64(bitPattern: Int64($0)) }
            let repair = try Self.flag(request, "repair")
            let user = Self.query(request, "user")
            do throws(ServiceError) {
                return Self.json(try Self.engine { () throws(RegimenError) in
                    try snapshot.engine.duplicate(level, id: id, in: tree, user: user, now: now, seed: seed, repair: repair)
                })
            } catch var error {
                // No document with that id: the resource named by the query is not found (404),
                // not an unprocessable body (422).
                if error.problems.contains(where: { $0.id == "duplicate.not-found" }) { error.status = .notFound }
                throw error
            }
        }
        heavy(router, "/v1/progress") { body, _ in
            let snapshot = body.snapshot, data = body.data, request = body.request
            _ = try body.document()
            let today = try Self.integer(request, "today")
            let now = try Self.time(request, "now")
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.progress(data, name: "<body>", today: today, present: now) })
        }
        heavy(router, "/v1/daily-log") { body, _ in
            let snapshot = body.snapshot, data = body.data, request = body.request
            _ = try body.document()
            let now = try Self.time(request, "now")
            var timeZone = TimeZone(secondsFromGMT: 0) ?? .current
            if let name = Self.query(request, "tz") {
                guard let zone = TimeZone(identifier: name) else {
                    throw ServiceError(.unprocessableContent, "query.tz", "'tz' must be an IANA time zone such as America/New_York, not '\(name)'", path: "tz")
                }
                timeZone = zone
            }
            let formula = Self.query(request, "formula")
            return Self.json(try Self.engine { () throws(RegimenError) in
                try snapshot.engine.dailyLog(data, name: "<body>", present: now, timeZone: timeZone, formula: formula)
            })
        }
        route(router, .get, "/v1/burn") { request, context in
            let snapshot = try Self.snapshot(context)
            var problems: [ServiceError.Problem] = []
            for name in ["activity", "minutes", "intensity"] where Self.query(request, name) == nil {
                problems.append(ServiceError.Problem(id: "query.required", message: "'\(name)' is required", path: name))
            }
            guard problems.isEmpty else { throw ServiceError(.unprocessableContent, problems: problems) }
            let activity = Self.query(request, "activity") ?? ""
            let intensity = Self.query(request, "intensity") ?? ""
            let minutes = try Self.integer(request, "minutes") ?? 0
            let weight = try Self.number(request, "weight")
            let formula = Self.query(request, "formula")
            return Self.json(try Self.engine { () throws(RegimenError) in
                try snapshot.engine.burn(activity: activity, minutes: minutes, intensity: intensity, weightKg: weight, formula: formula)
            })
        }
        route(router, .get, "/v1/periodize") { request, context in
            let snapshot = try Self.snapshot(context)
            guard let weeks = try Self.integer(request, "weeks"), let goal = Self.query(request, "goal") else {
                throw ServiceError(.unprocessableContent, "query.required", "'weeks' and 'goal' are required", path: Self.query(request, "weeks") == nil ? "weeks" : "goal")
            }
            let start = try Self.number(request, "start-intensity"), end = try Self.number(request, "end-intensity")
            var ramp: (start: Double, end: Double)?
            switch (start, end) {
            case (let start?, let end?): ramp = (start, end)
            case (nil, nil): ramp = nil
            default:
                throw ServiceError(.unprocessableContent, "query.ramp", "'start-intensity' and 'end-intensity' come together", path: start == nil ? "start-intensity" : "end-intensity")
            }
            return Self.json(try Self.engine { () throws(RegimenError) in try snapshot.engine.periodize(weeks: weeks, goal: goal, ramp: ramp) })
        }
    }

    /// The body as a workout tracker tree.
    private static func tree(_ body: BodyRequest) throws(ServiceError) -> (RuleSnapshot, TrackerTree) {
        let snapshot = body.snapshot, data = body.data
        _ = try body.document()
        let tree = try engine { () throws(RegimenError) in try snapshot.engine.trackerTree(from: data, name: "<body>") }
        return (snapshot, tree)
    }
}
