import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RegimenService
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
        try await server.application().test(.live) { client in
            let page = try await client.execute(uri: "/", method: .get) { Support.text($0) }
            for path in Self.stablePaths(page: page) {
                let get = try await client.execute(uri: path, method: .get) { $0 }
                try await client.execute(uri: path, method: .head) { head in
                    #expect(head.status == get.status, "\(path)")
                    #expect(head.body.readableBytes == 0, "\(path): HEAD sent a body")
                    #expect(Self.comparable(head.headers) == Self.comparable(get.headers), "\(path)")
                    #expect(head.headers[.contentLength] == String(get.body.readableBytes), "\(path)")
                }
            }
            // The connection is still good after a bodiless answer: a GET after HEAD gets its body.
            let after = try await client.execute(uri: "/", method: .get) { Support.text($0) }
            #expect(after == page)
        }
    }
}
