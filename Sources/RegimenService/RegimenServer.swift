import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// `regimen serve`: the engine over HTTP. Load it once (``load(_:logger:)``), then ``run()``,
/// or hand ``application()`` to a test.
package struct RegimenServer: Sendable {
    package let configuration: ServiceConfiguration
    /// The serving snapshot and the last failed reload.
    package let store: SnapshotStore
    package let reloader: Reloader
    package let metrics: ServiceMetrics
    /// Where heavy routes compute (plans, batches, the playground).
    package let executor: WorkExecutor
    let logger: Logger
    let decisionLog: DecisionLog?

    /// Loads and checks the whole set; the service starts only from a good one.
    /// - Throws: ``LoadFailure`` with every diagnostic, or the error opening the decision log.
    package static func load(_ configuration: ServiceConfiguration, logger: Logger = Logger(label: "regimen.serve")) throws -> RegimenServer {
        let loader = SnapshotLoader(configuration: configuration)
        let snapshot = try loader.load().get()
        let metrics = ServiceMetrics()
        metrics.serving(revision: snapshot.revision)
        let store = SnapshotStore(snapshot)
        let decisionLog = try configuration.decisionLog.map { try DecisionLog(file: $0) }
        return RegimenServer(
            configuration: configuration, store: store, reloader: Reloader(store: store, loader: loader, metrics: metrics, logger: logger),
            metrics: metrics, executor: WorkExecutor(configuration.work), logger: logger, decisionLog: decisionLog)
    }

    /// The router with every route; ``ServiceMiddleware`` wraps each of them and the 404s.
    package func router() -> Router<ServiceContext> {
        let router = Router(context: ServiceContext.self)
        router.add(middleware: ServiceMiddleware(store: store, metrics: metrics, logger: logger))
        let routes = ServiceRoutes(
            bodies: RequestBodyReader(maximumBytes: configuration.maximumBodyBytes), store: store, metrics: metrics, reloader: reloader,
            decisionLog: decisionLog, adminToken: configuration.adminToken, timeBudget: configuration.timeBudget, executor: executor,
            playground: PlaygroundSettings(enabled: configuration.playgroundEnabled, panel: configuration.panel))
        routes.addPlanner(to: router)
        routes.addTracker(to: router)
        routes.addPolicies(to: router)
        routes.addOperations(to: router)
        routes.addPlayground(to: router)
        routes.addWeb(to: router, logger: logger)
        return router
    }

    /// The application: the router on the configured address, with the reload service beside it.
    package func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let logger = logger
        return Application(
            router: router(),
            server: TimedHTTP1Channel.builder(configuration.timeouts),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "regimen",
                availableConnectionsDelegate: .maximum(configuration.maximumConnections, logger: logger)),
            services: [ReloadService(reloader: reloader, pollInterval: configuration.pollInterval, decisionLog: decisionLog, logger: logger)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.notice("serving", metadata: ["address": "\(channel.localAddress.map { "\($0)" } ?? "?")", "port": "\(port)"])
                await onServerRunning(port)
            },
            logger: logger)
    }

    /// Opens the decision log by its name again, as SIGHUP does (after a rotation).
    package func reopenDecisionLog() throws {
        try decisionLog?.reopen()
    }

    /// Serves until SIGTERM or SIGINT.
    package func run() async throws {
        try await application().runService()
    }
}
