import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import Testing

/// The playground's routes exist on the private listener on a loopback address, or anywhere
/// with `--playground`; off, they answer 404 as unknown routes do, and `GET /v1/rules` tells the
/// page which it is. (The public listener never has them: ``ListenerTests``.)
@Suite struct PlaygroundGateTests {
    typealias Support = ServiceTestSupport

    static func configuration(host: String, requested: Bool = false) -> ServiceConfiguration {
        var configuration = Support.configuration()
        configuration.privateHost = host
        configuration.playgroundRequested = requested
        return configuration
    }

    @Test(arguments: [
        "127.0.0.1", "127.1.2.3", "127.255.255.255", "localhost", "LOCALHOST", "localhost.", "::1", "[::1]", "0:0:0:0:0:0:0:1",
        "::ffff:127.0.0.1", "::1%lo",
    ])
    func loopbackAddressesAreLoopback(_ host: String) {
        #expect(ServiceConfiguration.isLoopback(host))
        #expect(Self.configuration(host: host).playgroundEnabled)
    }

    @Test(arguments: [
        "0.0.0.0", "::", "[::]", "192.168.1.20", "10.0.0.1", "128.0.0.1", "126.0.0.1", "127.0.0.256", "127.0.0", "127.0.0.1.5",
        "localhost.example.com", "mylocalhost", "example.com", "::2", "::ffff:10.0.0.1", "", "127.0.0.1 ", "1270.0.0.1",
    ])
    func otherAddressesAreNotLoopbackAndNeedTheFlag(_ host: String) {
        #expect(ServiceConfiguration.isLoopback(host.trimmingCharacters(in: .whitespaces)) == (host == "127.0.0.1 "))
        if host != "127.0.0.1 " {
            #expect(!Self.configuration(host: host).playgroundEnabled)
            #expect(Self.configuration(host: host, requested: true).playgroundEnabled)
        }
    }

    /// Every playground route (the document lists them under `/v1/playground/`) as GET or POST.
    static func playgroundOperations(_ server: RegimenServer) -> [(String, HTTPRequest.Method)] {
        server.router(for: .private).routes.filter { $0.path.description.hasPrefix("/v1/playground/") }
            .map { ($0.path.description, $0.method) }
    }

    @Test func offANonLoopbackAddressThePlaygroundIs404UnlessAskedFor() async throws {
        let on = try Support.server(Self.configuration(host: "127.0.0.1"))
        let routes = Self.playgroundOperations(on)
        #expect(routes.count >= 2, "\(routes)")
        let off = try Support.server(Self.configuration(host: "0.0.0.0"))
        #expect(Self.playgroundOperations(off).isEmpty)
        try await off.application(.private).test(.router) { client in
            for (path, method) in routes {
                try await client.execute(uri: path + "?path=rules/nutrition.yaml", method: method, headers: Support.json, body: Support.body("{}")) { response in
                    #expect(response.status == .notFound, "\(method) \(path)")
                    let error = try Support.error(response)
                    #expect(error["id"] as? String == "route.not-found", "\(method) \(path)")
                }
            }
            try await client.execute(uri: "/v1/rules", method: .get) { response in
                let info = try #require(try Support.value(response) as? [String: Any])
                #expect(info["playground"] as? Bool == false)
            }
        }
        let flagged = try Support.server(Self.configuration(host: "0.0.0.0", requested: true))
        try await flagged.application(.private).test(.router) { client in
            try await client.execute(uri: "/v1/playground/file?path=rules/nutrition.yaml", method: .get) { response in
                #expect(response.status == .ok, "\(Support.text(response))")
            }
            try await client.execute(uri: "/v1/rules", method: .get) { response in
                let info = try #require(try Support.value(response) as? [String: Any])
                #expect(info["playground"] as? Bool == true)
            }
        }
    }

    @Test func aServedFilesTextIsItsTextOnDiskAndNoOtherPathIsRead() async throws {
        let server = try Support.server(Self.configuration(host: "::1"))
        let served = server.store.current.files.filter { $0.path.hasPrefix("rules/") || $0.path.hasPrefix("catalogs/") }
        #expect(served.count > 20)
        try await server.application(.private).test(.router) { client in
            for file in served where file.path.hasSuffix(".yaml") {
                let expected = try String(contentsOf: Support.root.appendingPathComponent(file.path), encoding: .utf8)
                try await client.execute(uri: "/v1/playground/file?path=\(file.path)", method: .get) { response in
                    #expect(response.status == .ok, "\(file.path)")
                    let body = try #require(try Support.value(response) as? [String: Any])
                    #expect(body["text"] as? String == expected, "\(file.path)")
                    #expect(body["kind"] as? String == file.kind, "\(file.path)")
                }
            }
            for path in ["Package.swift", "rules/../Package.swift", "/etc/passwd", "rules/missing.yaml", "rules"] {
                try await client.execute(uri: "/v1/playground/file?path=\(path)", method: .get) { response in
                    #expect(response.status == .notFound, "\(path)")
                    let error = try Support.error(response)
                    #expect(error["id"] as? String == "playground.file", "\(path)")
                }
            }
            try await client.execute(uri: "/v1/playground/file", method: .get) { response in
                #expect(response.status == .unprocessableContent)
            }
            try await client.execute(uri: "/v1/playground/panel", method: .get) { response in
                let body = try #require(try Support.value(response) as? [String: Any])
                let clients = try #require(body["clients"] as? [String])
                #expect(clients.count == 240)
                #expect(clients.first == "client-001.yaml" && clients == clients.sorted())
            }
        }
    }
}
