import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenService
import Testing

/// Hostile and broken requests get the error body with the right status, never a 500.
@Suite struct ErrorResponseTests {
    typealias Support = ServiceTestSupport

    @Test func bodiesOverTheLimitAre413() async throws {
        let server = try Support.server(Support.configuration(maximumBodyBytes: 1000))
        try await server.application(.public).test(.router) { client in
            let big = "{\"sex\": \"female\", \"note\": \"" + String(repeating: "x", count: 2000) + "\"}"
            try await client.execute(uri: "/v1/plans", method: .post, headers: Support.json, body: Support.body(big)) { response in
                #expect(response.status == .contentTooLarge)
                let errorBody = try Support.error(response)
                #expect(errorBody["id"] as? String == "request.too-large")
            }
        }
    }

    @Test func wrongOrMissingContentTypesAre415() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            for headers: HTTPFields in [[.contentType: "text/plain"], [.contentType: "application/x-www-form-urlencoded"], [:]] {
                try await client.execute(uri: "/v1/plans", method: .post, headers: headers, body: Support.body(#"{"sex": "female"}"#)) { response in
                    #expect(response.status == .unsupportedMediaType, "\(headers)")
                    let errorBody = try Support.error(response)
                    #expect(errorBody["path"] as? String == "Content-Type")
                }
            }
        }
    }

    @Test func unreadableBodiesAre400AndContractViolations422NamingTheField() async throws {
        let server = try Support.server()
        try await server.application(.public).test(.router) { client in
            let unreadable: [(String, [UInt8])] = [
                ("syntax", Array(#"{"sex": "female",,}"#.utf8)),
                ("empty", []),
                ("invalid UTF-8", [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D]),
                ("deep nesting", Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)),
                ("deep objects", Array((String(repeating: "{\"a\":", count: 50_000) + "1" + String(repeating: "}", count: 50_000)).utf8)),
            ]
            for uri in ["/v1/plans", "/v1/tracker/validate", "/v1/adapt", "/v1/policies/workout-tracker/corrected:authorize", "/v1/policies/workout-tracker/corrected:test"] {
                for (name, bytes) in unreadable {
                    try await client.execute(uri: uri, method: .post, headers: Support.json, body: ByteBuffer(bytes: bytes)) { response in
                        #expect(response.status == .badRequest, "\(uri) \(name): \(Support.text(response))")
                        let error = try Support.error(response)
                        #expect(error["message"] is String, "\(uri) \(name)")
                    }
                }
            }
            try await client.execute(uri: "/v1/plans", method: .post, headers: Support.json, body: Support.body(#"{"sex": "robot", "schedule_days": 3}"#)) { response in
                #expect(response.status == .unprocessableContent)
                let errorBody = try Support.error(response)
                #expect(errorBody["path"] as? String == "sex")
            }
            try await client.execute(uri: "/v1/plans", method: .post, headers: Support.json, body: Support.body(#"{"sex": "female", "weight_kg": 1e308, "height_cm": -1e400, "schedule_days": 123456789012345678901234567890}"#)) { response in
                #expect(response.status == .unprocessableContent, "\(Support.text(response))")
                let error = try Support.error(response)
                #expect(error["path"] is String)
            }
            try await client.execute(uri: "/v1/plans?split=no_such_split", method: .post, headers: Support.json, body: Support.body(#"{"sex": "female"}"#)) { response in
                #expect(response.status == .unprocessableContent, "\(Support.text(response))")
            }
            try await client.execute(uri: "/v1/policies/workout-tracker/corrected:authorize", method: .post, headers: Support.json, body: Support.body(#"{"get": "users/alice", "auth": {"uid": 5, "tokn": {}}}"#)) { response in
                #expect(response.status == .unprocessableContent, "\(Support.text(response))")
                let error = try Support.error(response)
                #expect((error["path"] as? String)?.hasPrefix("<body>:1:") == true, "\(error)")
            }
            try await client.execute(uri: "/v1/burn?activity=running&minutes=lots&intensity=moderate", method: .get) { response in
                #expect(response.status == .unprocessableContent)
                let errorBody = try Support.error(response)
                #expect(errorBody["path"] as? String == "minutes")
            }
        }
    }

    @Test func aRequestOverItsTimeBudgetIs503WithTheErrorBody() async throws {
        let server = try Support.server(Support.configuration(timeBudget: .zero))
        try await server.application(.public).test(.router) { client in
            try await client.execute(uri: "/v1/plans", method: .post, headers: [.contentType: "application/yaml"], body: Support.file("examples/complete.yaml")) { response in
                #expect(response.status == .serviceUnavailable)
                let errorBody = try Support.error(response)
                #expect(errorBody["id"] as? String == "service.time-budget")
                #expect(response.headers[HTTPField.Name("Regimen-Revision")!] != nil)
            }
        }
    }

    /// A grid of mangled bodies over every body route: each answer is a documented status
    /// (never 5xx) and every error has the error body.
    @Test func mangledBodiesNeverYield5xx() async throws {
        let server = try Support.server()
        let routes = ["/v1/indexes", "/v1/plans", "/v1/adapt", "/v1/nutrition", "/v1/diff", "/v1/supplements", "/v1/tracker/validate",
                      "/v1/tracker/export", "/v1/tracker/analytics", "/v1/tracker/duplicate?program=p1", "/v1/progress", "/v1/daily-log",
                      "/v1/policies/workout-tracker/corrected:authorize", "/v1/policies/workout-tracker/corrected:test"]
        let bodies = [
            "null", "[]", "{}", "1", "\"text\"", "true", "{\"sex\": null}", "[[[[[[]]]]]]", "{\"a\": 1e999999}", "- a\n- b", "&a [*a]",
            "{\"current_plan\": 5}", "{\"old\": 1, \"new\": [] }", "{\"programs\": [{\"id\": null}]}", "{\"get\": \"\"}", "{\"get\": \"//\"}",
            "{\"kind\": \"security-tests\", \"cases\": [{}]}", "{\"requests\": 5}", "a: &x [*x, *x]", "\u{0}", "{\"get\": \"users/a\", \"time\": \"x\"}",
        ]
        try await server.application(.public).test(.router) { client in
            for route in routes {
                for body in bodies {
                    try await client.execute(uri: route, method: .post, headers: Support.json, body: Support.body(body)) { response in
                        #expect(response.status.code < 500, "\(route) \(body): \(Support.text(response))")
                        if response.status.code >= 400 {
                            let errorBody = try Support.error(response)
                            #expect(errorBody["id"] is String, "\(route) \(body)")
                        }
                    }
                }
            }
        }
    }
}
