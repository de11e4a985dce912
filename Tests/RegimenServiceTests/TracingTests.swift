import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenService
import ServiceLifecycle
import Synchronization
import Testing

/// Issue 35 item 5: OpenTelemetry tracing (`regimen serve --otel-endpoint`). Each test runs the
/// service with the tracer `--otel-endpoint` builds (swift-otel, W3C propagation, OTLP/HTTP),
/// exporting to a collector served in-process, then stops the exporter (which sends every
/// finished span) and reads what the collector received.
@Suite struct TracingTests {
    typealias Support = ServiceTestSupport

    static let authorize = "/v1/policies/workout-tracker/corrected:authorize"
    static let callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let callerSpan = "00f067aa0ba902b7"

    /// One span as the collector received it (OTLP/JSON).
    struct CollectedSpan {
        let traceID: String
        let spanID: String
        /// Empty for a trace's first span.
        let parentSpanID: String
        let name: String
        let attributes: [String: Any]
        /// OTLP's status code: 0 unset, 1 ok, 2 error.
        let statusCode: Int

        func string(_ key: String) -> String? { attributes[key] as? String }
    }

    /// An OTLP/HTTP collector at `/v1/traces`, keeping every export it is sent.
    final class Collector: Sendable {
        let exports = Mutex<[Data]>([])

        /// Every span of every export received.
        func spans() throws -> [CollectedSpan] {
            try exports.withLock { $0 }.flatMap(Self.spans(in:))
        }

        func application() -> some ApplicationProtocol {
            let router = Router()
            router.post("/v1/traces") { request, _ -> Response in
                let body = Data(try await request.body.collect(upTo: 1 << 22).readableBytesView)
                self.exports.withLock { $0.append(body) }
                return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
            }
            return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: Support.quietLogger)
        }

        /// The spans of an ExportTraceServiceRequest in OTLP/JSON.
        static func spans(in data: Data) throws -> [CollectedSpan] {
            let request = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            var found: [CollectedSpan] = []
            for resource in request["resourceSpans"] as? [[String: Any]] ?? [] {
                for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                    for span in scope["spans"] as? [[String: Any]] ?? [] {
                        var attributes: [String: Any] = [:]
                        for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                            guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any] else { continue }
                            attributes[key] = plain(value)
                        }
                        found.append(CollectedSpan(
                            traceID: hex(span["traceId"] as? String ?? ""), spanID: hex(span["spanId"] as? String ?? ""),
                            parentSpanID: hex(span["parentSpanId"] as? String ?? ""), name: span["name"] as? String ?? "",
                            attributes: attributes, statusCode: (span["status"] as? [String: Any])?["code"] as? Int ?? 0))
                    }
                }
            }
            return found
        }

        /// An OTLP/JSON AnyValue as a Swift value: a string, an integer (sent as text), or a list of them.
        static func plain(_ value: [String: Any]) -> Any? {
            if let text = value["stringValue"] as? String { return text }
            if let number = value["intValue"] as? String { return Int(number) }
            if let number = value["intValue"] as? Int { return number }
            if let list = (value["arrayValue"] as? [String: Any])?["values"] as? [[String: Any]] { return list.compactMap(plain) }
            return nil
        }

        /// A trace or span id as lowercase hex: OTLP/JSON writes ids in hex; a protobuf JSON
        /// encoder writes bytes in base64.
        static func hex(_ text: String) -> String {
            if (text.count == 32 || text.count == 16), text.allSatisfy(\.isHexDigit) { return text.lowercased() }
            guard let bytes = Data(base64Encoded: text) else { return text }
            return bytes.map { String(format: "%02x", $0) }.joined()
        }
    }

    /// Runs `requests` against a server traced as `--otel-endpoint` traces (or not traced at all),
    /// stops the exporter so that it sends every span, and returns their answers and the spans.
    func traced<Answers: Sendable>(
        _ tracingOn: Bool = true, _ requests: @escaping @Sendable (any TestClientProtocol) async throws -> Answers
    ) async throws -> (Answers, [CollectedSpan]) {
        let collector = Collector()
        let answers = try await collector.application().test(.live) { live in
            let port = try #require(live.port)
            // The server first: the exporter's HTTP client must be shut down once made, which
            // only the group below does (as `regimen serve` turns tracing on after the load).
            var server = try Support.server()
            let tracing = try TracingSettings.otlp(endpoint: "http://127.0.0.1:\(port)", encoding: .json, logger: Support.quietLogger)
            if tracingOn { server = server.tracing(tracing) }
            let exporter = try #require(tracing.exporter)
            let group = ServiceGroup(configuration: .init(services: [exporter], logger: Support.quietLogger))
            return try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                let outcome: Result<Answers, any Error>
                do {
                    outcome = .success(try await server.application(.public).test(.router, requests))
                } catch {
                    outcome = .failure(error)
                }
                // A graceful shutdown sends what the batch still holds.
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return try outcome.get()
            }
        }
        return (answers, try collector.spans())
    }

    /// A response's headers, kept past the client's closure.
    struct Answer: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields

        func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
    }

    static func post(_ client: any TestClientProtocol, _ uri: String, body: String, headers: HTTPFields = [:]) async throws -> Answer {
        var all = headers
        all[.contentType] = "application/json"
        let response = try await client.execute(uri: uri, method: .post, headers: all, body: ByteBuffer(string: body))
        return Answer(status: response.status, headers: response.headers)
    }

    /// A caller's `traceparent` is continued: the request's span is in the caller's trace, a
    /// child of the caller's span, and `traceresponse` names it; the authorize span under it
    /// carries the policy, the revision, the decision and the decision id the answer shows.
    @Test func aCallersTraceparentIsContinued() async throws {
        let (answer, spans) = try await traced { client in
            try await Self.post(
                client, Self.authorize, body: #"{"get": "users/alice", "auth": {"uid": "alice"}}"#,
                headers: [HTTPField.Name("traceparent")!: "00-\(Self.callerTrace)-\(Self.callerSpan)-01"])
        }
        #expect(answer.status == .ok)
        let server = try #require(spans.first { $0.parentSpanID == Self.callerSpan }, "no span is a child of the caller's: \(spans.map(\.name))")
        #expect(server.traceID == Self.callerTrace)
        #expect(server.attributes["http.response.status_code"] as? Int == 200)
        #expect(server.string("http.request.method") == "POST")
        #expect(server.statusCode != 2)
        #expect(answer.header("traceresponse") == "00-\(Self.callerTrace)-\(server.spanID)-01")
        #expect(server.string("regimen.request_id") == answer.header("Regimen-Request-Id"))

        let authorize = try #require(spans.first { $0.name == "authorize" })
        #expect(authorize.traceID == Self.callerTrace)
        #expect(authorize.parentSpanID == server.spanID)
        #expect(authorize.string("regimen.policy") == "workout-tracker/corrected")
        #expect(authorize.string("regimen.revision") == answer.header("Regimen-Revision"))
        #expect(authorize.string("regimen.decision") == "allow")
        let decisionID = try #require(answer.header("Regimen-Decision-Id"))
        #expect(authorize.string("regimen.decision_id") == decisionID)
    }

    /// Without `traceparent` each request starts its own trace, which `traceresponse` names; a
    /// batch's decisions are named in order, and a plan's work has its own span.
    @Test func withoutTraceparentEachRequestStartsATrace() async throws {
        let (answers, spans) = try await traced { client in
            let batch = try await Self.post(client, Self.authorize, body: #"[{"get": "users/alice", "auth": {"uid": "alice"}}, {"delete": "users/alice"}]"#)
            let plan = try await client.execute(
                uri: "/v1/plans", method: .post, headers: [.contentType: "application/yaml"], body: try Support.file("examples/minimal.yaml"))
            return [batch, Answer(status: plan.status, headers: plan.headers)]
        }
        #expect(answers.map(\.status) == [.ok, .ok])
        let roots = spans.filter { $0.parentSpanID.isEmpty }
        #expect(roots.count == 2, "spans: \(spans.map { "\($0.name) parent \($0.parentSpanID)" })")
        #expect(Set(roots.map(\.traceID)).count == 2)
        #expect(!roots.contains { $0.traceID == String(repeating: "0", count: 32) })
        let batchRoot = try #require(roots.first { $0.string("url.path") == Self.authorize })
        let planRoot = try #require(roots.first { $0.string("url.path") == "/v1/plans" })
        #expect(answers[0].header("traceresponse") == "00-\(batchRoot.traceID)-\(batchRoot.spanID)-01")
        #expect(answers[1].header("traceresponse") == "00-\(planRoot.traceID)-\(planRoot.spanID)-01")
        let authorize = try #require(spans.first { $0.name == "authorize" })
        #expect(authorize.parentSpanID == batchRoot.spanID)
        #expect(authorize.attributes["regimen.decision"] as? [String] == ["allow", "deny"])
        let compute = try #require(spans.first { $0.name == "compute" })
        #expect(compute.parentSpanID == planRoot.spanID)
        #expect(compute.traceID == planRoot.traceID)
    }

    /// A refused body marks the authorize span failed (status error); the request's span
    /// records the 4xx status it answered.
    @Test func aFailedDecisionMarksItsSpan() async throws {
        let (answer, spans) = try await traced { client in
            try await Self.post(client, Self.authorize, body: #"{"fly": "users/alice"}"#)
        }
        #expect(answer.status.code >= 400 && answer.status.code < 500)
        let authorize = try #require(spans.first { $0.name == "authorize" })
        #expect(authorize.statusCode == 2)
        #expect(authorize.attributes["regimen.decision_id"] == nil)
        let server = try #require(spans.first { $0.spanID == authorize.parentSpanID })
        #expect(server.attributes["http.response.status_code"] as? Int == Int(answer.status.code))
    }

    /// Tracing is off unless configured: the same request, with a collector listening and a
    /// tracer built for it, produces no span and no `traceresponse`.
    @Test func noTracerConfiguredNoSpans() async throws {
        let (answer, spans) = try await traced(false) { client in
            try await Self.post(
                client, Self.authorize, body: #"{"get": "users/alice", "auth": {"uid": "alice"}}"#,
                headers: [HTTPField.Name("traceparent")!: "00-\(Self.callerTrace)-\(Self.callerSpan)-01"])
        }
        #expect(answer.status == .ok)
        #expect(answer.header("Regimen-Decision-Id") != nil)
        #expect(answer.header("traceresponse") == nil)
        #expect(spans.isEmpty)
    }

    /// `--otel-endpoint` takes an http(s) URL with a host, nothing else.
    @Test func theEndpointMustBeAnHTTPURL() {
        #expect(TracingSettings.isEndpoint("http://127.0.0.1:4318"))
        #expect(TracingSettings.isEndpoint("https://collector.example/v1/traces"))
        for refused in ["", "127.0.0.1:4318", "ftp://collector", "http://", "collector"] {
            #expect(!TracingSettings.isEndpoint(refused), "\(refused)")
        }
    }
}

/// `/openapi.json` tells a client it may send `traceparent` and may get `traceresponse`.
@Suite struct TracingDocumentTests {
    @Test func everyOperationTakesTraceparentAndDocumentsTraceresponse() async throws {
        let server = try ServiceTestSupport.server()
        try await server.application(.private).test(.router) { client in
            let response = try await client.execute(uri: "/openapi.json", method: .get)
            let document = try #require(try ServiceTestSupport.value(response) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
            var operations = 0
            for (path, methods) in paths {
                for (method, operation) in methods {
                    operations += 1
                    let parameters = operation["parameters"] as? [[String: Any]] ?? []
                    #expect(parameters.contains { $0["name"] as? String == "traceparent" && $0["in"] as? String == "header" }, "\(method) \(path)")
                    let ok = (operation["responses"] as? [String: Any])?["200"] as? [String: Any]
                    #expect((ok?["headers"] as? [String: Any])?["traceresponse"] != nil, "\(method) \(path)")
                }
            }
            #expect(operations >= 20)
        }
    }
}
