import Foundation
import Hummingbird
package import Logging
import ServiceLifecycle
import UnixSignals

/// `regimen serve`: the engine over HTTP. Load it once (``load(_:logger:)``), then ``run()``,
/// or hand ``application()`` to a test.
package struct RegimenServer: Sendable {
    package let configuration: ServiceConfiguration
    /// The serving snapshot and the last failed reload.
    package let store: SnapshotStore
    let reloader: Reloader
    let metrics: ServiceMetrics
    /// Where heavy routes compute (plans, batches, the playground).
    let executor: WorkExecutor
    let logger: Logger
    let decisionLog: DecisionLog?
    /// Identity modes and ID-token verification.
    package let access: AccessControl
    /// Live documents (a Firestore database), when configured.
    let liveDocuments: LiveDocumentDecider?

    /// Loads and checks the whole set; the service starts only from a good one.
    /// - Throws: ``AccessConfigurationError`` for an identity configuration it refuses,
    ///   ``LoadFailure`` with every diagnostic, or the error opening the decision log.
    package static func load(_ configuration: ServiceConfiguration, logger: Logger = Logger(label: "regimen.serve")) throws -> RegimenServer {
        let access = try AccessControl(configuration.access, publicHost: configuration.host, logger: logger)
        let loader = SnapshotLoader(configuration: configuration)
        let snapshot = try loader.load().get()
        let metrics = ServiceMetrics()
        metrics.serving(revision: snapshot.revision)
        let store = SnapshotStore(snapshot)
        let decisionLog = try configuration.decisionLog.map { try DecisionLog(file: $0, masked: configuration.access.decisionLogMask) }
        let liveDocuments = try configuration.liveDocuments.map { settings throws(LiveDocumentError) in
            LiveDocumentDecider(
                reader: try FirestoreRESTReader(settings), cache: LiveDocumentCache(timeToLive: settings.cacheTTL, capacity: settings.cacheEntries))
        }
        return RegimenServer(
            configuration: configuration, store: store, reloader: Reloader(store: store, loader: loader, metrics: metrics, logger: logger),
            metrics: metrics, executor: WorkExecutor(configuration.work), logger: logger, decisionLog: decisionLog, access: access,
            liveDocuments: liveDocuments)
    }

    /// This server with its requests traced (``RequestTracing``): `regimen serve` turns tracing on
    /// once the rules have loaded, so a load that fails leaves no exporter to shut down.
    package func tracing(_ settings: TracingSettings) -> RegimenServer {
        var configuration = configuration
        configuration.tracing = settings
        return RegimenServer(
            configuration: configuration, store: store, reloader: reloader, metrics: metrics, executor: executor, logger: logger,
            decisionLog: decisionLog, access: access, liveDocuments: liveDocuments)
    }

    /// The router of one listener; ``ServiceMiddleware`` wraps each route and the 404s. The
    /// private listener's has every route, behind ``PrivateListenerGuard``; the public one's
    /// has neither admin, nor the playground, nor the simulator.
    func router(for listener: Listener) -> Router<ServiceContext> {
        let router = Router(context: ServiceContext.self)
        if let tracing = configuration.tracing { router.add(middleware: RequestTracing(tracer: tracing.tracer)) }
        router.add(middleware: ServiceMiddleware(store: store, metrics: metrics, logger: logger))
        if listener == .private { router.add(middleware: PrivateListenerGuard(boundHost: configuration.privateHost)) }
        if let callers = access.callerAuthentication(for: listener) { router.add(middleware: callers) }
        let routes = ServiceRoutes(
            bodies: RequestBodyReader(maximumBytes: configuration.maximumBodyBytes), store: store, metrics: metrics, reloader: reloader,
            decisionLog: decisionLog, adminToken: listener == .private ? configuration.adminToken : nil, timeBudget: configuration.timeBudget,
            executor: executor,
            playground: PlaygroundSettings(
                enabled: listener == .private && configuration.playgroundEnabled, panel: configuration.panel,
                analysis: AnalysisSettings(solver: configuration.analysisSolver, queryTimeout: configuration.analysisTimeout)),
            access: access, listener: listener, liveDocuments: liveDocuments)
        routes.addPlanner(to: router)
        routes.addTracker(to: router)
        routes.addPolicies(to: router)
        routes.addOperations(to: router, admin: listener == .private)
        routes.addPlayground(to: router)
        routes.addWeb(to: router, logger: logger)
        return router
    }

    /// One listener's application on its configured address. The public one carries the
    /// reload service and, when it is on, the private listener beside it: ``run()`` runs both.
    func application(
        _ listener: Listener, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let logger = logger
        var services: [any Service] = []
        if listener == .public {
            services.append(ReloadService(
                reloader: reloader, pollInterval: configuration.pollInterval, decisionLog: decisionLog, tls: access.tls, logger: logger))
        }
        let address: BindAddress = listener == .public
            ? .hostname(configuration.host, port: configuration.port)
            : .hostname(configuration.privateHost, port: configuration.privatePort ?? 0)
        return Application(
            router: router(for: listener),
            server: TimedHTTP1Channel.builder(configuration.timeouts, tls: listener == .public ? access.tls : nil),
            configuration: ApplicationConfiguration(
                address: address, serverName: "regimen",
                availableConnectionsDelegate: .maximum(configuration.maximumConnections, logger: logger)),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.notice("serving", metadata: [
                    "listener": "\(listener.rawValue)", "address": "\(channel.localAddress.map { "\($0)" } ?? "?")", "port": "\(port)",
                ])
                await onServerRunning(port)
            },
            logger: logger)
    }

    /// Opens the decision log by its name again, as SIGHUP does (after a rotation).
    func reopenDecisionLog() throws {
        try decisionLog?.reopen()
    }

    /// Serves both listeners (the private one unless it is off) until SIGTERM or SIGINT. The
    /// span exporter, when tracing is on, comes first: a group stops its services in reverse
    /// order, so it stops last and sends the spans of the last requests.
    package func run() async throws {
        var services: [any Service] = configuration.tracing?.exporter.map { [$0] } ?? []
        services.append(application(.public))
        if configuration.privatePort != nil { services.append(application(.private)) }
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
