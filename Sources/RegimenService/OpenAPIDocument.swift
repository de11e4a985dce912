import RegimenKit

/// The service's OpenAPI 3.1 document: every route, its parameters, bodies and responses.
/// Written by hand beside the routes; a test compares its paths with the router's routes.
enum OpenAPIDocument {
    /// One documented operation.
    struct Operation {
        var method: String
        var path: String
        var summary: String
        /// The request body's schema (a component name), or `nil` for none.
        var body: String?
        var query: [(name: String, type: String, description: String)] = []
        /// The success response's schema (a component name) and content type.
        var response: String
        var responseType = "application/json"
        /// Error statuses beyond those every operation with a body can answer.
        var errors: [Int] = []
    }

    static let operations: [Operation] = [
        Operation(method: "post", path: "/v1/indexes", summary: "recalculateIndexes (seed §8.1): BMR, TDEE, BMI, WHtR, FFMI, accuracy.", body: "Profile", response: "IndexReport"),
        Operation(method: "post", path: "/v1/plans", summary: "generatePlan (seed §8.2): indexes, kcal, macros, workouts, ingredients.", body: "Profile",
                  query: [("split", "string", "A split the rules offer for the profile's days, such as full_body_3.")], response: "GeneratedPlan"),
        Operation(method: "post", path: "/v1/adapt", summary: "adaptPlan (seed §8.3): the plan patched by readiness, sessions and weight trend.", body: "AdaptPlanRequest", response: "AdaptationResult"),
        Operation(method: "post", path: "/v1/nutrition", summary: "Daily kcal and macros with every meal's ingredient options.", body: "Profile", response: "NutritionPlan"),
        Operation(method: "post", path: "/v1/diff", summary: "What a profile change recomputes, by the auto-adjust matrix.", body: "ProfileDiffRequest", response: "ProfileDiff"),
        Operation(method: "post", path: "/v1/supplements", summary: "The safety-first supplements shortlist.", body: "Profile",
                  query: [("goal", "string", "A goal of rules/goals.yaml or a supplement goal of the catalog.")], response: "SupplementAdvice"),
        Operation(method: "post", path: "/v1/tracker/validate", summary: "Validates a workout tracker tree.", body: "TrackerTree", response: "TrackerValidationReport"),
        Operation(method: "post", path: "/v1/tracker/export", summary: "Exports a tracker tree as JSON or CSV.", body: "TrackerTree",
                  query: [("to", "string", "json (default) or csv.")], response: "TrackerTree"),
        Operation(method: "post", path: "/v1/tracker/analytics", summary: "Workout counts, frequencies, weekly volume and records.", body: "TrackerTree", response: "TrackerAnalytics"),
        Operation(method: "post", path: "/v1/tracker/duplicate", summary: "Deep-copies a program, week, workout or exercise.", body: "TrackerTree",
                  query: [("program", "string", "Id of the program to copy."), ("week", "string", "Id of the week to copy."),
                          ("workout", "string", "Id of the workout to copy."), ("exercise", "string", "Id of the exercise to copy."),
                          ("user", "string", "The signed-in user; the tree must be theirs."), ("now", "string", "Time stamped on the copies (RFC 3339)."),
                          ("seed", "integer", "Seed for the new ids."), ("repair", "boolean", "Copy a source with errors by leaving invalid optional fields out.")],
                  response: "DuplicationResult", errors: [403, 404]),
        Operation(method: "post", path: "/v1/progress", summary: "A student's progress on a workout from a completion log.", body: "CompletionLog",
                  query: [("today", "integer", "The day to compute on (1 = startDate)."), ("now", "string", "The present (RFC 3339).")], response: "StudentProgress"),
        Operation(method: "post", path: "/v1/daily-log", summary: "A food and workout log totalled per calendar day.", body: "DailyLog",
                  query: [("now", "string", "The present (RFC 3339)."), ("tz", "string", "IANA time zone of the calendar days (UTC by default)."),
                          ("formula", "string", "A formula of rules/calorie-burn.yaml.")], response: "DailyTotals"),
        Operation(method: "get", path: "/v1/burn", summary: "Calories an activity burns (2011 Compendium MET).",
                  query: [("activity", "string", "An activity id, such as running (required)."), ("minutes", "integer", "Duration, 1–1440 (required)."),
                          ("intensity", "string", "light, moderate or vigorous (required)."), ("weight", "number", "Body weight in kg."),
                          ("formula", "string", "A formula of rules/calorie-burn.yaml.")], response: "BurnResult"),
        Operation(method: "get", path: "/v1/periodize", summary: "A plan's phases and each week's intensity, RPE and protocol.",
                  query: [("weeks", "integer", "Plan length in weeks (required)."), ("goal", "string", "strength, lean_mass, fat_loss or recomp (required)."),
                          ("start-intensity", "number", "The first training week's intensity (with end-intensity)."),
                          ("end-intensity", "number", "The last training week's intensity (with start-intensity).")], response: "PeriodizedPlan"),
        Operation(method: "get", path: "/v1/policies", summary: "The policies served, by name.", response: "PolicyList"),
        Operation(method: "post", path: "/v1/policies/{name}:authorize", summary: "Decides one request, or a batch (one decision per element, in order).",
                  body: "AuthorizeBody", query: [("explain", "boolean", "Add every candidate allow statement and what decided it.")], response: "AuthorizeResult", errors: [401, 403, 404]),
        Operation(method: "post", path: "/v1/policies/{name}:test", summary: "Runs a security-tests body against the policy; JSON or JUnit XML.",
                  body: "SecurityTests", query: [("format", "string", "json (default) or junit; or send Accept: application/xml.")], response: "TestReport", errors: [404]),
        Operation(method: "get", path: "/v1/rules", summary: "The serving revision, its files and kinds, and the last failed reload.", response: "RulesInfo"),
        Operation(method: "get", path: "/v1/playground/file", summary: "Playground: a served rule or catalog file's text (only while the playground is on).",
                  query: [("path", "string", "The file as GET /v1/rules names it, such as rules/nutrition.yaml (required).")], response: "PlaygroundFile", errors: [404]),
        Operation(method: "post", path: "/v1/playground/check", summary: "Playground: every diagnostic of the served rules with one file's text replaced, as regimen check reports them.",
                  body: "PlaygroundEdit", response: "PlaygroundCheck", errors: [404]),
        Operation(method: "post", path: "/v1/playground/plan", summary: "Playground: one client's plan under the served rules and under them with one file replaced, and what changed.",
                  body: "PlaygroundPlanRequest", response: "PlaygroundPlan", errors: [404]),
        Operation(method: "post", path: "/v1/playground/impact", summary: "Playground: what one replaced file changes across the panel, grouped as regimen impact groups it.",
                  body: "PlaygroundEdit", response: "PlaygroundImpact", errors: [404]),
        Operation(method: "get", path: "/v1/playground/panel", summary: "Playground: the panel's client profiles, by file name (only while the playground is on).", response: "PlaygroundPanel"),
        Operation(method: "post", path: "/v1/admin/reload", summary: "Reloads the rules now (needs the admin bearer token).",
                  query: [("allow-row-loss", "boolean", "Serve the set even when a table lost more rows than --max-row-loss allows.")],
                  response: "ReloadResult", errors: [401, 403, 404, 409]),
        Operation(method: "get", path: "/healthz", summary: "The process is up.", response: "Status"),
        Operation(method: "get", path: "/readyz", summary: "Rules are loaded and serving: the served revision, its age, and the last reload that failed since (status ready-stale).",
                  response: "Readiness"),
        Operation(method: "get", path: "/metrics", summary: "Prometheus metrics.", response: "Text", responseType: "text/plain"),
        Operation(method: "get", path: "/openapi.json", summary: "This document.", response: "Document"),
    ] + simulatorOperations

    /// The document's JSON text (keys sorted), with the served policy names as the values the
    /// `{name}` parameter takes.
    static func json(policies: [String]) -> String { document(policies: policies).jsonString(pretty: true) + "\n" }

    private static let statusText: [Int: String] = [
        400: "The body is not one readable JSON or YAML document.", 401: "A bearer token is missing or refused; the error's id names why (token.expired, token.signature, …).", 403: "Refused.",
        404: "No such route, policy or file (playground routes are 404 while the playground is off).", 409: "The rules on disk did not load; the last good set serves.",
        413: "The body is larger than the limit.", 415: "The content type is not JSON or YAML.",
        429: "The caller's key is over its rate limit; retry after Retry-After seconds.",
        422: "The body or a parameter breaks the contract; each problem names its field.",
        503: "The service is busy (every work thread taken and the queue full) or the request exceeded its time budget; retry after Retry-After.",
    ]

    static func document(policies: [String]) -> Value {
        var paths: Value.Map = [:]
        for operation in operations {
            var entry: Value.Map = [
                "summary": .string(operation.summary),
                "operationId": .string(operationID(operation)),
            ]
            var parameters: [Value] = operation.query.map { parameter in
                .map(["name": .string(parameter.name), "in": .string("query"), "required": .bool(false),
                      "description": .string(parameter.description), "schema": .map(["type": .string(parameter.type)])])
            }
            if operation.path.contains("{name}") {
                parameters.insert(.map([
                    "name": .string("name"), "in": .string("path"), "required": .bool(true),
                    "description": .string("The policy's path under the policies folder without extension, such as workout-tracker/corrected."),
                    "schema": .map(["type": .string("string"), "enum": .list(policies.map(Value.string))]),
                ]), at: 0)
            }
            parameters.append(traceParentParameter)
            entry["parameters"] = .list(parameters)
            var statuses = operation.errors
            if let body = operation.body {
                entry["requestBody"] = .map(["required": .bool(true), "content": .map([
                    "application/json": .map(["schema": reference(body)]),
                    "application/yaml": .map(["schema": reference(body)]),
                ])])
                statuses += [400, 413, 415]
            }
            if !operation.query.isEmpty || operation.body != nil { statuses.append(422) }
            statuses.append(503)
            statuses += callerStatuses(operation)
            var responses: Value.Map = [
                "200": .map(["description": .string("OK"), "headers": responseHeaders,
                             "content": .map([operation.responseType: .map(["schema": reference(operation.response)])])]),
            ]
            if operation.response == "TestReport" {
                responses["200"] = .map(["description": .string("OK"), "headers": responseHeaders, "content": .map([
                    "application/json": .map(["schema": reference("TestReport")]),
                    "application/xml": .map(["schema": .map(["type": .string("string")])]),
                ])])
            }
            if operation.path == "/v1/tracker/export" {
                responses["200"] = .map(["description": .string("OK"), "headers": responseHeaders, "content": .map([
                    "application/json": .map(["schema": reference("TrackerTree")]),
                    "text/csv": .map(["schema": .map(["type": .string("string")])]),
                ])])
            }
            for status in Set(statuses).sorted() {
                responses[String(status)] = .map([
                    "description": .string(statusText[status] ?? "Error."), "headers": responseHeaders,
                    "content": .map(["application/json": .map(["schema": reference("Error")])]),
                ])
            }
            entry["responses"] = .map(responses)
            if let security = security(operation) { entry["security"] = security }
            var methods: Value.Map = paths[operation.path].flatMap { if case .map(let m) = $0 { m } else { nil } } ?? [:]
            methods[operation.method] = .map(entry)
            paths[operation.path] = .map(methods)
        }
        return .map([
            "openapi": .string("3.1.0"),
            "info": .map([
                "title": .string("Regimen"),
                "version": .string("1"),
                "description": .string("The seed's planner contracts, the tracker, and security policy decisions over HTTP. Every response carries the serving rules revision in Regimen-Revision."),
            ]),
            "paths": .map(paths),
            "components": .map([
                "schemas": .map(schemas.merging(simulatorSchemas) { own, _ in own }),
                "securitySchemes": securitySchemes,
            ]),
        ])
    }

    private static func operationID(_ operation: Operation) -> String {
        let words = (operation.method + operation.path).split { !$0.isLetter && !$0.isNumber }
        return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }

    static func reference(_ name: String) -> Value { .map(["$ref": .string("#/components/schemas/\(name)")]) }

    /// The headers every answer may carry.
    private static let responseHeaders: Value = .map([
        "Regimen-Revision": .map(["description": .string("The rules revision that computed the response."), "schema": .map(["type": .string("string")])]),
        "traceresponse": .map([
            "description": .string(
                "W3C Trace Context Level 2: the trace and span that answered, as version-traceid-spanid-flags. Only when the service traces (regimen serve --otel-endpoint)."),
            "schema": traceContextSchema,
        ]),
    ])

    /// W3C Trace Context's `traceparent` (and `traceresponse`) text: version, trace id, span id, flags.
    private static let traceContextSchema: Value = .map([
        "type": .string("string"), "pattern": .string("^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$"),
    ])

    /// Every operation takes the caller's trace: with `--otel-endpoint`, its spans join that
    /// trace as children of the caller's span; otherwise the header is ignored.
    private static let traceParentParameter: Value = .map([
        "name": .string("traceparent"), "in": .string("header"), "required": .bool(false),
        "description": .string(
            "W3C Trace Context: the caller's trace and span. When the service traces (--otel-endpoint), the request's spans continue this trace; a missing or malformed one starts a new trace."),
        "schema": traceContextSchema,
    ])

    static func object(_ properties: [String: Value] = [:], required: [String] = [], additional: Bool = true) -> Value {
        var fields: Value.Map = ["type": .string("object")]
        if !properties.isEmpty {
            var map: Value.Map = [:]
            for key in properties.keys.sorted() { map[key] = properties[key] }
            fields["properties"] = .map(map)
        }
        if !required.isEmpty { fields["required"] = .list(required.map(Value.string)) }
        if !additional { fields["additionalProperties"] = .bool(false) }
        return .map(fields)
    }

    static func type(_ name: String) -> Value { .map(["type": .string(name)]) }
    static func types(_ names: String...) -> Value { .map(["type": .list(names.map(Value.string))]) }
    static func strings(_ values: String...) -> Value { .map(["type": .string("string"), "enum": .list(values.map(Value.string))]) }
    static func list(_ items: Value) -> Value { .map(["type": .string("array"), "items": items]) }

    private static var schemas: Value.Map {
        let problem = object(["id": type("string"), "message": type("string"), "path": type("string"),
                              "line": type("integer"), "column": type("integer")], required: ["id", "message"])
        let decision = object([
            "decision": strings("allow", "deny"), "allowed": type("boolean"), "method": types("string", "null"), "path": type("string"),
            "reason": type("string"), "grantedBy": type("string"), "evaluations": list(object()),
        ], required: ["decision", "allowed", "method", "path", "reason"])
        return [
            "Error": object(["error": problem, "problems": list(problem)], required: ["error", "problems"]),
            "Profile": object([
                "sex": strings("male", "female"), "goal": type("string"), "schedule_days": type("integer"), "equipment": type("string"),
                "experience": type("string"), "injuries": list(type("string")), "age_range": type("string"), "height_cm": type("number"),
                "weight_kg": type("number"), "bodyfat_pct": type("number"), "waist_cm": type("number"), "overrides": object(), "budget_tier": type("string"),
            ]),
            "IndexReport": object(["BMR": type("number"), "TDEE": type("number"), "method": type("string"), "accuracy": type("string")]),
            "GeneratedPlan": object(["idx": object(), "kcal": type("number"), "macros": object(), "workouts": list(object()), "ingredients": object(),
                                     "confidence": type("string"), "tips": list(type("string"))]),
            "AdaptPlanRequest": object(["current_plan": object(), "readiness": object(), "last_week_adherence_pct": type("number"),
                                        "weight_trend_2w": type("string")], required: ["current_plan"]),
            "AdaptationResult": object(["patched_plan": object(), "change_log": list(type("string"))]),
            "NutritionPlan": object(),
            "ProfileDiffRequest": object(["old": reference("Profile"), "new": reference("Profile")], required: ["old", "new"], additional: false),
            "ProfileDiff": object(),
            "SupplementAdvice": object(),
            "TrackerTree": object(["programs": list(object())]),
            "TrackerValidationReport": object(["documents": type("integer"), "violations": list(object())]),
            "TrackerAnalytics": object(),
            "DuplicationResult": object(["audit": object(), "idMap": list(object(["old": type("string"), "new": type("string")], required: ["old", "new"])), "batches": list(types("object", "array")), "tree": object()]),
            "CompletionLog": object(["workoutId": type("string"), "studentId": type("string"), "completedDays": list(type("integer"))]),
            "StudentProgress": object(),
            "DailyLog": object(["weight_kg": type("number"), "foods": list(object()), "workouts": list(object())]),
            "DailyTotals": list(object()),
            "BurnResult": object(),
            "PeriodizedPlan": object(),
            "PolicyList": object(["policies": list(object(["name": type("string"), "service": type("string"), "tests": type("boolean")]))], required: ["policies"]),
            "AuthorizeRequest": object([
                "get": type("string"), "list": type("string"), "create": type("string"), "update": type("string"), "set": type("string"),
                "delete": type("string"), "upload": type("string"), "download": type("string"), "auth": types("object", "null"),
                "data": object(), "query": object(), "time": type("string"), "documents": object(), "size": type("integer"),
                "contentType": type("string"), "metadata": object(),
            ]),
            "AuthorizeBody": .map(["anyOf": .list([
                reference("AuthorizeRequest"),
                list(reference("AuthorizeRequest")),
                object(["requests": list(reference("AuthorizeRequest")), "documents": object()], required: ["requests"], additional: false),
            ])]),
            "Decision": decision,
            "AuthorizeResult": .map(["anyOf": .list([reference("Decision"), list(reference("Decision"))])]),
            "SecurityTests": object(["kind": strings("security_tests", "security-tests"), "version": type("integer"), "documents": object(),
                                     "time": type("string"), "cases": list(object())], required: ["kind", "version", "cases"]),
            "TestReport": object(["cases": list(object()), "passed": type("integer"), "failed": type("integer")], required: ["cases", "passed", "failed"]),
            "RulesInfo": object([
                "revision": type("string"), "loaded_at": type("string"), "age_seconds": type("integer"),
                "files": list(object(["path": type("string"), "kind": type("string")], required: ["path", "kind"])),
                "policies": list(type("string")), "last_failed_reload": types("object", "null"), "playground": type("boolean"),
            ], required: ["revision", "loaded_at", "age_seconds", "files", "policies", "last_failed_reload", "playground"]),
            "Readiness": object([
                "status": strings("ready", "ready-stale"), "revision": type("string"), "loaded_at": type("string"), "age_seconds": type("integer"),
                "last_failed_reload": types("object", "null"),
            ], required: ["status", "revision", "loaded_at", "age_seconds", "last_failed_reload"]),
            "PlaygroundFile": object(["path": type("string"), "kind": type("string"), "revision": type("string"), "text": type("string")],
                                     required: ["path", "kind", "revision", "text"]),
            "PlaygroundEdit": object(["path": type("string"), "text": type("string")], required: ["path", "text"], additional: false),
            "PlaygroundPlanRequest": object(["path": type("string"), "text": type("string"), "client": type("string"), "profile": reference("Profile")],
                                            required: ["path", "text"], additional: false),
            "PlaygroundDiagnostic": object([
                "id": type("string"), "severity": strings("error", "warning", "note"), "message": type("string"), "file": types("string", "null"),
                "line": types("integer", "null"), "column": types("integer", "null"), "location": types("string", "null"),
                "notes": list(type("string")), "text": type("string"),
            ], required: ["id", "severity", "message", "file", "line", "column", "location", "notes", "text"]),
            "PlaygroundCheck": object(["path": type("string"), "ok": type("boolean"), "errors": type("integer"), "warnings": type("integer"),
                                       "diagnostics": list(reference("PlaygroundDiagnostic"))], required: ["path", "ok", "errors", "warnings", "diagnostics"]),
            "PlaygroundPlanSide": object(["plan": .map(["anyOf": .list([reference("GeneratedPlan"), type("null")])]),
                                          "error": types("array", "null")], required: ["plan", "error"]),
            "PlanChange": object(["measure": type("string"), "before": types("string", "null"), "after": types("string", "null"),
                                  "summary": type("string"), "percent": type("number")], required: ["measure", "before", "after", "summary"]),
            "PlaygroundPlan": object([
                "path": type("string"), "client": type("string"), "served": reference("PlaygroundPlanSide"), "edited": reference("PlaygroundPlanSide"),
                "changed": type("boolean"), "changes": list(reference("PlanChange")),
                "blocks": list(object(["place": type("string"), "served": types("string", "null"), "edited": types("string", "null")],
                                      required: ["place", "served", "edited"])),
            ], required: ["path", "client", "served", "edited", "changed", "changes", "blocks"]),
            "PlaygroundImpact": object([
                "path": type("string"), "clients": type("integer"), "changed": type("integer"), "unchanged": type("integer"),
                "groups": list(object(["summary": type("string"), "clients": list(type("string"))], required: ["summary", "clients"])),
                "per_client": list(object(["client": type("string"), "changes": list(reference("PlanChange"))], required: ["client", "changes"])),
                "text": type("string"),
            ], required: ["path", "clients", "changed", "unchanged", "groups", "per_client", "text"]),
            "PlaygroundPanel": object(["folder": types("string", "null"), "clients": list(type("string"))], required: ["folder", "clients"]),
            "ReloadResult": object(["outcome": strings("unchanged", "loaded"), "revision": type("string")], required: ["outcome", "revision"]),
            "Status": object(["status": type("string"), "revision": type("string")], required: ["status"]),
            "Text": type("string"),
            "Document": object(),
        ]
    }
}
