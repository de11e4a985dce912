import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
@testable import RegimenKit
@testable import RegimenService
import Testing
import RegimenTestSupport

/// Servers over the repository's rules (or a copy), with polling off so tests decide when a
/// reload happens.
enum ServiceTestSupport {
    /// The repository root (three levels above this file).
    static let root = RepositoryRoot.url

    static let quietLogger: Logger = {
        var logger = Logger(label: "regimen.serve.test") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .critical
        return logger
    }()

    /// A budget no test reaches, however starved the machine (a sanitizer run on a loaded host
    /// is ten to fifty times slower): a test's answer must not depend on the wall clock. Only
    /// the budget's own test sets a real one.
    static let unreachableBudget: Duration = .seconds(86_400)

    static func configuration(rules: URL? = nil, adminToken: String? = nil, maximumBodyBytes: Int = 1 << 20,
                              timeBudget: Duration = unreachableBudget, documents: URL? = nil, decisionLog: URL? = nil,
                              work: WorkExecutor.Limits = WorkExecutor.Limits(concurrency: 2, queue: 64),
                              timeouts: ConnectionTimeouts = ConnectionTimeouts(), maximumRowLoss: Double = 0.2) -> ServiceConfiguration {
        ServiceConfiguration(
            rules: rules, documents: documents, workingDirectory: root, port: 0, privatePort: 0, maximumBodyBytes: maximumBodyBytes, adminToken: adminToken,
            decisionLog: decisionLog, pollInterval: nil, timeBudget: timeBudget, work: work, timeouts: timeouts,
            reloadSettle: .zero, maximumRowLoss: maximumRowLoss)
    }

    static func server(_ configuration: ServiceConfiguration = configuration()) throws -> RegimenServer {
        try RegimenServer.load(configuration, logger: quietLogger)
    }

    static let json: HTTPFields = [.contentType: "application/json"]

    static func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    static func file(_ path: String) throws -> ByteBuffer {
        ByteBuffer(bytes: [UInt8](try Data(contentsOf: root.appendingPathComponent(path))))
    }

    static func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    /// The body as a JSON value.
    static func value(_ response: TestResponse) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView), options: [.fragmentsAllowed])
    }

    /// The error body's `error` object.
    static func error(_ response: TestResponse) throws -> [String: Any] {
        let object = try #require(try value(response) as? [String: Any])
        return try #require(object["error"] as? [String: Any])
    }

    /// A copy of the repository's rules and catalogs in a fresh temporary folder.
    static func copyOfRules() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("regimen-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["rules", "catalogs"] {
            try FileManager.default.copyItem(at: root.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return folder
    }
}
