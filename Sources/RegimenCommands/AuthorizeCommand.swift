import ArgumentParser
import Foundation
import RegimenKit

/// `regimen authorize`: asks a policy one question and says why it answered so.
struct AuthorizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authorize",
        abstract: "Decide one request against a security policy (.rules or YAML).",
        discussion: """
        Prints 'allow' or 'deny' and the reason; exits 0 when allowed, 1 when denied, 2 on bad input. \
        JSON has no timestamp type: write {"$timestamp": "2026-01-05T08:00:00Z"} in --data, --auth \
        or --metadata ({"$serverTimestamp": true} and {"$delete": true} are the write sentinels).

        Example: regimen authorize --rules rules/security/workout-tracker/appendix-a.rules --auth '{"uid": "alice"}' --op get --path users/alice --explain
        """
    )

    @Option(help: "The policy file (.rules, or .yaml with kind: security_rules).")
    var rules: String

    @Option(help: "Who asks, as JSON: {\"uid\": \"alice\", \"token\": {\"admin\": true}}; omit or 'null' when signed out.")
    var auth: String?

    @Option(help: "get, list, create, update, set, delete, upload or download.")
    var op: String

    @Option(help: "Document, collection (list) or object path, relative to the service root or absolute.")
    var path: String

    @Option(help: "Write data as JSON (required for create, update, set); timestamps as {\"$timestamp\": \"…\"}.")
    var data: String?

    @Option(help: "List query as JSON: {\"limit\": 10, \"where\": [[\"userId\", \"==\", \"alice\"]]}.")
    var query: String?

    @Option(help: "A YAML or JSON file mapping document paths to their fields (what exists before the request).")
    var documents: String?

    @Option(help: "request.time as ISO-8601 (default 2025-01-01T00:00:00Z).")
    var time: String?

    @Option(parsing: .unconditional, help: "Upload size in bytes (Storage).")
    var size: Int64?

    @Option(help: "Upload content type (Storage).")
    var contentType: String?

    @Option(help: "Upload custom metadata as JSON (Storage).")
    var metadata: String?

    @Flag(help: "Show every candidate allow statement and the sub-expression that decided it.")
    var explain = false

    init() {}

    package func run() throws {
        let policy: Policy
        let request: SecurityRequest
        var store = DocumentStore()
        if let problem = RequestPath.problem(with: path) {
            CommandContext.current.standardError.write("error: --path: \(problem)\n")
            throw CommandFailure.usage
        }
        if let size, size < 0 {
            CommandContext.current.standardError.write("error: --size: an upload has 0 bytes or more, not \(size)\n")
            throw CommandFailure.usage
        }
        do {
            policy = try Policy(file: rules)
            request = try policy.request(op: op, path: path, auth: auth, data: data, query: query, size: size,
                                         contentType: contentType, metadata: metadata, time: time)
            if let documents { store = try policy.documents(file: documents) }
        } catch {
            CommandContext.current.standardError.write(DiagnosticPrinter.lines(error.diagnostics) + "\n")
            throw CommandFailure.usage
        }
        let decision = policy.decide(request, documents: store, explain: explain)
        CommandContext.current.standardOutput.write(Self.render(decision, explain: explain))
        if !decision.allowed { throw CommandFailure.failed }
    }

    static func render(_ decision: Decision, explain: Bool) -> String {
        var out = decision.allowed ? "allow" : "deny"
        out += " \(decision.method?.rawValue ?? "request") \(decision.path)\n"
        if let granted = decision.grantedBy {
            out += "  granted by 'allow \(granted.methodList)' at \(granted.location)\n"
        } else if let note = decision.note {
            out += "  \(note)\n"
        } else if decision.evaluations.isEmpty {
            out += "  no matching allow statements\n"
        }
        guard explain || !decision.allowed else { return out }
        for evaluation in decision.evaluations {
            let bindings = evaluation.bindings.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
            var line = "  - allow \(evaluation.statement.methodList) at \(evaluation.statement.location)"
            if !bindings.isEmpty { line += " [\(bindings)]" }
            if let branch = evaluation.branch { line += " (query branch \(branch))" }
            switch evaluation.outcome {
            case .granted: line += ": true"
            case .denied: line += ": false"
            case .failed(let error): line += ": error: \(error.message)"
            }
            out += line + "\n"
            if let culprit = evaluation.culprit { out += "      because \(culprit.describe())\n" }
        }
        return out
    }
}
