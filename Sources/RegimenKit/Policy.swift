public import Foundation
import RegimenLanguage
import RegimenRules
import RegimenSecurity

extension RegimenEngine {
    /// The policy named by its path under `rules/security/` without the extension
    /// (`workout-tracker/corrected`, `trainer-student/storage`), compiled.
    ///
    /// The native form (`NAME.rules`) is tried first, then the YAML form (`NAME.yaml`,
    /// `kind: security_rules`). Its auditor tests are `NAME.tests.yaml` beside it.
    /// - Throws: ``RegimenError/Code/policyNotFound`` when no such file exists (a name
    ///   that leaves `rules/security/` is never looked up), ``RegimenError/Code/policy`` when it
    ///   does not parse or compile.
    public func policy(named name: String) throws(RegimenError) -> Policy {
        guard let directory = securityDirectory else { throw .policyNotFound(name: name, searched: []) }
        return try loadPolicy(named: name, under: directory, locatedUnderDirectory: false)
    }

    /// The policy named by its path under `directory` (a policies folder of its own, such as
    /// `regimen serve --policies DIR`); see ``policy(named:)``. Its locations (in decisions,
    /// explanations, test results and diagnostics) name the file by its path under `directory`
    /// (`workout-tracker/corrected.rules:12:5`), so a service never shows where its files live.
    public func policy(named name: String, under directory: URL) throws(RegimenError) -> Policy {
        try loadPolicy(named: name, under: directory, locatedUnderDirectory: true)
    }

    private func loadPolicy(named name: String, under directory: URL, locatedUnderDirectory: Bool) throws(RegimenError) -> Policy {
        guard Self.isPolicyName(name) else {
            throw .policyNotFound(name: name, searched: [])
        }
        let candidates = ["rules", "yaml", "yml"].map { directory.appendingPathComponent("\(name).\($0)") }
        guard let file = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw .policyNotFound(name: name, searched: candidates.map(\.path))
        }
        do {
            let displayPath = locatedUnderDirectory ? "\(name).\(file.pathExtension)" : file.path
            let compiled = try CompiledPolicy(try PolicyLoader.parse(try InputFile.read(file, displayPath: displayPath), file: displayPath))
            let tests = directory.appendingPathComponent("\(name).tests.yaml")
            return Policy(name: name, file: file, compiled: compiled,
                          testsFile: FileManager.default.fileExists(atPath: tests.path) ? tests : nil)
        } catch {
            throw .policy(error.diagnostics)
        }
    }

    /// The names of every policy under `rules/security/`, sorted (test files left out).
    public var policyNames: [String] {
        securityDirectory.map(policyNames(under:)) ?? []
    }

    /// The names of every policy under `directory`, sorted (test files left out).
    public func policyNames(under directory: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        else { return [] }
        let base = directory.standardizedFileURL.path + "/"
        var names: Set<String> = []
        for case let url as URL in enumerator where ["rules", "yaml", "yml"].contains(url.pathExtension) {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(base), !url.deletingPathExtension().lastPathComponent.hasSuffix(".tests") else { continue }
            let name = String(path.dropFirst(base.count).dropLast(url.pathExtension.count + 1))
            if Self.isPolicyName(name) { names.insert(name) }
        }
        return names.sorted()
    }

    /// A relative path of non-empty segments without `.` or `..` (so it stays under
    /// `rules/security/`), not naming a test file (`NAME.tests`).
    private static func isPolicyName(_ name: String) -> Bool {
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        return !name.isEmpty && !name.hasSuffix(".tests") && segments.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }
}

/// A compiled Firestore or Storage security policy: decisions, its auditor tests and its audit.
///
/// Compile it once (``RegimenEngine/policy(named:)``) and share it: it is immutable and
/// `Sendable`; decisions fail closed exactly as Firestore's do.
public struct Policy: Sendable {
    /// The name it was asked for (`workout-tracker/corrected`).
    public let name: String
    /// The policy file read.
    public let file: URL
    let compiled: CompiledPolicy
    /// The auditor tests beside it (`NAME.tests.yaml`), if any.
    public let testsFile: URL?

    /// Firestore (`cloud.firestore`) or Storage (`firebase.storage`).
    public var service: SecurityService { compiled.policy.service }

    /// Decides `request` with `documents` existing beforehand; with `explain`, every candidate
    /// allow statement is evaluated and the sub-expression that decided each is recorded.
    public func decide(_ request: SecurityRequest, documents: DocumentStore = DocumentStore(), explain: Bool = false) -> Decision {
        compiled.decide(request, store: documents, options: DecisionOptions(explain: explain, evaluateAll: explain))
    }

    /// Decides a request written with paths relative to the service root; `documents` maps such
    /// paths to the fields that exist before the request.
    /// - Throws: ``RegimenError/Code/policy`` for a path Firestore rejects (an empty segment) or
    ///   a document that is not a map of fields.
    public func decide(_ request: PolicyRequest, documents: [String: Value] = [:], explain: Bool = false) throws(RegimenError) -> Decision {
        var store = DocumentStore()
        for (path, fields) in documents.sorted(by: { $0.key < $1.key }) {
            guard case .map(let map) = fields else {
                throw .policy([.error("policy.document", "document '\(path)' must be a map of fields", at: nil)])
            }
            store[try requestPath(path)] = map
        }
        return decide(try securityRequest(request), documents: store, explain: explain)
    }

    /// Builds a request from the same pieces as `regimen authorize`: the operation verb, the path
    /// and JSON texts for the data, query and auth (timestamps as `{"$timestamp": "…"}`).
    /// - Throws: ``RegimenError/Code/policy`` naming the piece at fault (`--data:1:9`).
    public func request(op: String, path: String, auth: String? = nil, data: String? = nil, query: String? = nil,
                        time: String? = nil) throws(RegimenError) -> SecurityRequest {
        try request(op: op, path: path, auth: auth, data: data, query: query, size: nil, contentType: nil, metadata: nil, time: time)
    }

    /// Runs the auditor tests beside the policy (`regimen test NAME.tests.yaml`);
    /// `SecurityTestReport.json([result])` is what `regimen test --format json` prints.
    /// - Throws: ``RegimenError/Code/policy`` when there is no test file or it does not load.
    public func test() throws(RegimenError) -> SecurityTestFileResult {
        guard let testsFile else {
            throw .policy([.error("policy.no-tests", "policy '\(name)' has no test file '\(name).tests.yaml'", at: nil)])
        }
        do {
            return try SecurityTestRunner(suite: try SecurityTestSuite.load(file: testsFile.path)).run()
        } catch {
            throw .policy(error.diagnostics)
        }
    }

    /// The static checks of `regimen audit`: shadowed validation, conditions that always error,
    /// open writes, owner checks missing on `users/{id}` paths, and more.
    public func audit() -> [AuditFinding] { PolicyAudit.audit(compiled) }

    private func requestPath(_ path: String) throws(RegimenError) -> RequestPath {
        if let problem = RequestPath.problem(with: path) {
            throw .policy([.error("policy.path", "'\(path)': \(problem)", at: nil)])
        }
        return RequestPath(path, service: service)
    }

    private func securityRequest(_ request: PolicyRequest) throws(RegimenError) -> SecurityRequest {
        let path = try requestPath(request.path)
        let operation: SecurityOperation = switch request.operation {
        case .get: .get(path)
        case .list(let query): .list(path, query)
        case .create(let data): .create(path, data)
        case .update(let data): .update(path, data)
        case .set(let data): .set(path, data)
        case .delete: .delete(path)
        case .upload(let upload): .upload(path, upload)
        case .download: .download(path)
        }
        return SecurityRequest(auth: request.auth, operation: operation, time: request.time)
    }
}

/// One question to a policy with its path relative to the service root
/// (`users/alice/programs/p1`): who asks, what they do and when.
public struct PolicyRequest: Sendable, Hashable {
    /// What the client attempts.
    public enum Operation: Sendable, Hashable {
        /// Reads one document (or a Storage object's metadata).
        case get
        /// Queries a collection with its limit, order and filters.
        case list(ListQuery)
        /// A write of a document that must not exist yet.
        case create(WriteData)
        /// Fields merged into the stored document.
        case update(WriteData)
        /// The whole document; a create or an update depending on whether it exists.
        case set(WriteData)
        /// Deletes a document or a Storage object.
        case delete
        /// Uploads a Storage object of the given size, content type and metadata.
        case upload(StorageUpload)
        /// Downloads a Storage object.
        case download
    }

    /// The document, collection (for `list`) or object path.
    public var path: String
    /// What the client attempts.
    public var operation: Operation
    /// `request.auth`; `nil` when signed out.
    public var auth: AuthContext?
    /// `request.time` (and the value of server timestamps in the write).
    public var time: Timestamp

    /// The time requests use unless given: 2025-01-01T00:00:00Z, as `regimen authorize`.
    public static let defaultTime = SecurityTestSuite.defaultTime

    /// A request at `time` (2025-01-01T00:00:00Z unless given, as `regimen authorize`).
    public init(_ operation: Operation, path: String, auth: AuthContext?, time: Timestamp = PolicyRequest.defaultTime) {
        self.path = path
        self.operation = operation
        self.auth = auth
        self.time = time
    }

    /// Reads one document.
    public static func get(_ path: String, auth: AuthContext?) -> PolicyRequest { PolicyRequest(.get, path: path, auth: auth) }
    /// Queries a collection.
    public static func list(_ path: String, query: ListQuery = ListQuery(), auth: AuthContext?) -> PolicyRequest {
        PolicyRequest(.list(query), path: path, auth: auth)
    }
    /// Creates a document with `data`.
    public static func create(_ path: String, data: WriteData, auth: AuthContext?) -> PolicyRequest {
        PolicyRequest(.create(data), path: path, auth: auth)
    }
    /// Merges `data` into a document.
    public static func update(_ path: String, data: WriteData, auth: AuthContext?) -> PolicyRequest {
        PolicyRequest(.update(data), path: path, auth: auth)
    }
    /// Writes the whole document.
    public static func set(_ path: String, data: WriteData, auth: AuthContext?) -> PolicyRequest {
        PolicyRequest(.set(data), path: path, auth: auth)
    }
    /// Deletes a document.
    public static func delete(_ path: String, auth: AuthContext?) -> PolicyRequest { PolicyRequest(.delete, path: path, auth: auth) }
}

extension AuthContext {
    /// A signed-in user with `uid` and no other claims.
    public static func uid(_ uid: String) -> AuthContext { AuthContext(uid: uid) }
}
