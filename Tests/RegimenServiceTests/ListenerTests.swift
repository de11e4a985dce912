import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenService
import Testing

/// The public listener serves the API and the page's planner, never admin, the playground or
/// the simulator, whatever its address or flags; the private one answers only requests
/// addressed to this machine.
@Suite struct ListenerTests {
    typealias Support = ServiceTestSupport
    static let host = HTTPField.Name("Host")!

    static func privateRoutes(_ server: RegimenServer) -> [(String, HTTPRequest.Method)] {
        server.router(for: .private).routes
            .filter { $0.path.description.hasPrefix("/v1/playground/") || $0.path.description.hasPrefix("/v1/admin/") }
            .map { ($0.path.description, $0.method) }
    }

    @Test(arguments: ["127.0.0.1", "0.0.0.0", "::1"], [false, true])
    func thePublicListenerNeverHasAdminPlaygroundOrSimulator(_ host: String, _ requested: Bool) async throws {
        var configuration = Support.configuration(adminToken: "test-admin-token-0123456789")
        configuration.host = host
        configuration.playgroundRequested = requested
        // A public listener beyond loopback starts only with an explicit identity mode (issue 35).
        configuration.access.identityMode = .open
        let server = try Support.server(configuration)
        let privateRoutes = Self.privateRoutes(server)
        #expect(privateRoutes.contains { $0.0 == "/v1/admin/reload" })
        #expect(privateRoutes.contains { $0.0 == "/v1/playground/simulator/decide" })
        let publicPaths = server.router(for: .public).routes.map(\.path.description)
        #expect(!publicPaths.contains { $0.hasPrefix("/v1/playground/") || $0.hasPrefix("/v1/admin/") }, "\(publicPaths)")
        try await server.application(.public).test(.router) { client in
            for (path, method) in privateRoutes {
                try await client.execute(uri: path + "?path=rules/nutrition.yaml", method: method,
                                         headers: [.contentType: "application/json", .authorization: "Bearer test-admin-token-0123456789"],
                                         body: Support.body("{}")) { response in
                    #expect(response.status == .notFound, "\(method) \(path)")
                }
            }
            try await client.execute(uri: "/v1/rules", method: .get) { response in
                let info = try #require(try Support.value(response) as? [String: Any])
                #expect(info["playground"] as? Bool == false)
            }
            try await client.execute(uri: "/v1/plans", method: .post, headers: [.contentType: "application/yaml"], body: Support.file("examples/minimal.yaml")) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func thePrivateListenerRefusesOtherHostsAndOrigins() async throws {
        let server = try Support.server()
        try await server.application(.private).test(.router) { client in
            for host in ["localhost", "localhost:18080", "127.0.0.1:18080", "[::1]:18080", "127.0.0.1"] {
                try await client.execute(uri: "/v1/playground/panel", method: .get, headers: [Self.host: host]) { response in
                    #expect(response.status == .ok, "\(host)")
                }
            }
            for host in ["evil.example", "evil.example:18080", "10.0.0.5:18080", "localhost.evil.example"] {
                try await client.execute(uri: "/v1/playground/panel", method: .get, headers: [Self.host: host]) { response in
                    #expect(response.status == .forbidden, "\(host)")
                    let error = try Support.error(response)
                    #expect(error["id"] as? String == "request.host")
                }
            }
            for origin in ["http://evil.example", "https://127.0.0.1.evil.example:443", "file://x"] {
                try await client.execute(uri: "/v1/playground/panel", method: .get, headers: [Self.host: "localhost", .origin: origin]) { response in
                    #expect(response.status == .forbidden, "\(origin)")
                }
            }
            try await client.execute(uri: "/v1/playground/panel", method: .get, headers: [Self.host: "localhost", .origin: "http://localhost:18080"]) { response in
                #expect(response.status == .ok)
            }
        }
    }
}
