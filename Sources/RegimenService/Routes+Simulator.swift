import Foundation
import Hummingbird
import RegimenKit

extension ServiceRoutes {
    /// The security simulator: decide one request against a served or pasted policy and see why,
    /// or run a security-tests text against it and see results and per-sub-expression coverage.
    /// Registered from ``addPlayground(to:)``, so it exists only while the playground is on; the
    /// body limit, the time budget and the policies' evaluation limits apply as everywhere.
    func addSimulator(to router: Router<ServiceContext>) {
        heavy(router, "/v1/playground/simulator/decide") { body, token in
            let snapshot = body.snapshot, data = body.data
            let fields = try Self.simulatorFields(try body.document())
            let policy = try Self.simulatedPolicy(fields, snapshot)
            let requestBody = try Self.engine { () throws(RegimenError) in try policy.simulatorRequest(from: data) }
            try token.checkpoint()
            var answer = policy.simulate(requestBody).mapValue ?? [:]
            answer["policy"] = Self.policyValue(policy)
            return Self.json(.map(answer))
        }
        heavy(router, "/v1/playground/simulator/test") { body, token in
            let snapshot = body.snapshot
            let fields = try Self.simulatorFields(try body.document())
            let policy = try Self.simulatedPolicy(fields, snapshot)
            guard case .string(let tests)? = fields["tests"] else {
                throw ServiceError(.unprocessableContent, "simulator.tests", "'tests' is required: the text of a security-tests file (YAML or JSON)", path: "tests")
            }
            guard !tests.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw ServiceError(.unprocessableContent, "simulator.tests", "'tests' is empty; paste a security-tests file with its cases", path: "tests")
            }
            try token.checkpoint()
            let report = try Self.engine { () throws(RegimenError) in try policy.simulateTests(body: Data(tests.utf8), name: "tests") }
            return JSONResponse.make(json: report)
        }
    }

    /// The keys a simulator body may have; any other is refused so a typo is not silently ignored.
    static let simulatorKeys: Set<String> = [
        "policy", "policyText", "syntax", "tests", "method", "path", "auth", "data", "documents", "time", "query", "size", "contentType", "metadata",
    ]

    static func simulatorFields(_ body: Value, keys: Set<String> = simulatorKeys) throws(ServiceError) -> Value.Map {
        guard case .map(let fields) = body else {
            throw ServiceError(.unprocessableContent, "simulator.body", "the body must be an object with 'policy' or 'policyText'", path: nil)
        }
        let unknown = fields.keys.filter { !keys.contains($0) }.sorted()
        if !unknown.isEmpty {
            throw ServiceError(.unprocessableContent, problems: unknown.map {
                ServiceError.Problem(id: "simulator.unknown-key", message: "unknown key '\($0)'; expected \(keys.sorted().joined(separator: ", "))", path: $0)
            })
        }
        return fields
    }

    /// The served policy named by `policy`, or the one compiled from `policyText` (its problems
    /// answered 422, each located `pasted.rules:LINE:COL`).
    static func simulatedPolicy(_ fields: Value.Map, _ snapshot: RuleSnapshot) throws(ServiceError) -> Policy {
        switch (fields["policy"], fields["policyText"]) {
        case (.string(let name)?, nil):
            return try servedPolicy(name, snapshot)
        case (nil, .string(let text)?):
            return try pastedPolicy(text, fields)
        default:
            throw ServiceError(.unprocessableContent, "simulator.policy", "give 'policy' (a served policy's name) or 'policyText' (a pasted policy), one of them, as text", path: "policy")
        }
    }

    /// The served policy called `name` (404 when there is none).
    static func servedPolicy(_ name: String, _ snapshot: RuleSnapshot) throws(ServiceError) -> Policy {
        guard let policy = snapshot.policies[name] else {
            throw ServiceError(.notFound, "policy.not-found", "no policy named '\(name)'; GET /v1/policies lists them", path: "policy")
        }
        return policy
    }

    /// The policy compiled from pasted `text` in the body's `syntax` (422 with each problem).
    static func pastedPolicy(_ text: String, _ fields: Value.Map) throws(ServiceError) -> Policy {
        var syntax: String?
        switch fields["syntax"] {
        case nil, .null?: syntax = nil
        case .string(let given)? where ["rules", "yaml"].contains(given): syntax = given
        default: throw ServiceError(.unprocessableContent, "simulator.syntax", "'syntax' must be rules or yaml", path: "syntax")
        }
        do {
            return try Policy.pasted(text, syntax: syntax)
        } catch {
            // The pasted text is a field of a readable body: its syntax errors are 422 too.
            var refused = ServiceError(error)
            refused.status = .unprocessableContent
            throw refused
        }
    }

    static func policyValue(_ policy: Policy) -> Value {
        .map(["name": .string(policy.name), "file": .string(policy.sourceFile), "text": .string(policy.sourceText)])
    }
}
