import Foundation
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import RegimenTestSupport
import Testing

/// Issue 35 item 2: mutual TLS as a caller identity. `openssl` makes a client CA, certificates
/// it issues (one named by a caller key entry's `subject`, one not) and an impostor with the
/// same subject from another CA; `curl` presents them.
@Suite struct MutualTLSTests {
    typealias Support = ServiceTestSupport

    static func openssl(_ arguments: [String]) async throws {
        let result = try await TLSTests.run("openssl", arguments)
        try #require(result.status == 0, "openssl \(arguments.prefix(2))")
    }

    /// `name`.key and `name`.pem with `subject`, signed by the CA `issuer` (or self-signed).
    static func certificate(_ folder: ScratchFolder, _ name: String, subject: String, issuer: String?) async throws {
        if let issuer {
            try await openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", subject,
                               "-keyout", folder.path("\(name).key"), "-out", folder.path("\(name).csr")])
            try await openssl(["x509", "-req", "-in", folder.path("\(name).csr"), "-CA", folder.path("\(issuer).pem"), "-CAkey", folder.path("\(issuer).key"),
                               "-set_serial", "\(Int.random(in: 1000...999_999))", "-days", "1", "-out", folder.path("\(name).pem")])
        } else {
            try await openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", subject,
                               "-keyout", folder.path("\(name).key"), "-out", folder.path("\(name).pem")])
        }
    }

    /// An authorize request over HTTPS presenting `certificate` (and `key`): curl's exit status and the HTTP status.
    static func authorize(port: Int, folder: ScratchFolder, certificate: String?, apiKey: String? = nil) async throws -> (status: Int32, http: String) {
        var arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "30", "--cacert", folder.path("server.pem"),
                         "--resolve", "localhost:\(port):127.0.0.1", "-H", "Content-Type: application/json",
                         "-d", #"{"get": "users/alice", "auth": {"uid": "alice"}}"#]
        if let certificate { arguments += ["--cert", folder.path("\(certificate).pem"), "--key", folder.path("\(certificate).key")] }
        if let apiKey { arguments += ["-H", "Regimen-Api-Key: \(apiKey)"] }
        let result = try await TLSTests.run("curl", arguments + ["https://localhost:\(port)/v1/policies/workout-tracker/corrected:authorize"])
        return (result.status, result.output)
    }

    func server(_ folder: ScratchFolder, _ requirement: ClientCertificate.Requirement) throws -> RegimenServer {
        try folder.write("""
        {"keys": [
          {"id": "backend-mtls", "subject": "CN=backend, o=Gym", "scopes": ["authorize"]},
          {"id": "app", "sha256": "\(CallerKeysTests.hex("key-app-0123456789"))", "scopes": ["authorize"]}
        ]}
        """, to: "keys.json")
        var configuration = Support.configuration()
        configuration.access = AccessConfiguration(identityMode: .open, callerKeys: folder.url.appendingPathComponent("keys.json"))
        configuration.access.tls = TLSFiles(
            certificateChain: folder.url.appendingPathComponent("server.pem"), privateKey: folder.url.appendingPathComponent("server.key"),
            clientCA: folder.url.appendingPathComponent("ca.pem"), clientCertificates: requirement)
        return try Support.server(configuration)
    }

    @Test func aClientCertificateNamesTheCaller() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        try await TLSTests.makeCertificate(folder, "server")
        try await Self.certificate(folder, "ca", subject: "/CN=Regimen test client CA", issuer: nil)
        try await Self.certificate(folder, "other-ca", subject: "/CN=Another CA", issuer: nil)
        try await Self.certificate(folder, "backend", subject: "/O=Gym/CN=backend", issuer: "ca")
        try await Self.certificate(folder, "unlisted", subject: "/O=Gym/CN=unlisted", issuer: "ca")
        try await Self.certificate(folder, "impostor", subject: "/O=Gym/CN=backend", issuer: "other-ca")

        let optional = try server(folder, .optional)
        try await optional.application(.public).test(.live) { live in
            let port = try #require(live.port)
            #expect(try await Self.authorize(port: port, folder: folder, certificate: "backend") == (0, "200"))
            // No certificate: an API key, or nothing (401: authorize needs a caller).
            #expect(try await Self.authorize(port: port, folder: folder, certificate: nil, apiKey: "key-app-0123456789") == (0, "200"))
            #expect(try await Self.authorize(port: port, folder: folder, certificate: nil) == (0, "401"))
            // A certificate of the CA that no entry names is no caller.
            #expect(try await Self.authorize(port: port, folder: folder, certificate: "unlisted") == (0, "401"))
            // The same subject from another CA does not get through the handshake.
            #expect(try await Self.authorize(port: port, folder: folder, certificate: "impostor").status != 0)
        }
        let required = try server(folder, .required)
        try await required.application(.public).test(.live) { live in
            let port = try #require(live.port)
            #expect(try await Self.authorize(port: port, folder: folder, certificate: "backend") == (0, "200"))
            #expect(try await Self.authorize(port: port, folder: folder, certificate: nil, apiKey: "key-app-0123456789").http != "200")
            #expect(try await Self.authorize(port: port, folder: folder, certificate: "impostor").http != "200")
        }
    }
}
