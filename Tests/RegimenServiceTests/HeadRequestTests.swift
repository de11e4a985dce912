import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenService
import Testing

/// `HEAD` answers as `GET` would, without the body, on every `GET` route.
@Suite struct HeadRequestTests {
    typealias Support = ServiceTestSupport

    /// The `GET` routes whose answer does not change between two calls.
    static func stablePaths(page: String) -> [String] {
        let assets = WebPageTests.assetReferences(page)
        return ["/", "/healthz", "/readyz", "/openapi.json", "/v1/rules", "/v1/policies", "/no/such/page"] + assets
    }

    /// Headers that differ between any two answers.
    static let perRequest: Set<HTTPField.Name> = [HTTPField.Name("Regimen-Request-Id")!, .date]

    static func comparable(_ fields: HTTPFields) -> [String: String] {
        var out: [String: String] = [:]
        for field in fields where !perRequest.contains(field.name) && field.name != .contentLength {
            out[field.name.canonicalName, default: ""] += field.value
        }
        return out
    }

    @Test func everyGetRouteAnswersHeadWithItsStatusAndHeadersAndNoBody() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.live) { live in
            let port = try #require(live.port)
            // A real connection, so the framing of a bodiless answer is tested too; patient,
            // because the answer is under test, not how fast it comes on a loaded machine.
            try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: ReloadUnderLoadTests.patientClient) { client in
                let page = String(buffer: try #require(try await client.get("/").body))
                for path in Self.stablePaths(page: page) {
                    let get = try await client.get(path)
                    let head = try await client.head(path)
                    let getLength = get.body?.readableBytes ?? 0
                    #expect(head.status == get.status, "\(path)")
                    #expect((head.body?.readableBytes ?? 0) == 0, "\(path): HEAD sent a body")
                    #expect(Self.comparable(head.headers) == Self.comparable(get.headers), "\(path)")
                    #expect(head.headers[.contentLength] == String(getLength), "\(path)")
                }
                // The connection is still good after bodiless answers: a GET after HEAD gets its body.
                let after = try await client.get("/")
                #expect(after.body.map { String(buffer: $0) } == page)
            }
        }
    }
}
