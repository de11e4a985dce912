import Foundation
@testable import RegimenKit
import Testing

/// The public types' own parts are nameable with `import RegimenKit` alone: a write's fields, a
/// token's claims and a query's order are OrderedDictionary, which the front door re-exports
/// (without it, this file does not compile).
@Suite struct FrontDoorTypesTests {
    @Test func orderedFieldsBuildARequestWithRegimenKitAlone() throws {
        let policy = try ReadmeExamplesTests.loaded().policy(named: "workout-tracker/corrected")
        let fields: OrderedDictionary<String, Value> = ["name": .string("Push"), "userId": .string("alice")]
        let claims: OrderedDictionary<String, Value> = ["email_verified": .bool(true)]
        let create = PolicyRequest.create("users/alice/programs/p1", data: WriteData(fields), auth: AuthContext(uid: "alice", token: claims))
        #expect(try policy.decide(create).allowed)
        let stranger = PolicyRequest.create("users/alice/programs/p1", data: WriteData(fields), auth: AuthContext(uid: "mallory", token: claims))
        #expect(try !policy.decide(stranger).allowed)
    }

    /// A report an app writes shows numbers as the engine's messages and the `regimen` reports
    /// do, with `import RegimenKit` alone: whole numbers without `.0`, no binary rounding noise.
    @Test func numbersAreWrittenForPeopleWithRegimenKitAlone() {
        #expect(NumberText.plain(90) == "90")
        #expect(NumberText.plain(2.5) == "2.5")
        #expect(NumberText.tenths(8.46) == "8.5")
        #expect(humanNumber(0.1 + 0.2) == "0.3")
    }
}
