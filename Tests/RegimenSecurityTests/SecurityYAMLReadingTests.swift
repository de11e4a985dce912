import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity
import Foundation

/// Policies and test files are read by the rule files' located YAML reader: the same located
/// errors, merge keys and exact expression columns as every other rule file.
@Suite("Security YAML through the located reader")
struct SecurityYAMLReadingTests {
    static let policy = """
    kind: security_rules
    version: 1
    service: cloud.firestore
    match:
      - path: /databases/{database}/documents
        match:
          - path: /users/{userId}
            allow:
              - read: request.auth.uid == userId
              - write: "request.auth.uid == usrId"
    """

    func errors(_ text: String, file: String = "p.yaml") -> [String] {
        do {
            _ = try CompiledPolicy(try PolicyLoader.parse(text, file: file))
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test("a duplicate key is reported at the repeat with its line and column")
    func duplicateKey() {
        let text = Self.policy.replacingOccurrences(of: "version: 1\n", with: "version: 1\nservice: cloud.firestore\n")
        #expect(errors(text) == ["p.yaml:4:1: error: duplicate key 'service'\n  note: first defined at p.yaml:3:1"])
    }

    @Test("an unknown name in a quoted condition points at its own character")
    func quotedConditionColumn() {
        #expect(errors(Self.policy).first?.hasPrefix("p.yaml:10:41: error:") == true, "\(errors(Self.policy))")
    }

    @Test("a merge key copies a shared test case's fields; the case's own keys win")
    func mergeKeysInTestFiles() throws {
        let tests = """
        kind: security_tests
        version: 1
        rules: p.yaml
        cases:
          - &owner
            name: owner reads
            get: users/alice
            auth: {uid: alice}
            expect: allow
          - <<: *owner
            name: stranger reads
            auth: {uid: bob}
            expect: deny
        """
        let policy = try PolicyLoader.parse(Self.policy.replacingOccurrences(of: "usrId", with: "userId"), file: "p.yaml")
        let suite = try SecurityTestSuite.parse(tests, file: "t.yaml", policy: policy)
        #expect(suite.cases.map(\.name) == ["owner reads", "stranger reads"])
        #expect(suite.cases.map(\.expectAllow) == [true, false])
        #expect(suite.cases.map { $0.request.auth?.uid } == ["alice", "bob"])
    }
}
