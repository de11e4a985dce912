import Foundation
import RegimenLanguage
package import RegimenSecurity

// A policy read from a file the user names, as `regimen audit FILE`, `regimen authorize --rules
// FILE` and `regimen rules convert FILE` read it, and the pieces of a request those commands
// take as options.
extension Policy {
    /// The policy in the file at `path` (`.rules`, or YAML with `kind: security_rules`), named
    /// by `path` as given in its locations and diagnostics; it has no auditor tests.
    /// - Throws: ``RegimenError/Code/policy`` with every problem, located, when it does not read,
    ///   parse or compile.
    package init(file path: String) throws(RegimenError) {
        do {
            let compiled = try CompiledPolicy(try PolicyLoader.load(file: path))
            self.init(name: path, file: URL(fileURLWithPath: path), compiled: compiled, testsFile: nil)
        } catch {
            throw .policy(error.diagnostics)
        }
    }

    /// ``request(op:path:auth:data:query:time:)`` with a Storage upload's `size` in bytes,
    /// `contentType` and custom `metadata` (JSON), as `regimen authorize` takes them.
    /// - Throws: ``RegimenError/Code/policy`` naming the piece at fault (`--data:1:9`).
    package func request(op: String, path: String, auth: String?, data: String?, query: String?,
                         size: Int64?, contentType: String?, metadata: String?, time: String?) throws(RegimenError) -> SecurityRequest {
        if let problem = RequestPath.problem(with: path) {
            throw .policy([.error("authorize.path", "--path: \(problem)", at: nil)])
        }
        do {
            return try SecurityTestSuite.request(verb: op, path: path, data: data, query: query, auth: auth, size: size,
                                                 contentType: contentType, metadata: metadata, time: time, service: service)
        } catch {
            throw .policy(error.diagnostics)
        }
    }

    /// The documents that exist before a request, from the YAML or JSON file at `path` mapping
    /// document paths to their fields (`regimen authorize --documents FILE`).
    /// - Throws: ``RegimenError/Code/policy`` with every problem of the file, located.
    package func documents(file path: String) throws(RegimenError) -> DocumentStore {
        do {
            return try SecurityTestSuite.documents(file: path, service: service)
        } catch {
            throw .policy(error.diagnostics)
        }
    }

    /// The policy written in its other syntax (`regimen rules convert`): a native `.rules`
    /// policy as YAML, a YAML policy as `.rules`; either makes the same decisions.
    package var convertedText: String {
        compiled.policy.origin.syntax == .native ? PolicyPrinter.yaml(compiled.policy) : PolicyPrinter.native(compiled.policy)
    }

    /// The policy as the static analysis reads it (RegimenAnalysis, behind `regimen rules
    /// prove` and `regimen rules diff`): its matches and allow statements as parsed.
    package var parsed: SecurityPolicy { compiled.policy }
}
