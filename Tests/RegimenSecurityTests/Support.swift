import Foundation
@testable import RegimenLanguage
@testable import RegimenSecurity
import RegimenTestSupport
import OrderedCollections

/// The repository root, found from this file's location.
let repositoryRoot: String = RepositoryRoot.url.path

/// Every shipped security test file.
let shippedTestFiles: [String] = {
    let base = repositoryRoot + "/rules/security"
    let files = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
    return files.filter { $0.hasSuffix(".tests.yaml") }.sorted().map { base + "/" + $0 }
}()

/// A shipped test file run with coverage: its runner (for the policy) and the coverage report.
func coverageOfShippedTests(_ file: String) throws -> (runner: SecurityTestRunner, report: CoverageReport) {
    let runner = try SecurityTestRunner(suite: try SecurityTestSuite.load(file: file))
    let recorder = CoverageRecorder(policy: runner.policy)
    _ = runner.run(coverage: recorder)
    return (runner, CoverageReport(recorder))
}

/// Compiles policy text (native syntax).
func compile(_ text: String, file: String = "test.rules") throws -> CompiledPolicy {
    try CompiledPolicy(try RulesFileParser.parse(text, file: file))
}

/// A policy with one match block under the Firestore root.
func firestorePolicy(_ body: String) throws -> CompiledPolicy {
    try compile("""
    rules_version = '2';
    service cloud.firestore {
      match /databases/{database}/documents {
    \(body)
      }
    }
    """)
}

func request(_ operation: SecurityOperation, uid: String? = "alice", token: Value.Map = [:]) -> SecurityRequest {
    SecurityRequest(auth: uid.map { AuthContext(uid: $0, token: token) }, operation: operation, time: SecurityTestSuite.defaultTime)
}

func doc(_ path: String) -> RequestPath { RequestPath(path, service: .firestore) }

func store(_ documents: [String: Value.Map]) -> DocumentStore {
    var out = DocumentStore()
    for (path, data) in documents { out[doc(path)] = data }
    return out
}

