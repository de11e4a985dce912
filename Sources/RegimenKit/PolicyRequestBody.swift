public import Foundation
import RegimenLanguage
import RegimenRules
import RegimenSecurity

/// The requests of one authorize body, read for one policy: a single request or a batch, each
/// with the documents that exist for it.
///
/// A request has a test case's keys without `name` and `expect`: one operation key naming the
/// path (`get`, `list`, `create`, `update`, `set`, `delete`, `upload`, `download`), and `auth`,
/// `data`, `query`, `time`, `documents`, `size`, `contentType`, `metadata` as it needs.
/// A batch is a list of them, or `{"requests": [...], "documents": {path: fields}}`.
public struct PolicyRequestBody: Sendable {
    let body: AuthorizeBody

    /// How many requests the body holds.
    public var count: Int { body.items.count }
    /// Whether the body was a batch (answered with a list) rather than one request.
    public var isBatch: Bool { body.isBatch }
}

extension Policy {
    /// Reads an authorize body (JSON or YAML) for this policy; `documents` exist for every
    /// request (the body's own documents are added on top).
    /// - Throws: ``RegimenError/Code/policy`` with every problem, located in `name`
    ///   (`<body>:1:9`), or ``RegimenError/Code/request`` for a body that is not UTF-8 or too large.
    public func requests(from data: Data, name: String = "<body>", documents: DocumentStore = DocumentStore()) throws(RegimenError) -> PolicyRequestBody {
        let text = try RequestDocument.text(data, name: name)
        do {
            return PolicyRequestBody(body: try AuthorizeBody.read(text, file: name, service: service, base: documents))
        } catch {
            throw .policy(error.diagnostics)
        }
    }

    /// One decision per request of `body`, in order.
    public func decide(_ body: PolicyRequestBody, explain: Bool = false) -> [Decision] {
        let options = DecisionOptions(explain: explain, evaluateAll: explain)
        return body.body.items.map { compiled.decide($0.request, store: $0.documents, options: options) }
    }

    /// Runs a security-tests body (JSON or YAML, `kind: security-tests`) against this policy;
    /// its `rules:` key, if any, is not followed. `documents` exist before the body's own.
    /// - Throws: ``RegimenError/Code/policy`` with every problem of the body, located in `name`.
    public func test(body data: Data, name: String = "<body>", documents: DocumentStore = DocumentStore()) throws(RegimenError) -> SecurityTestFileResult {
        let text = try RequestDocument.text(data, name: name)
        do {
            var suite = try SecurityTestSuite.parse(text, file: name, policy: compiled.policy)
            suite.documents = documents.merging(suite.documents)
            return SecurityTestRunner(suite: suite, policy: compiled).run()
        } catch {
            throw .policy(error.diagnostics)
        }
    }

    /// Reads a documents file (YAML or JSON mapping document paths to their fields) for this
    /// policy's service, as `regimen authorize --documents FILE` does.
    /// - Throws: ``RegimenError/Code/policy`` naming the file, line and column at fault.
    public func documents(file: URL) throws(RegimenError) -> DocumentStore {
        do {
            return try SecurityTestSuite.documents(file: file.path, service: service)
        } catch {
            throw .policy(error.diagnostics)
        }
    }
}

extension RegimenEngine {
    /// A request body (JSON or YAML) as a value, within the input limits (size, UTF-8, nesting):
    /// what a service reads before handing the parts of a composite body to the engine.
    /// - Throws: ``RegimenError/Code/request`` with the problem and its line and column.
    public func document(from data: Data, name: String = "<body>") throws(RegimenError) -> Value {
        try RequestDocument.value(data, name: name)
    }
}
