import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity

@Suite("Native .rules syntax")
struct RulesFileParserTests {
    @Test("lenient semicolons, double quotes, functions declared after use, allow without condition")
    func leniency() throws {
        let policy = try compile("""
        rules_version = "2";
        service cloud.firestore {
          match /databases/{database}/documents {
            match /a/{id} {
              allow get: if isMine(id)
              allow list
              allow create: if request.resource.data.n > 1 }
            function isMine(id) { return request.auth.uid == id }
          }
        }
        """)
        #expect(policy.allows.map(\.statement.methodList) == ["get", "list", "create"])
        #expect(policy.allows[1].condition == nil)
        #expect(policy.decide(request(.get(doc("a/alice"))), store: DocumentStore()).allowed)
        #expect(policy.decide(request(.list(doc("a"), ListQuery())), store: DocumentStore()).allowed)
    }

    @Test("Storage service paths")
    func storage() throws {
        let policy = try compile("""
        rules_version = '2';
        service firebase.storage {
          match /b/{bucket}/o {
            match /files/{name} { allow read: if request.auth != null; }
          }
        }
        """)
        #expect(policy.policy.service == .storage)
        let get = SecurityRequest(auth: AuthContext(uid: "u"), operation: .download(RequestPath("files/a.pdf", service: .storage)), time: SecurityTestSuite.defaultTime)
        #expect(policy.decide(get, store: DocumentStore()).allowed)
    }

    struct Broken: Sendable, CustomStringConvertible {
        var source: String
        var message: String
        var line: Int
        var column: Int
        var description: String { message }
    }

    static let broken: [Broken] = [
        Broken(source: "service cloud.firestore {\n  match /a/{id} {\n    allow reed: if true;\n  }\n}\n",
               message: "unknown method 'reed'; expected read, write, get, list, create, update or delete", line: 3, column: 11),
        Broken(source: "service cloud.firestore {\n  match /a/{id}\n}\n", message: "expected '{' after match path '/a/{id}'", line: 3, column: 1),
        Broken(source: "service cloud.store {}\n", message: "unknown service 'cloud.store'; expected cloud.firestore or firebase.storage", line: 1, column: 1),
        Broken(source: "service cloud.firestore {\n  match /a/{rest=**}/b {\n    allow read;\n  }\n}\n",
               message: "recursive wildcards are permitted only as the last segment without rules_version = '2'", line: 2, column: 3),
        Broken(source: "rules_version = '2';\nservice cloud.firestore {\n  match /a/{x}/{y=**}/{z=**} {}\n}\n",
               message: "at most one recursive wildcard per match path", line: 3, column: 9),
        Broken(source: "service cloud.firestore {\n  match /a/{id} {\n    function f(x) { let y = 1 return x; }\n  }\n}\n",
               message: "expected ';' after 'let y'", line: 3, column: 31),
    ]

    @Test("structural mistakes are reported with file, line and column", arguments: broken)
    func diagnostics(row: Broken) {
        do {
            _ = try RulesFileParser.parse(row.source, file: "bad.rules")
            Issue.record("expected an error")
        } catch {
            let first = error.diagnostics.first
            #expect(first?.message == row.message)
            #expect(first?.location == SourceLocation(file: "bad.rules", line: row.line, column: row.column))
        }
    }

    @Test("an expression error points at its column in the rules file")
    func expressionDiagnostics() {
        do {
            _ = try compile("""
            service cloud.firestore {
              match /a/{id} {
                allow read: if request.auth.uid == ;
              }
            }
            """, file: "expr.rules")
            Issue.record("expected an error")
        } catch let error as DiagnosticsError {
            #expect(error.diagnostics.first?.location?.line == 3)
            #expect(error.diagnostics.first?.location?.file == "expr.rules")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
