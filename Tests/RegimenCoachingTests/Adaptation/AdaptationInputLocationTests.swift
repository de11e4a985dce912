@testable import RegimenCoaching
@testable import RegimenLanguage
import Testing
import OrderedCollections

/// Problems that only the plan reveals (a region, a day or a muscle the plan does not have) are
/// located where the check-ins file wrote them; an input built in Swift names the field path.
@Suite struct AdaptationInputLocationTests {
    typealias F = AdaptationFixtures

    @Test func problemsTheFileCausesPointAtTheirLineAndColumn() throws {
        let engine = try #require(F.engine)
        let text = """
            next_day: 6
            lagging_muscles: [chest, forearms]
            checkins:
              - {date: 2026-03-02, sleep_h: 7, stress: 2, motivation: 3, soreness: {elbows: 3}}
            sessions:
              - {day: 6, exercises: [{exerciseId: barbell_row, sets: [{reps: 8}]}]}
            """
        let input = try AdaptationInputDecoder.decode(text: text, file: "in.yaml")
        // Each problem points at the value at fault (column of `3` in `elbows: 3`, of `6` in `day: 6`).
        do {
            _ = try engine.adapt(plan: F.upperLower, input: input)
            Issue.record("the input was accepted")
        } catch {
            let lines = error.lines(file: "in.yaml")
            #expect(lines.contains { $0.hasPrefix("in.yaml:4:81: error: checkins[0].soreness.elbows: unknown region") }, "\(lines)")
            #expect(lines.contains("in.yaml:6:11: error: sessions[0].day: 6 is not a day of the plan (1, 2, 3, 4)"), "\(lines)")
            #expect(lines.contains("in.yaml:1:11: error: next_day: 6 is not a day of the plan"), "\(lines)")
            #expect(lines.contains("in.yaml:2:26: error: lagging_muscles: 'forearms' is not a muscle of the plan"), "\(lines)")
            #expect(error.diagnostics.allSatisfy { $0.location != nil })
        }
    }

    @Test func anInputBuiltInSwiftNamesTheFieldPath() throws {
        let engine = try #require(F.engine)
        let input = AdaptationInput(checkIns: [CheckIn(sleepHours: 7, soreness: ["elbows": 3], stress: 2, motivation: 3)])
        do {
            _ = try engine.adapt(plan: F.upperLower, input: input)
            Issue.record("the input was accepted")
        } catch {
            #expect(error.diagnostics.allSatisfy { $0.location == nil })
            #expect(error.lines(file: "request").first?.hasPrefix("request: error: checkins[0].soreness.elbows: unknown region") == true)
        }
    }
}
