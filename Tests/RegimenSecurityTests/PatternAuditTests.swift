import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity

/// `audit` on regular expressions: patterns the emulator accepts but RE2 reads otherwise warn;
/// patterns outside both grammars fail to compile, at the literal.
@Suite struct PatternAuditTests {
    static func patternFindings(_ condition: String) throws -> [AuditFinding] {
        let policy = try firestorePolicy("""
            match /p/{id} {
              allow read: if \(condition);
            }
        """)
        return PolicyAudit.audit(policy).filter { $0.id == "audit.pattern-outside-re2" }
    }

    @Test(arguments: [
        "request.auth.uid.matches('(?)a')",
        "request.auth.uid.matches('(a{2}){501}')",
        "request.auth.uid.matches('(?i)\\\\p{Ll}+')",
        "request.auth.uid.split('((x{10}){10}){11}').size() > 1",
        "request.auth.uid.replace('(?i)\\\\pL', '') == ''",
    ])
    func warnsWherePatternsLeaveRE2(_ condition: String) throws {
        let findings = try Self.patternFindings(condition)
        #expect(findings.count == 1, "\(condition): \(findings.map(\.rendered))")
        // Located at the pattern literal, on the allow's line.
        #expect(findings.first?.location.line == 5)
    }

    @Test(arguments: [
        "request.auth.uid.matches('[a-z]+@[a-z]+\\\\.com')",
        "request.auth.uid.matches('(a{10}){100}')",
        "request.auth.uid.matches('(?i)\\\\p{Lu}')",
        "request.auth.uid.matches(request.auth.token.pattern)",
        "request.auth.uid.size() > 3",
    ])
    func quietWhereRE2Agrees(_ condition: String) throws {
        #expect(try Self.patternFindings(condition).isEmpty, "\(condition)")
    }

    @Test func warnsInFunctionBodiesToo() throws {
        let policy = try firestorePolicy("""
            function validName(n) {
              let shape = n.matches('(?)[a-z]+');
              return shape;
            }
            match /p/{id} {
              allow read: if validName(request.auth.uid);
            }
        """)
        let findings = PolicyAudit.audit(policy).filter { $0.id == "audit.pattern-outside-re2" }
        #expect(findings.count == 1)
        #expect(findings.first?.location.line == 5)
    }

    /// A literal pattern RE2's grammar rejects is a compile error located at the literal (the
    /// emulator refuses such a ruleset too), not a silent deny at run time.
    @Test(arguments: ["(?=a)a", "(a)\\\\1", "a**", "[z-a]", "a{1001}"])
    func literalPatternsOutsideTheGrammarFailToCompile(_ pattern: String) {
        #expect(throws: (any Error).self, "\(pattern)") {
            _ = try firestorePolicy("""
                match /p/{id} {
                  allow read: if request.auth.uid.matches('\(pattern)');
                }
            """)
        }
    }
}
