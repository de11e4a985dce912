import Crypto
import CryptoExtras
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import RegimenTestSupport
import Synchronization
import Testing

/// Issue 35 item 4: the REST reader of live documents against an in-process fake of Firestore's
/// `documents:batchGet` and of Google's OAuth token endpoint (a service account's signed JWT
/// exchanged for an access token): values of every kind, missing documents, failures and
/// timeouts (fail closed), and the service account's token obtained once and used.
@Suite struct FirestoreRESTReaderTests {
    typealias Support = ServiceTestSupport

    /// Firestore's batchGet and a token endpoint, on a real port.
    final class FakeFirestore: Sendable {
        enum Mode: Sendable, Equatable { case normal, status(Int), malformed, hang }
        let mode = Mutex<Mode>(.normal)
        /// REST `fields` JSON by document name (`projects/demo/databases/(default)/documents/…`).
        let documents: [String: String]
        let accessToken: String
        let serviceAccountKey: _RSA.Signing.PublicKey?
        let tokenCalls = Atomic<Int>(0)
        let batchCalls = Atomic<Int>(0)
        let released = Atomic<Bool>(false)
        let refusals = Mutex<[String]>([])

        init(documents: [String: String], accessToken: String = "owner", serviceAccountKey: _RSA.Signing.PublicKey? = nil) {
            self.documents = documents
            self.accessToken = accessToken
            self.serviceAccountKey = serviceAccountKey
        }

        func application() -> some ApplicationProtocol {
            let router = Router()
            router.post("/token") { request, _ -> Response in
                self.tokenCalls.add(1, ordering: .relaxed)
                let form = String(buffer: try await request.body.collect(upTo: 1 << 16))
                guard let refusal = self.refusal(ofTokenRequest: form) else {
                    return Self.json(#"{"access_token": "\#(self.accessToken)", "expires_in": 3599, "token_type": "Bearer"}"#)
                }
                self.refusals.withLock { $0.append(refusal) }
                return Self.json(#"{"error": "invalid_grant"}"#, status: .badRequest)
            }
            router.post("**") { request, _ -> Response in
                self.batchCalls.add(1, ordering: .relaxed)
                guard request.uri.path.hasSuffix("/v1/projects/demo/databases/(default)/documents:batchGet")
                        || request.uri.path.removingPercentEncoding?.hasSuffix("/v1/projects/demo/databases/(default)/documents:batchGet") == true
                else { return Self.json(#"{"error": "not found \#(request.uri.path)"}"#, status: .notFound) }
                guard request.headers[.authorization] == "Bearer \(self.accessToken)" else {
                    return Self.json(#"{"error": "unauthenticated"}"#, status: .unauthorized)
                }
                switch self.mode.withLock({ $0 }) {
                case .status(let code): return Self.json(#"{"error": "down"}"#, status: HTTPResponse.Status(code: code))
                case .malformed: return Self.json(#"[{"found": {"name": "#)
                case .hang:
                    while !self.released.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(20)) }
                    return Self.json("[]")
                case .normal: break
                }
                let asked = try JSONSerialization.jsonObject(with: Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)) as? [String: Any]
                let names = asked?["documents"] as? [String] ?? []
                let answers = names.map { name in
                    self.documents[name].map { #"{"found": {"name": "\#(name)", "fields": \#($0), "createTime": "2026-01-01T00:00:00Z"}, "readTime": "2026-01-02T00:00:00Z"}"# }
                        ?? #"{"missing": "\#(name)", "readTime": "2026-01-02T00:00:00Z"}"#
                }
                return Self.json("[" + answers.joined(separator: ",") + "]")
            }
            return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        }

        static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
            Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }

        /// Why a token request is not the JWT-bearer grant of the service account, if it is not.
        func refusal(ofTokenRequest form: String) -> String? {
            var fields: [String: String] = [:]
            for pair in form.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else { return "grant_type" }
            let parts = (fields["assertion"] ?? "").split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let header = Self.object(parts[0]), let claims = Self.object(parts[1]), let signature = Self.bytes(parts[2]) else { return "assertion" }
            guard header["alg"] as? String == "RS256" else { return "alg" }
            guard claims["iss"] as? String == "reader@demo.iam.gserviceaccount.com", claims["scope"] as? String == "https://www.googleapis.com/auth/datastore",
                  (claims["aud"] as? String)?.hasSuffix("/token") == true, claims["exp"] is NSNumber, claims["iat"] is NSNumber
            else { return "claims \(claims)" }
            guard let key = serviceAccountKey,
                  key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: Data("\(parts[0]).\(parts[1])".utf8), padding: .insecurePKCS1v1_5)
            else { return "signature" }
            return nil
        }

        static func bytes(_ base64URL: String) -> Data? {
            var text = base64URL.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while text.count % 4 != 0 { text += "=" }
            return Data(base64Encoded: text)
        }

        static func object(_ base64URL: String) -> [String: Any]? {
            bytes(base64URL).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }
    }

    static let name = "projects/demo/databases/(default)/documents/"

    /// Every kind of Firestore value, keys out of order, zero coordinates left out.
    static let everyKind = """
    {"z": {"nullValue": null}, "b": {"booleanValue": true}, "i": {"integerValue": "9007199254740993"}, "d": {"doubleValue": 1.5},
     "w": {"doubleValue": 2}, "n": {"doubleValue": "NaN"}, "t": {"timestampValue": "2026-02-01T10:00:00.123456Z"},
     "s": {"stringValue": "héllo"}, "y": {"bytesValue": "AQL/"},
     "r": {"referenceValue": "projects/demo/databases/(default)/documents/users/ann"},
     "g": {"geoPointValue": {"latitude": 1.5}}, "e": {"arrayValue": {}}, "a": {"arrayValue": {"values": [{"integerValue": "1"}, {"stringValue": "x"}]}},
     "m": {"mapValue": {"fields": {"y": {"integerValue": "2"}, "x": {"mapValue": {}}}}}}
    """

    func settings(port: Int, credentials: LiveDocumentSettings.Credentials = .emulatorOwner, timeout: Duration = .seconds(30)) throws -> LiveDocumentSettings {
        LiveDocumentSettings(endpoint: try #require(URL(string: "http://127.0.0.1:\(port)")), project: "demo", credentials: credentials, timeout: timeout, cacheTTL: .zero)
    }

    @Test func readsEveryValueKindAndMissingDocuments() async throws {
        let fake = FakeFirestore(documents: [Self.name + "things/all": Self.everyKind])
        try await fake.application().test(.live) { live in
            let reader = try FirestoreRESTReader(try settings(port: try #require(live.port)))
            let read = try await reader.read(["/databases/(default)/documents/things/all", "/databases/(default)/documents/things/none"])
            #expect(read.count == 2)
            #expect(read["/databases/(default)/documents/things/none"] == .some(nil))
            let fields = try #require(read["/databases/(default)/documents/things/all"] ?? nil)
            #expect(Array(fields.keys) == ["a", "b", "d", "e", "g", "i", "m", "n", "r", "s", "t", "w", "y", "z"])
            #expect(fields["z"] == .null && fields["b"] == .bool(true) && fields["i"] == .int(9_007_199_254_740_993))
            #expect(fields["d"] == .float(1.5) && fields["w"] == .float(2) && fields["s"] == .string("héllo"))
            if case .float(let nan)? = fields["n"] { #expect(nan.isNaN) } else { Issue.record("NaN: \(String(describing: fields["n"]))") }
            #expect(fields["t"] == .timestamp(Timestamp(seconds: 1_769_940_000, nanos: 123_456_000)))
            #expect(fields["y"] == .bytes([1, 2, 255]))
            #expect(fields["r"] == .path(PathValue(segments: ["databases", "(default)", "documents", "users", "ann"])))
            #expect(fields["g"] == .latlng(LatLng(latitude: 1.5, longitude: 0)))
            #expect(fields["e"] == .list([]) && fields["a"] == .list([.int(1), .string("x")]))
            #expect(fields["m"] == .map(["x": .map([:]), "y": .int(2)]))
        }
    }

    /// An error status, an unreadable answer, a value of no known kind, and no answer within the
    /// timeout: each read fails with its reason, and the decisions waiting on it are denied.
    @Test func everyFailureFailsClosed() async throws {
        let fake = FakeFirestore(documents: [
            Self.name + "workouts/w1": #"{"trainerId": {"stringValue": "t1"}, "studentId": {"stringValue": "s1"}}"#,
            Self.name + "workouts/odd": #"{"trainerId": {"fooValue": "t1"}}"#,
        ])
        let policy = try RegimenEngine(rules: Support.root.appendingPathComponent("rules")).policy(named: "trainer-student/firestore")
        try await fake.application().test(.live) { live in
            // A timeout no answer reaches however loaded the machine, except the hung one's, which
            // never answers until released: the outcome does not depend on the clock.
            let port = try #require(live.port)
            let patient = try FirestoreRESTReader(try settings(port: port, timeout: .seconds(120)))
            let hasty = try FirestoreRESTReader(try settings(port: port, timeout: .milliseconds(500)))
            func decide(_ path: String, reader: FirestoreRESTReader) async throws -> Decision {
                let decider = LiveDocumentDecider(reader: reader, cache: LiveDocumentCache(timeToLive: .zero, capacity: 0))
                let body = try policy.requests(from: Data(#"{"get": "\#(path)", "auth": {"uid": "t1"}}"#.utf8), served: DocumentStore(), layering: .under)
                return try #require(try await decider.decide(body, policy: policy, layering: .under, explain: false).first)
            }
            func decide(_ path: String) async throws -> Decision { try await decide(path, reader: patient) }
            #expect(try await decide("workouts/w1").allowed)
            let odd = try await decide("workouts/odd")
            #expect(!odd.allowed && odd.summary.contains("unknown value kind 'fooValue'"), "\(odd.summary)")
            for (mode, reason) in [(FakeFirestore.Mode.status(503), "Firestore answered 503"), (.malformed, "not a JSON list"), (.hang, "did not answer within")] {
                fake.mode.withLock { $0 = mode }
                let decision = try await decide("workouts/w1", reader: mode == .hang ? hasty : patient)
                #expect(!decision.allowed && decision.summary.contains(reason), "\(mode): \(decision.summary)")
            }
            fake.released.store(true, ordering: .relaxed)
        }
    }

    /// With a service-account key the reader signs a JWT-bearer grant (RS256, the account's
    /// email, the datastore scope, the token endpoint as audience), which the endpoint verifies
    /// with the account's public key; the access token it answers is used for every read until
    /// it is close to expiring (one token call for two reads). A key the endpoint does not
    /// accept gets no token, and the read fails.
    @Test func aServiceAccountGetsOneTokenAndUsesIt() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let fake = FakeFirestore(
            documents: [Self.name + "users/ann": #"{"room": {"stringValue": "r1"}}"#], accessToken: "ya29.test-token", serviceAccountKey: key.publicKey)
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        try await fake.application().test(.live) { live in
            let port = try #require(live.port)
            func account(_ key: _RSA.Signing.PrivateKey, file: String) throws -> URL {
                let json = try JSONSerialization.data(withJSONObject: [
                    "type": "service_account", "project_id": "demo", "private_key_id": "k1", "private_key": key.pkcs8PEMRepresentation,
                    "client_email": "reader@demo.iam.gserviceaccount.com", "token_uri": "http://127.0.0.1:\(port)/token",
                ])
                try folder.write(String(decoding: json, as: UTF8.self), to: file)
                return folder.url.appendingPathComponent(file)
            }
            let reader = try FirestoreRESTReader(try settings(port: port, credentials: .serviceAccount(try account(key, file: "account.json"))))
            for _ in 0..<2 {
                let read = try await reader.read(["/databases/(default)/documents/users/ann"])
                #expect(read["/databases/(default)/documents/users/ann"] == .some(["room": .string("r1")]))
            }
            #expect(fake.tokenCalls.load(ordering: .relaxed) == 1 && fake.batchCalls.load(ordering: .relaxed) == 2)
            #expect(fake.refusals.withLock { $0 }.isEmpty)
            let stranger = try FirestoreRESTReader(try settings(port: port, credentials: .serviceAccount(try account(try _RSA.Signing.PrivateKey(keySize: .bits2048), file: "other.json"))))
            await #expect(throws: LiveDocumentError.self) { try await stranger.read(["/databases/(default)/documents/users/ann"]) }
            #expect(fake.refusals.withLock { $0 } == ["signature"])
        }
    }

    /// `regimen serve` with live documents: the authorize route reads the database, a body's
    /// documents lie under it, and a database that fails denies (fail closed).
    @Test func theServiceDecidesWithLiveDocuments() async throws {
        let fake = FakeFirestore(documents: [Self.name + "workouts/w1": #"{"trainerId": {"stringValue": "t1"}, "studentId": {"stringValue": "s1"}}"#])
        try await fake.application().test(.live) { live in
            var configuration = Support.configuration()
            // A patient timeout: the full suite can starve this test for longer than the default
            // 30 s, and a read that times out is denied (fail closed), which is not what this checks.
            configuration.liveDocuments = try settings(port: try #require(live.port), timeout: .seconds(300))
            let server = try Support.server(configuration)
            try await server.application(.public).test(.router) { client in
                func allowed(_ body: String) async throws -> (Bool, String) {
                    let response = try await client.execute(uri: "/v1/policies/trainer-student/firestore:authorize", method: .post, headers: Support.json, body: Support.body(body))
                    #expect(response.status == .ok)
                    let object = try #require(try Support.value(response) as? [String: Any])
                    return (object["allowed"] as? Bool ?? false, object["reason"] as? String ?? "")
                }
                let granted = try await allowed(#"{"get": "workouts/w1", "auth": {"uid": "t1"}}"#)
                #expect(granted.0, "\(granted.1)")
                #expect(try await allowed(#"{"get": "workouts/w1", "auth": {"uid": "t2"}}"#).0 == false)
                // The body's w1 lies under the database's: t2 still may not read it.
                #expect(try await allowed(#"{"get": "workouts/w1", "auth": {"uid": "t2"}, "documents": {"workouts/w1": {"trainerId": "t2", "studentId": "s2"}}}"#).0 == false)
                fake.mode.withLock { $0 = .status(500) }
                let (down, reason) = try await allowed(#"{"get": "workouts/w1", "auth": {"uid": "t1"}}"#)
                #expect(!down && reason.contains("Firestore answered 500"), "\(reason)")
            }
        }
    }
}
