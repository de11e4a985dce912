import Testing
@testable import RegimenLanguage
@testable import RegimenSecurity

@Suite("Static audit")
struct PolicyAuditTests {
    struct Example: Sendable, CustomStringConvertible {
        var id: String
        var triggering: String
        var clean: String
        var description: String { id }
    }

    static let examples: [Example] = [
        Example(
            id: "audit.shadowed-validation",
            triggering: """
                match /p/{id} {
                  allow update: if request.auth != null;
                  allow write: if request.auth != null && request.resource.data.n is int;
                }
            """,
            clean: """
                match /p/{id} {
                  allow update: if request.auth != null && request.resource.data.n is int;
                  allow update: if request.auth.token.get('role', '') == 'editor' && request.resource.data.diff(resource.data).affectedKeys().hasOnly(['n']);
                }
            """),
        Example(
            id: "audit.always-errors",
            triggering: """
                match /p/{id} {
                  allow create: if !request.resource.data.name || request.resource.data.name.size() < 10;
                }
            """,
            clean: """
                match /p/{id} {
                  allow create: if !request.resource.data.archived || request.resource.data.name.size() < 10;
                }
            """),
        Example(
            id: "audit.unconditional-write",
            triggering: "match /p/{id} { allow read, write: if true; }",
            clean: "match /p/{id} { allow read: if true; allow write: if request.auth != null; }"),
        Example(
            id: "audit.request-resource-in-read",
            triggering: """
                match /p/{id} {
                  function valid() { return request.resource.data.n > 0; }
                  allow read, create: if valid();
                }
            """,
            clean: """
                match /p/{id} {
                  function valid() { return request.resource.data.n > 0; }
                  allow create: if valid();
                  allow read: if resource.data.n > 0;
                }
            """),
        Example(
            id: "audit.unused-function",
            triggering: "match /p/{id} { function never() { return true; } allow read: if request.auth != null; }",
            clean: "match /p/{id} { function signedIn() { return request.auth != null; } allow read: if signedIn(); }"),
        Example(
            id: "audit.collection-match",
            triggering: "match /users/{uid}/posts { allow read: if true; }",
            clean: "match /users/{uid}/posts/{post} { allow read: if true; }"),
        Example(
            id: "audit.recursive-wildcard-opens",
            triggering: """
                match /users/{uid} {
                  allow update: if request.auth.uid == uid && request.resource.data.role == resource.data.role;
                  match /{document=**} {
                    allow update: if request.auth.uid == uid;
                  }
                }
            """,
            clean: """
                match /users/{uid} {
                  allow update: if request.auth.uid == uid && request.resource.data.role == resource.data.role;
                  match /{collection}/{document=**} {
                    allow update: if request.auth.uid == uid;
                  }
                }
            """),
        Example(
            id: "audit.missing-owner-check",
            triggering: """
                match /users/{userId}/programs/{p} {
                  function signedIn() { return request.auth != null; }
                  allow read, write: if signedIn();
                }
            """,
            clean: """
                match /users/{userId}/programs/{p} {
                  function isOwner(id) { return request.auth != null && request.auth.uid == id; }
                  function isAdmin() { return request.auth.token.get('admin', false) == true; }
                  allow read, write: if isOwner(userId);
                  allow delete: if isAdmin();
                }
            """),
        Example(
            id: "audit.plain-allow-shadows-validation",
            triggering: """
                match /users/{userId}/programs/{p} {
                  allow create: if request.auth.uid == userId && request.resource.data.name is string;
                  allow write: if request.auth != null;
                }
            """,
            clean: """
                match /users/{userId}/programs/{p} {
                  allow create: if request.auth.uid == userId && request.resource.data.name is string;
                  allow delete: if request.auth.uid == userId;
                }
            """),
    ]

    @Test("each check fires on its triggering example and not on the clean one", arguments: examples)
    func example(_ example: Example) throws {
        let triggering = PolicyAudit.audit(try firestorePolicy(example.triggering))
        #expect(triggering.contains { $0.id == example.id }, "\(triggering.map(\.rendered))")
        let clean = PolicyAudit.audit(try firestorePolicy(example.clean))
        #expect(!clean.contains { $0.id == example.id }, "\(clean.map(\.rendered))")
    }

    @Test("a match outside /databases/{database}/documents is unreachable")
    func unreachable() throws {
        let policy = try compile("rules_version = '2'; service cloud.firestore { match /users/{uid} { allow read: if true; } }")
        #expect(PolicyAudit.audit(policy).contains { $0.id == "audit.unreachable-match" })
    }

    @Test("Appendix A: validation shadowed at every level and `!field` tests that always error")
    func appendixA() throws {
        let policy = try CompiledPolicy(try PolicyLoader.load(file: repositoryRoot + "/rules/security/workout-tracker/appendix-a.rules"))
        let findings = PolicyAudit.audit(policy)
        let shadowed = findings.filter { $0.id == "audit.shadowed-validation" }
        // create (bypassed by the owner) and update/delete (fully shadowed) at each of 5 levels.
        #expect(shadowed.count == 10)
        #expect(Set(shadowed.map(\.location.line)) == [35, 49, 63, 77, 96])
        let negations = findings.filter { $0.id == "audit.always-errors" }
        #expect(negations.count == 22)
        #expect(negations.first?.message.hasPrefix("`!data.name` errors for every input") == true)
        #expect(findings.allSatisfy { $0.severity == .error })
    }

    @Test("the shipped corrected and new policies audit clean")
    func shippedPoliciesAreClean() throws {
        for name in ["workout-tracker/corrected.rules", "trainer-student/firestore.rules", "trainer-student/storage.rules", "planner/firestore.yaml", "coach-app/firestore.rules"] {
            let policy = try CompiledPolicy(try PolicyLoader.load(file: repositoryRoot + "/rules/security/" + name))
            #expect(PolicyAudit.audit(policy).isEmpty, "\(name): \(PolicyAudit.audit(policy).map(\.rendered))")
        }
    }
}
