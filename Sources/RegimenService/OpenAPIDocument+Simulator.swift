import RegimenKit

extension OpenAPIDocument {
    /// The security simulator's routes (playground only).
    static let simulatorOperations: [Operation] = [
        Operation(method: "post", path: "/v1/playground/simulator/decide",
                  summary: "Playground: decides one request against a served or pasted policy, with every evaluated statement and the deciding sub-expression located in the policy text (only while the playground is on).",
                  body: "SimulatorDecideBody", response: "SimulatorDecision", errors: [404]),
        Operation(method: "post", path: "/v1/playground/simulator/test",
                  summary: "Playground: runs a security-tests text against a served or pasted policy; results as regimen test --format json prints them, and coverage per sub-expression (only while the playground is on).",
                  body: "SimulatorTestBody", response: "SimulatorTestReport", errors: [404]),
    ]

    static var simulatorSchemas: Value.Map {
        let point = object(["line": type("integer"), "column": type("integer"), "offset": types("integer", "null")], required: ["line", "column", "offset"])
        let range = object([
            "text": type("string"), "start": point, "end": point,
            "outcome": type("string"),
            "operands": list(object(["text": type("string"), "value": type("string")], required: ["text", "value"])),
            "via": list(type("string")),
        ], required: ["text", "start", "end", "outcome", "operands", "via"])
        let policyChoice: [String: Value] = [
            "policy": type("string"),
            "policyText": type("string"),
            "syntax": strings("rules", "yaml"),
        ]
        let count = object(["covered": type("integer"), "total": type("integer")], required: ["covered", "total"])
        return [
            "SimulatorDecideBody": object(policyChoice.merging([
                "method": strings("get", "list", "create", "update", "set", "delete", "upload", "download"),
                "path": type("string"),
                "auth": types("object", "null"),
                "data": types("object", "null"),
                "documents": types("object", "null"),
                "query": types("object", "null"),
                "time": types("string", "null"),
            ]) { own, _ in own }, required: ["method", "path"], additional: false),
            "SimulatorDecision": object([
                "decision": strings("allow", "deny"), "allowed": type("boolean"), "method": types("string", "null"), "path": type("string"),
                "reason": type("string"), "grantedBy": type("string"),
                "evaluations": list(object([
                    "statement": type("string"), "location": point, "outcome": strings("true", "false", "error"), "error": type("string"),
                    "bindings": object(), "branch": type("string"), "reason": type("string"), "range": range,
                ], required: ["statement", "location", "outcome", "bindings", "reason"])),
                "deciding": list(range),
                "policy": object(["name": type("string"), "file": type("string"), "text": type("string")], required: ["name", "file", "text"]),
            ], required: ["decision", "allowed", "method", "path", "reason", "evaluations", "deciding", "policy"]),
            "SimulatorTestBody": object(policyChoice.merging(["tests": type("string")]) { own, _ in own }, required: ["tests"], additional: false),
            "SimulatorTestReport": object([
                "results": reference("TestReport"),
                "coverage": object([
                    "statements": count, "functions": count,
                    "subExpressions": list(object([
                        "owner": type("string"), "text": type("string"), "start": point, "end": point,
                        "evaluated": type("integer"), "true": type("integer"), "false": type("integer"), "error": type("integer"),
                        "values": list(object(["value": type("string"), "count": type("integer")], required: ["value", "count"])),
                        "moreValues": type("integer"), "errors": list(type("string")), "summary": type("string"),
                    ], required: ["owner", "text", "start", "end", "evaluated", "true", "false", "error", "values", "moreValues", "errors", "summary"])),
                ], required: ["statements", "functions", "subExpressions"]),
            ], required: ["results", "coverage"]),
        ]
    }
}
