import Foundation
import Hummingbird
import HummingbirdTesting
@testable import RegimenService
import Testing

/// `/openapi.json` documents exactly the routes the router serves.
@Suite struct OpenAPIDocumentTests {
    typealias Support = ServiceTestSupport

    /// The page for people and its assets: HTML, CSS and JavaScript files, not the JSON API, so
    /// the OpenAPI document (and the API fuzzing that reads it) leaves them out.
    static let webRoutes: Set<String> = ["get /", "get /assets/{file}"]

    /// The router's routes as `METHOD path`, with the policies' catch-all written as the two
    /// actions it serves, and without the page's routes. `HEAD` is implied by `GET` (RFC 9110
    /// §9.3.2: the same answer without a body), so the document lists the `GET` alone; every
    /// `HEAD` route must have its `GET`.
    static func routerRoutes(_ server: RegimenServer) -> Set<String> {
        var routes: Set<String> = []
        let served = server.router(for: .private).routes
        let gets = Set(served.filter { $0.method == .get }.map(\.path.description))
        for route in served {
            let method = route.method.rawValue.lowercased(), path = route.path.description
            if route.method == .head {
                #expect(gets.contains(path), "HEAD \(path) without its GET")
                continue
            }
            if webRoutes.contains("\(method) \(path)") { continue }
            if path.hasSuffix("/**") {
                let base = String(path.dropLast(3))
                routes.insert("\(method) \(base)/{name}:authorize")
                routes.insert("\(method) \(base)/{name}:test")
            } else {
                routes.insert("\(method) \(path)")
            }
        }
        return routes
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
        let server = try Support.server()
        let routes = Self.routerRoutes(server)
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                let document = try #require(try Support.value(response) as? [String: Any])
                #expect(document["openapi"] as? String == "3.1.0")
                let paths = try #require(document["paths"] as? [String: [String: Any]])
                var documented: Set<String> = []
                for (path, methods) in paths {
                    for method in methods.keys { documented.insert("\(method) \(path)") }
                }
                #expect(routes.subtracting(documented).isEmpty, "undocumented: \(routes.subtracting(documented).sorted())")
                #expect(documented.subtracting(routes).isEmpty, "documented but not served: \(documented.subtracting(routes).sorted())")
                #expect(routes.count >= 20)
                // Every reference resolves.
                let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
                let text = Support.text(response)
                let references = text.components(separatedBy: "#/components/schemas/").dropFirst().map { $0.prefix { $0 != "\"" } }
                for reference in references { #expect(schemas[String(reference)] != nil, "\(reference)") }
            }
        }
    }

    @Test func thePagesRoutesAreServedButNotDocumented() async throws {
        let server = try Support.server()
        let served = Set(server.router(for: .private).routes.map { "\($0.method.rawValue.lowercased()) \($0.path.description)" })
        #expect(Self.webRoutes.isSubset(of: served), "\(Self.webRoutes.subtracting(served))")
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                let document = try #require(try Support.value(response) as? [String: Any])
                let paths = try #require(document["paths"] as? [String: Any])
                #expect(paths["/"] == nil && paths["/assets/{file}"] == nil)
            }
        }
    }

    @Test func everyErrorStatusARouteAnswersIsDocumentedForIt() async throws {
        // Spot checks of the statuses the error tests provoke, against the document.
        let server = try Support.server()
        try await server.application(.private).test(.router) { client in
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                let document = try #require(try Support.value(response) as? [String: Any])
                let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
                let plans = try #require(paths["/v1/plans"]?["post"]?["responses"] as? [String: Any])
                for status in ["200", "400", "413", "415", "422", "503"] { #expect(plans[status] != nil, "\(status)") }
                let authorize = try #require(paths["/v1/policies/{name}:authorize"]?["post"]?["responses"] as? [String: Any])
                #expect(authorize["404"] != nil)
            }
        }
    }
}
