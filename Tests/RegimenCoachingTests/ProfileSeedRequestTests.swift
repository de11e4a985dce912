import Foundation
@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing

/// The seed's own requests decode, and the profile's cross-field and type lines hold.
@Suite struct ProfileSeedRequestTests {
    func problems(_ yaml: String) throws -> [String] {
        let decoder = try TestRules.rules().profileDecoder
        do {
            _ = try decoder.decode(text: yaml, file: "p.yaml")
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    /// The index-only request (recalculateIndexes) has no schedule_days: the rules' default is
    /// assumed and said.
    @Test func theSeedsIndexRequestIsAcceptedWithTheAssumedDays() throws {
        let request = #"{ "sex":"male", "age_range":"25-34", "height_cm":180, "weight_kg":80, "bodyfat_pct":18, "waist_cm":84, "overrides": {} }"#
        let profile = try TestRules.profile(request)
        #expect(profile.scheduleDays == 3)
        #expect(profile.scheduleDaysAssumed)
        let report = try IndexCalculator(rules: TestRules.rules()).recalculate(profile)
        #expect(report.assumed.contains { $0.field == "schedule_days" && $0.value == 3 })
        #expect(report.trainingDays == 3)
    }

    @Test func givenDaysAreNotAssumed() throws {
        let profile = try TestRules.profile("sex: male\nschedule_days: 5\n")
        #expect(!profile.scheduleDaysAssumed)
        #expect(try IndexCalculator(rules: TestRules.rules()).recalculate(profile).assumed.allSatisfy { $0.field != "schedule_days" })
    }

    @Test func aPregnantMaleProfileIsRejectedNamingTheField() throws {
        #expect(try problems("sex: male\nschedule_days: 3\npregnant: true\n")
            == ["p.yaml:3:11: error: pregnant: true is not allowed; expected false or absent for sex male"])
        #expect(try problems("sex: female\nschedule_days: 3\npregnant: true\n") == [])
        #expect(try problems("sex: male\nschedule_days: 3\npregnant: false\n") == [])
    }

    @Test func aFractionalHeightIsRejectedNamingTheField() throws {
        #expect(try problems("sex: male\nschedule_days: 3\nheight_cm: 180.5\n")
            == ["p.yaml:3:12: error: height_cm: 180.5 is not allowed; expected a whole number in 120-220"])
        #expect(try TestRules.profile("sex: male\nschedule_days: 3\nheight_cm: 180\n").heightCm == 180)
    }
}
