package import Foundation

/// What `regimen serve` was asked to serve and how: folders, address, limits and secrets.
package struct ServiceConfiguration: Sendable {
    /// The rules folder; `nil` serves the repository's own rules (found as `regimen` finds them).
    package var rules: URL?
    /// The catalogs folder; `nil` uses `catalogs/` inside or beside the rules.
    package var catalogs: URL?
    /// The folder policies are named under; `nil` uses `rules/security/`.
    var policies: URL?
    /// A folder of documents files (`{path: fields}`) that exist for every authorize request.
    package var documents: URL?
    /// A Firestore database authorize requests read their documents from instead (live
    /// documents); `nil`: the ``documents`` files.
    package var liveDocuments: LiveDocumentSettings?
    /// Where ``rules`` is resolved from when it is `nil`.
    var workingDirectory: URL
    /// The public listener's address: the API and the page's planner.
    var host: String
    /// The public listener's port; 0 asks the system for a free one.
    var port: Int
    /// The private listener's address (loopback by default): everything the public one
    /// serves, plus admin, the playground and the simulator.
    var privateHost: String
    /// The private listener's port; `nil` turns it off; 0 asks the system for a free one.
    var privatePort: Int?
    /// The largest request body accepted; larger ones get 413.
    var maximumBodyBytes: Int
    /// The bearer token admin endpoints require; `nil` turns them off (404).
    var adminToken: String?
    /// Where decisions are appended as JSON lines, if anywhere.
    var decisionLog: URL?
    /// How often the folders are hashed to notice an edit; `nil` turns polling off.
    var pollInterval: Duration?
    /// How long one request's heavy work may take before it is answered 503 and its work is
    /// cancelled (stopped at its next checkpoint).
    var timeBudget: Duration
    /// How long the files must stay unchanged (hashed before and after it) before a reload
    /// loads them.
    var reloadSettle: Duration
    /// The share of a rule or catalog table's rows a reload may drop (0.2: a fifth); a reload
    /// that drops more is refused unless the admin reload allows it.
    var maximumRowLoss: Double
    /// How many heavy requests compute at once, and how many may wait; beyond, 503 at once.
    package var work: WorkExecutor.Limits
    /// Idle, header and body-read timeouts of a connection.
    var timeouts: ConnectionTimeouts
    /// The most connections open at once; more wait in the kernel's accept queue.
    var maximumConnections: Int
    /// Whether `--playground` was given: the playground's endpoints are then on the private
    /// listener whatever its address. Without it they are on only when the private listener
    /// is on a loopback address (``playgroundEnabled``). They are never on the public listener.
    var playgroundRequested: Bool
    /// Who may ask, and as whom: identity mode, ID-token keys, body documents.
    package var access = AccessConfiguration()
    /// Where request spans go (`--otel-endpoint`); `nil` traces nothing.
    package var tracing: TracingSettings?
    /// The folder of panel client profiles the playground plans; `nil` uses `examples/panel`
    /// beside the rules folder, when there is one.
    var panel: URL?
    /// The SMT-LIB 2 solver the simulator's analysis runs (`--solver`): a name on `PATH` or a path.
    package var analysisSolver = "z3"
    /// The most one analysis query may take (`--solver-timeout`); a tenth of the time budget
    /// bounds it too, so a request's queries end within its budget.
    package var analysisTimeout: Duration = .seconds(2)

    /// Whether the playground's endpoints exist on the private listener. They plan and check
    /// with text a caller sends as rules, which is costlier than a normal request and shows the
    /// served rules' text, so a private listener reachable from other machines offers them only
    /// when asked to (`--playground`).
    var playgroundEnabled: Bool { playgroundRequested || Self.isLoopback(privateHost) }

    /// The private port a public port gets when none is named: 10,000 above it (8081 → 18081),
    /// or any free one (printed in the log) when that is past the last port.
    package static func defaultPrivatePort(forPublic port: Int) -> Int {
        port == 0 || port + 10_000 > 65_535 ? 0 : port + 10_000
    }

    /// Whether `host` names only this machine: `localhost`, 127.0.0.0/8, `::1` (also written in
    /// full, in brackets, or as an IPv4-mapped 127 address).
    static func isLoopback(_ host: String) -> Bool {
        var name = host.trimmingCharacters(in: .whitespaces).lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "localhost." { return true }
        if let zone = name.firstIndex(of: "%") { name = String(name[..<zone]) }
        if let octets = ipv4(name) { return octets[0] == 127 }
        guard name.contains(":") else { return false }
        var address = in6_addr()
        guard inet_pton(AF_INET6, name, &address) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &address) { Array($0) }
        guard bytes.count == 16 else { return false }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
        return mapped && bytes[12] == 127
    }

    /// The four octets of a dotted-quad IPv4 address, or `nil` for anything else.
    private static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber), let octet = UInt8(part) else { return nil }
            octets.append(octet)
        }
        return octets
    }

    package init(
        rules: URL? = nil, catalogs: URL? = nil, policies: URL? = nil, documents: URL? = nil,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        host: String = "127.0.0.1", port: Int = 8080, privateHost: String = "127.0.0.1", privatePort: Int? = 18080, maximumBodyBytes: Int = 1 << 20, adminToken: String? = nil,
        decisionLog: URL? = nil, pollInterval: Duration? = .seconds(2), timeBudget: Duration = .seconds(10),
        playgroundRequested: Bool = false, panel: URL? = nil,
        work: WorkExecutor.Limits = WorkExecutor.Limits(concurrency: ProcessInfo.processInfo.activeProcessorCount, queue: 16),
        timeouts: ConnectionTimeouts = ConnectionTimeouts(), maximumConnections: Int = 1024,
        reloadSettle: Duration = .milliseconds(500), maximumRowLoss: Double = 0.2
    ) {
        self.rules = rules
        self.catalogs = catalogs
        self.policies = policies
        self.documents = documents
        self.workingDirectory = workingDirectory
        self.host = host
        self.port = port
        self.privateHost = privateHost
        self.privatePort = privatePort
        self.maximumBodyBytes = maximumBodyBytes
        self.adminToken = adminToken
        self.decisionLog = decisionLog
        self.pollInterval = pollInterval
        self.timeBudget = timeBudget
        self.playgroundRequested = playgroundRequested
        self.panel = panel
        self.work = work
        self.timeouts = timeouts
        self.maximumConnections = maximumConnections
        self.reloadSettle = reloadSettle
        self.maximumRowLoss = maximumRowLoss
    }
}
