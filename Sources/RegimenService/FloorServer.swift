import Hummingbird
package import Logging

/// The HTTP floor `scripts/serve-bench.sh` measures the service against: Hummingbird on the
/// same build and machine, reading the same request body and answering a fixed JSON decision,
/// with none of the service's work. A workload's requests/s over the floor's says how much of
/// the HTTP stack's capacity the service's own work leaves.
package enum FloorServer {
    /// The fixed answer: a decision as the service writes one.
    static let decision = #"{"allowed": true, "decision": "allow", "method": "get", "path": "users/alice", "reason": "allowed by the floor"}"# + "\n"

    /// Serves the floor on `host:port` until SIGTERM or SIGINT: every `POST` reads its body (up
    /// to `maximumBodyBytes`) and answers ``decision``.
    package static func run(host: String, port: Int, maximumBodyBytes: Int, logger: Logger) async throws {
        let router = Router()
        router.post("**") { request, _ -> Response in
            var request = request
            _ = try await request.collectBody(upTo: maximumBodyBytes)
            return JSONResponse.make(json: decision)
        }
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "regimen-floor"),
            onServerRunning: { channel in logger.notice("floor serving", metadata: ["port": "\(channel.localAddress?.port ?? 0)"]) },
            logger: logger)
        try await application.runService()
    }
}
