import ArgumentParser
import Foundation
import Logging
import RegimenService
import Synchronization
import RegimenLanguage

/// `regimen serve`: the engine over HTTP, with live rule reloads.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the planner, tracker and policies over HTTP (JSON under /v1), reloading rules as they change.",
        discussion: """
        Loads and checks the whole set first and exits 1 when it does not load. While serving, an edit \
        under the rules, catalogs, policies or documents folders (polled), SIGHUP, or POST /v1/admin/reload \
        loads the set again off the request path and swaps it in; a broken edit keeps the last good set \
        serving and is reported in the log and at GET /v1/rules. GET /openapi.json describes every route.

        Two listeners: the public one (--host, --port) serves the API and the page's planner; the private \
        one (--private-host, loopback by default; --private-port) serves the same plus /v1/admin/*, the rules \
        playground and the security simulator (/v1/playground/*), and answers only requests addressed to \
        this machine. Expose only the public one. The playground is on when --private-host is a loopback \
        address and off (404) otherwise unless --playground is given; it is never on the public listener.

        Example: regimen serve --port 8080, then curl -H 'Content-Type: application/json' \
        -d @examples/minimal.json http://127.0.0.1:8080/v1/plans
        """
    )

    @Option(help: ArgumentHelp("Rules directory, or a directory holding rules/ and catalogs/ (default: the repository's own).", valueName: "dir"))
    var rules: String?

    @Option(help: ArgumentHelp("Catalogs directory (default: beside the rules).", valueName: "dir"))
    var catalogs: String?

    @Option(help: ArgumentHelp("Folder policies are named under (default: the rules' security/).", valueName: "dir"))
    var policies: String?

    @Option(help: ArgumentHelp("Folder of documents files ({path: fields}) that exist for every authorize request.", valueName: "dir"))
    var documents: String?

    @Option(help: "The public listener's address: the API and the page's planner.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The public listener's port (0: any free port, printed in the log).")
    var port = 8080

    @Option(name: .customLong("private-host"), help: "The private listener's address: the API, admin, the rules playground and the simulator.")
    var privateHost = "127.0.0.1"

    @Option(name: .customLong("private-port"), parsing: .unconditional, help: ArgumentHelp(
        "The private listener's port (default: --port + 10000; 0: any free port; -1: no private listener).", valueName: "port"))
    var privatePort: Int?

    @Option(name: .customLong("max-body"), parsing: .unconditional, help: "Largest request body in bytes; larger ones get 413.")
    var maxBody = 1 << 20

    @Option(name: .customLong("admin-token-file"), help: ArgumentHelp(
        "File holding the bearer token for /v1/admin/* (or set REGIMEN_ADMIN_TOKEN); without one, admin endpoints do not exist.", valueName: "file"))
    var adminTokenFile: String?

    @Option(name: .customLong("decision-log"), help: ArgumentHelp("Append every policy decision to this file as JSON lines.", valueName: "file"))
    var decisionLog: String?

    @Option(name: .customLong("poll-interval"), parsing: .unconditional, help: "Seconds between checks of the folders for edits; 0 turns polling off.")
    var pollInterval = 2.0

    @Option(name: .customLong("time-budget"), parsing: .unconditional, help: "Seconds one request's heavy work may take before it is answered 503 and its work cancelled.")
    var timeBudget = 10.0

    @Option(name: .customLong("work-threads"), parsing: .unconditional, help: "Heavy requests (plans, batches, the playground) computing at once (default: one per core).")
    var workThreads = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .customLong("work-queue"), parsing: .unconditional, help: "Heavy requests that may wait for a thread; one more is answered 503 with Retry-After at once.")
    var workQueue = 16

    @Option(name: .customLong("idle-timeout"), parsing: .unconditional, help: "Seconds a connection may sit idle between requests before it is closed.")
    var idleTimeout = 60.0

    @Option(name: .customLong("header-timeout"), parsing: .unconditional, help: "Seconds from a request's first byte to the end of its headers before the connection is closed.")
    var headerTimeout = 10.0

    @Option(name: .customLong("body-timeout"), parsing: .unconditional, help: "Seconds from the end of a request's headers to the end of its body before the connection is closed.")
    var bodyTimeout = 30.0

    @Option(name: .customLong("settle"), parsing: .unconditional, help: "Seconds the files must stay unchanged before a reload loads them (a save in several steps is never served half-way).")
    var settle = 0.5

    @Option(name: .customLong("max-row-loss"), parsing: .unconditional, help: "Share of a rule or catalog table's rows a reload may drop (0–1); more is refused unless the admin reload allows it.")
    var maxRowLoss = 0.2

    @Option(name: .customLong("max-connections"), parsing: .unconditional, help: "Connections open at once; more wait to be accepted.")
    var maxConnections = 1024

    @Flag(help: ArgumentHelp(
        "Offer the rules playground (edit a rule file in the page, plan with the edit) on a non-loopback --private-host too; on loopback it is always on."))
    var playground = false

    @Option(help: ArgumentHelp("Folder of client profiles the playground plans (default: examples/panel beside the rules).", valueName: "dir"))
    var panel: String?

    @Option(help: ArgumentHelp("The SMT solver the simulator's 'Check a property' and 'Compare' run: a name on PATH or a path (z3, cvc5).", valueName: "solver"))
    var solver = "z3"

    @Option(name: .customLong("solver-timeout"), help: ArgumentHelp("Seconds one analysis query may take (a tenth of --time-budget bounds it too).", valueName: "seconds"))
    var solverTimeout: Double = 2

    @OptionGroup(title: "Who may ask, and as whom")
    var access: ServeAccessOptions

    @OptionGroup(title: "Live documents (a Firestore database instead of --documents)")
    var liveDocuments: ServeLiveDocumentsOptions

    @Option(name: .customLong("otel-endpoint"), help: ArgumentHelp(
        "Trace every request (OpenTelemetry, W3C traceparent continued) and send the spans over OTLP/HTTP to this collector (http://host:4318 or its /v1/traces URL). Off when absent.",
        valueName: "url"))
    var otelEndpoint: String?

    /// Benchmarks only (`scripts/serve-bench.sh`): serve the HTTP floor instead of the service.
    @Flag(help: .hidden)
    var floor = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    init() {}

    package func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0–65535, not \(port)") }
        if let privatePort, !(-1...65535).contains(privatePort) { throw ValidationError("--private-port must be -1–65535, not \(privatePort)") }
        guard maxBody > 0 else { throw ValidationError("--max-body must be a positive number of bytes") }
        guard pollInterval >= 0, pollInterval.isFinite else { throw ValidationError("--poll-interval must be 0 or more seconds") }
        guard timeBudget > 0, timeBudget.isFinite else { throw ValidationError("--time-budget must be more than 0 seconds") }
        guard solverTimeout > 0, solverTimeout <= 3600, solverTimeout.isFinite else { throw ValidationError("--solver-timeout must be more than 0 and at most 3600 seconds") }
        guard !solver.isEmpty else { throw ValidationError("--solver must name a solver (z3, cvc5 or a path)") }
        guard (1...1024).contains(workThreads) else { throw ValidationError("--work-threads must be 1–1024, not \(workThreads)") }
        guard (0...100_000).contains(workQueue) else { throw ValidationError("--work-queue must be 0–100000, not \(workQueue)") }
        guard (1...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections must be 1–1000000, not \(maxConnections)") }
        guard (0...1).contains(maxRowLoss) else { throw ValidationError("--max-row-loss must be 0–1, not \(maxRowLoss)") }
        guard settle >= 0, settle <= 60, settle.isFinite else { throw ValidationError("--settle must be 0–60 seconds") }
        for (option, seconds) in [("--idle-timeout", idleTimeout), ("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout)] {
            guard seconds > 0, seconds <= 86_400, seconds.isFinite else { throw ValidationError("\(option) must be more than 0 and at most 86400 seconds") }
        }
        for (option, path) in [("--policies", policies), ("--documents", documents), ("--panel", panel)] {
            var isDirectory: ObjCBool = false
            if let path, !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) || !isDirectory.boolValue {
                throw ValidationError("\(option): no folder at '\(path)'")
            }
        }
        try liveDocuments.validate(documents: documents)
        if let otelEndpoint, !TracingSettings.isEndpoint(otelEndpoint) {
            throw ValidationError("--otel-endpoint must be an http:// or https:// URL (an OTLP/HTTP collector), not '\(otelEndpoint)'")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))") }
    }

    package func run() throws {
        let context = CommandContext.current
        let token: String?
        do {
            token = try adminToken()
        } catch {
            context.standardError.writeLine("error: \(error)")
            throw CommandFailure.usage
        }
        func folder(_ path: String?) -> URL? { path.map { URL(fileURLWithPath: $0, relativeTo: context.currentDirectory).standardizedFileURL } }
        var configuration = ServiceConfiguration(
            rules: folder(rules), catalogs: folder(catalogs), policies: folder(policies), documents: folder(documents),
            workingDirectory: context.currentDirectory, host: host, port: port, privateHost: privateHost,
            privatePort: privatePort.map { $0 < 0 ? nil : $0 } ?? ServiceConfiguration.defaultPrivatePort(forPublic: port), maximumBodyBytes: maxBody, adminToken: token,
            decisionLog: folder(decisionLog), pollInterval: pollInterval > 0 ? .milliseconds(Int(pollInterval * 1000)) : nil,
            timeBudget: .milliseconds(Int(timeBudget * 1000)), playgroundRequested: playground, panel: folder(panel),
            work: WorkExecutor.Limits(concurrency: workThreads, queue: workQueue),
            timeouts: ConnectionTimeouts(
                idle: .milliseconds(Int(idleTimeout * 1000)), header: .milliseconds(Int(headerTimeout * 1000)), body: .milliseconds(Int(bodyTimeout * 1000))),
            maximumConnections: maxConnections, reloadSettle: .milliseconds(Int(settle * 1000)), maximumRowLoss: maxRowLoss)
        configuration.analysisSolver = solver
        configuration.analysisTimeout = .milliseconds(Int(solverTimeout * 1000))
        do {
            configuration.access = try access.configuration(relativeTo: context.currentDirectory)
            configuration.liveDocuments = try liveDocuments.settings(relativeTo: context.currentDirectory)
        } catch {
            context.standardError.writeLine("error: \(error)")
            throw CommandFailure.usage
        }
        let level = Logger.Level(rawValue: logLevel) ?? .info
        var logger = Logger(label: "regimen.serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        if floor {
            let host = host, port = port, maxBody = maxBody, logger = logger
            try Self.wait { try await FloorServer.run(host: host, port: port, maximumBodyBytes: maxBody, logger: logger) }
            return
        }
        var server: RegimenServer
        do {
            server = try RegimenServer.load(configuration, logger: logger)
        } catch let failure as LoadFailure {
            for diagnostic in failure.diagnostics { context.standardError.writeLine(diagnostic.description) }
            throw failure.isMissingFolder ? CommandFailure.usage : CommandFailure.failed
        } catch {
            context.standardError.writeLine("error: \(error)")
            throw CommandFailure.usage
        }
        // After the load: the exporter holds an HTTP client that must be shut down, which only
        // the running server does; a load that fails must not leave one behind.
        if let otelEndpoint {
            do {
                server = server.tracing(try TracingSettings.otlp(endpoint: otelEndpoint, logger: logger))
            } catch {
                context.standardError.writeLine("error: \(error)")
                throw CommandFailure.usage
            }
        }
        // ArgumentParser commands are synchronous: the server runs on the concurrency pool
        // while this thread waits for it to stop (SIGTERM or SIGINT).
        try Self.wait { [server] in try await server.run() }
    }

    /// Runs `serve` on the concurrency pool while this thread waits for it to stop.
    private static func wait(_ serve: @escaping @Sendable () async throws -> Void) throws {
        let context = CommandContext.current
        let outcome = ServeOutcome()
        let stopped = DispatchSemaphore(value: 0)
        Task {
            do { try await serve() } catch { outcome.record(error) }
            stopped.signal()
        }
        stopped.wait()
        if let error = outcome.error {
            context.standardError.writeLine("error: \(error)")
            throw CommandFailure.failed
        }
    }

    /// The admin token from `--admin-token-file` or `REGIMEN_ADMIN_TOKEN`, surrounding
    /// whitespace removed; `nil` when neither is given.
    private func adminToken() throws -> String? {
        var token: String?
        if let adminTokenFile {
            token = try String(contentsOfFile: adminTokenFile, encoding: .utf8)
        } else if let value = ProcessInfo.processInfo.environment["REGIMEN_ADMIN_TOKEN"] {
            token = value
        }
        guard let token else { return nil }
        let trimmed = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= 16 else {
            throw ValidationError("the admin token must be at least 16 characters (it guards reloads)")
        }
        return trimmed
    }
}

/// The error the server stopped with, handed from its task to the waiting command.
private final class ServeOutcome: Sendable {
    private let stored = Mutex<(any Error)?>(nil)
    var error: (any Error)? { stored.withLock { $0 } }
    func record(_ error: any Error) { stored.withLock { $0 = error } }
}
