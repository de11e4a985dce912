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
        Operation(method: "post", path: "/v1/playground/simulator/prove",
                  summary: "Playground: proves a property of every request in a scope (an assertion in the rules language, or always-allows, always-denies, never-errors) for a served or pasted Firestore policy, per request shape, with a replayed counterexample when it fails, as regimen rules prove does (only while the playground is on; 503 without an SMT solver).",
                  body: "SimulatorProveBody", response: "SimulatorProof", errors: [404]),
        Operation(method: "post", path: "/v1/playground/simulator/compare",
                  summary: "Playground: compares an edited policy text with the served version for every request: per match path and method, what the edit newly allows and newly denies with replayed counterexamples, or equivalent (proved), as regimen rules diff does (only while the playground is on; 503 without an SMT solver).",
                  body: "SimulatorCompareBody", response: "SimulatorComparison", errors: [404]),
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
        let verdict = object([
            "result": strings("proved", "counterexample", "possible", "unknown"),
            "testCase": type("string"), "decisions": list(strings("allow", "deny")), "reason": type("string"),
            "abstractions": list(object(["construct": type("string"), "location": type("string")], required: ["construct", "location"])),
        ], required: ["result"])
        let policyFile = object(["name": type("string"), "file": type("string"), "text": type("string")], required: ["name", "file", "text"])
        return [
            "SimulatorProveBody": object(policyChoice.merging([
                "scope": type("string"), "assert": type("string"), "query": strings("always-allows", "always-denies", "never-errors"),
            ]) { own, _ in own }, required: ["scope"], additional: false),
            "SimulatorProof": object([
                "policy": policyFile, "scope": type("string"), "question": object(["assert": type("string"), "query": type("string")]),
                "proved": type("boolean"),
                "entries": list(object(["method": type("string"), "path": type("string"), "verdict": verdict], required: ["method", "path", "verdict"])),
            ], required: ["policy", "scope", "question", "proved", "entries"]),
            "SimulatorCompareBody": object(policyChoice, required: ["policy", "policyText"], additional: false),
            "SimulatorComparison": object([
                "policy": policyFile, "equivalent": type("boolean"), "differences": type("integer"), "open": type("integer"),
                "entries": list(object([
                    "method": type("string"), "path": type("string"), "equivalent": type("boolean"), "newlyAllows": verdict, "newlyDenies": verdict,
                ], required: ["method", "path", "equivalent", "newlyAllows", "newlyDenies"])),
            ], required: ["policy", "equivalent", "differences", "open", "entries"]),
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
