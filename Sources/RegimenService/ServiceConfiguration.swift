import Foundation

/// What `regimen serve` was asked to serve and how: folders, address, limits and secrets.
package struct ServiceConfiguration: Sendable {
    /// The rules folder; `nil` serves the repository's own rules (found as `regimen` finds them).
    package var rules: URL?
    /// The catalogs folder; `nil` uses `catalogs/` inside or beside the rules.
    package var catalogs: URL?
    /// The folder policies are named under; `nil` uses `rules/security/`.
    package var policies: URL?
    /// A folder of documents files (`{path: fields}`) that exist for every authorize request.
    package var documents: URL?
    /// Where ``rules`` is resolved from when it is `nil`.
    package var workingDirectory: URL
    /// The address to bind.
    package var host: String
    /// The port to bind; 0 asks the system for a free one.
    package var port: Int
    /// The largest request body accepted; larger ones get 413.
    package var maximumBodyBytes: Int
    /// The bearer token admin endpoints require; `nil` turns them off (404).
    package var adminToken: String?
    /// Where decisions are appended as JSON lines, if anywhere.
    package var decisionLog: URL?
    /// How often the folders are hashed to notice an edit; `nil` turns polling off.
    package var pollInterval: Duration?
    /// How long one request may take before it is answered 503. Evaluation limits bound the
    /// work of every request far below it; the budget only guards against the unforeseen.
    package var timeBudget: Duration

    package init(
        rules: URL? = nil, catalogs: URL? = nil, policies: URL? = nil, documents: URL? = nil,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        host: String = "127.0.0.1", port: Int = 8080, maximumBodyBytes: Int = 1 << 20, adminToken: String? = nil,
        decisionLog: URL? = nil, pollInterval: Duration? = .seconds(2), timeBudget: Duration = .seconds(10)
    ) {
        self.rules = rules
        self.catalogs = catalogs
        self.policies = policies
        self.documents = documents
        self.workingDirectory = workingDirectory
        self.host = host
        self.port = port
        self.maximumBodyBytes = maximumBodyBytes
        self.adminToken = adminToken
        self.decisionLog = decisionLog
        self.pollInterval = pollInterval
        self.timeBudget = timeBudget
    }
}
