import Foundation
import HummingbirdTesting
@testable import RegimenKit
@testable import RegimenService
import RegimenTestSupport
import Testing

/// Issue 35 item 3: HTTPS on the public listener, its certificate read again on reload. Keys and
/// self-signed certificates are made by `openssl` for each test; `curl` is the client.
@Suite struct TLSTests {
    typealias Support = ServiceTestSupport

    /// Runs a program to its end on a Dispatch thread, off Swift's cooperative pool: its exit
    /// status and standard output. (A `Task.detached` that waits for the process blocks one of the
    /// pool's few threads, and the served route needs one to answer: under a full parallel test
    /// run on two cores curl then timed out.)
    static func run(_ program: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [program] + arguments
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
        }
    }

    /// A fresh P-256 key and a self-signed certificate for localhost in `folder`/`name`.pem and .key.
    static func makeCertificate(_ folder: ScratchFolder, _ name: String) async throws {
        let result = try await run("openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout", folder.path("\(name).key"), "-out", folder.path("\(name).pem"),
        ])
        try #require(result.status == 0, "openssl could not make a certificate")
    }

    /// `GET /healthz` over HTTPS trusting only `authority`: curl's exit status and the HTTP status.
    static func health(port: Int, trusting authority: String) async throws -> (status: Int32, http: String) {
        let result = try await run("curl", [
            "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "30", "--cacert", authority,
            "--resolve", "localhost:\(port):127.0.0.1", "https://localhost:\(port)/healthz",
        ])
        return (result.status, result.output)
    }

    @Test func thePublicListenerServesHTTPSAndAReloadSwapsTheCertificate() async throws {
        let folder = try ScratchFolder()
        defer { folder.cleanUp() }
        try await Self.makeCertificate(folder, "first")
        try await Self.makeCertificate(folder, "second")
        let files = TLSFiles(certificateChain: folder.url.appendingPathComponent("served.pem"), privateKey: folder.url.appendingPathComponent("served.key"))
        @Sendable func serve(_ name: String) throws {
            for suffix in ["pem", "key"] {
                try? FileManager.default.removeItem(atPath: folder.path("served.\(suffix)"))
                try FileManager.default.copyItem(atPath: folder.path("\(name).\(suffix)"), toPath: folder.path("served.\(suffix)"))
            }
        }
        try serve("first")
        var configuration = Support.configuration()
        configuration.access.tls = files
        let server = try Support.server(configuration)
        let tls = try #require(server.access.tls)
        let first = folder.path("first.pem"), second = folder.path("second.pem")
        try await server.application(.public).test(.live) { live in
            let port = try #require(live.port)
            #expect(try await Self.health(port: port, trusting: first) == (0, "200"))
            #expect(try await Self.health(port: port, trusting: second).status != 0, "a certificate nobody issued was accepted")
            // Plain HTTP is not answered on the TLS port.
            let plain = try await Self.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "30", "http://127.0.0.1:\(port)/healthz"])
            #expect(plain.output != "200")

            try serve("second")
            try tls.reload()
            #expect(try await Self.health(port: port, trusting: second) == (0, "200"))
            #expect(try await Self.health(port: port, trusting: first).status != 0, "the old certificate still served after the reload")

            // A pair that does not load keeps the last good one.
            try folder.write("not a certificate\n", to: "served.pem")
            #expect(throws: AccessConfigurationError.self) { try tls.reload() }
            #expect(try await Self.health(port: port, trusting: second) == (0, "200"))
        }
    }

    @Test func aCertificateThatDoesNotLoadStopsTheStart() throws {
        let folder = try ScratchFolder(["cert.pem": "nothing\n", "key.pem": "nothing\n"])
        defer { folder.cleanUp() }
        var configuration = Support.configuration()
        configuration.access.tls = TLSFiles(certificateChain: folder.url.appendingPathComponent("cert.pem"), privateKey: folder.url.appendingPathComponent("key.pem"))
        #expect(throws: AccessConfigurationError.self) { try Support.server(configuration) }
    }
}
