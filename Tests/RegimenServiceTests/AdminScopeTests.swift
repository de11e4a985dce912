import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import RegimenTestSupport
import Testing

/// Issue 35 item 2: the `admin` scope. On the private listener a caller key holding it calls
/// `/v1/admin/*` in place of the admin token; any other key is refused there, and the public
/// listener has no admin routes whatever the key.
@Suite struct AdminScopeTests {
    typealias Support = ServiceTestSupport

    static let keys: [(id: String, key: String, scopes: [String], rate: String?)] = [
        ("operator", "key-operator-0123456789", ["admin"], nil),
        ("backend", "key-backend-0123456789", ["plans", "authorize", "authorize:claims", "test", "documents"], nil),
    ]

    func server(_ folder: ScratchFolder, adminToken: String?) throws -> RegimenServer {
        try folder.write(CallerKeysTests.keyFile(Self.keys), to: "keys.json")
        var configuration = Support.configuration(adminToken: adminToken)
        configuration.access = AccessConfiguration(identityMode: .open, callerKeys: folder.url.appendingPathComponent("keys.json"))
        return try Support.server(configuration)
    }

    static func headers(key: String? = nil, bearer: String? = nil) -> HTTPFields {
        var headers: HTTPFields = [:]
        if let key { headers[HTTPField.Name("Regimen-Api-Key")!] = key }
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        return headers
    }

    /// Every combination of key (none, unknown, without admin, with admin) and token (none,
    /// wrong, right), with and without a configured admin token: only the admin key or the
    /// right token reloads; the answer names what was missing.
    @Test func onlyTheAdminScopeOrTheTokenReloads() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        let keys: [String?] = [nil, "key-unknown-0123456789", "key-backend-0123456789", "key-operator-0123456789"]
        for adminToken in [nil, "admin-secret-0123456789"] as [String?] {
            let server = try server(folder, adminToken: adminToken)
            try await server.application(.private).test(.router) { client in
                for key in keys {
                    for bearer in [nil, "wrong-token", adminToken].compactMap({ $0 }).map(Optional.some) + [nil] {
                        let response = try await client.execute(uri: "/v1/admin/reload", method: .post, headers: Self.headers(key: key, bearer: bearer))
                        let expected: (HTTPResponse.Status, String)
                        switch key {
                        case "key-operator-0123456789"?: expected = (.ok, "")
                        case "key-backend-0123456789"?: expected = (.forbidden, "caller.scope")
                        case "key-unknown-0123456789"?: expected = (.unauthorized, "caller.key-unknown")
                        default:
                            if adminToken == nil {
                                expected = (.unauthorized, "admin.key")
                            } else if bearer == nil {
                                expected = (.unauthorized, "admin.token")
                            } else {
                                expected = bearer == adminToken ? (.ok, "") : (.forbidden, "admin.token")
                            }
                        }
                        #expect(response.status == expected.0, "key \(key ?? "-"), bearer \(bearer ?? "-"), token \(adminToken ?? "-")")
                        if expected.0 != .ok {
                            #expect(try Support.error(response)["id"] as? String == expected.1, "key \(key ?? "-"), bearer \(bearer ?? "-")")
                        }
                    }
                }
            }
            // The public listener has no admin routes, whatever the key or token (the caller
            // check answers first: the admin key holds no public scope).
            try await server.application(.public).test(.router) { client in
                for key in keys {
                    let response = try await client.execute(uri: "/v1/admin/reload", method: .post, headers: Self.headers(key: key, bearer: adminToken))
                    #expect([.notFound, .forbidden, .unauthorized].contains(response.status), "\(key ?? "-"): \(response.status)")
                }
            }
        }
    }
}
