import Foundation
import RegimenLanguage
import Testing
@testable import RegimenTracking

@Suite("Calorie burn")
struct CalorieBurnTests {
    func calculator() throws -> CalorieBurnCalculator {
        let rules = try shippedRules()
        return CalorieBurnCalculator(rules: rules.calorieBurn, catalog: rules.activities)
    }

    @Test("the catalog has at least 25 activities in all four categories, each with a Compendium code")
    func catalog() throws {
        let catalog = try shippedRules().activities
        #expect(catalog.activities.count >= 25)
        #expect(Set(catalog.activities.map(\.category)) == Set(ActivityCategory.allCases))
        #expect(catalog.activities.allSatisfy { $0.compendiumCode.count == 5 })
        #expect(catalog.search("yoga").map(\.id) == ["power_yoga", "yoga"])
    }

    @Test("property: every activity's base MET lies in one of its typical intensity bands")
    func metInBand() throws {
        let rules = try shippedRules()
        for activity in rules.activities.activities {
            let band = try #require(rules.calorieBurn.level(forMET: activity.baseMET))
            #expect(activity.intensities.contains(band.id), "\(activity.id): \(activity.baseMET) is \(band.id)")
            #expect(activity.baseMET >= band.minMET && activity.baseMET <= band.maxMET)
        }
    }

    /// (activity, minutes, intensity, kg, ACSM kcal, seed kcal, adjusted MET)
    static let table: [(String, Int, String, Double?, Int64, Int64, Double)] = [
        ("running", 30, "vigorous", nil, 432, 123, 11.76),   // 9.8 × 1.2; 30 × 11.76 × 3.5 × 70 / 200 = 432.18
        ("running", 30, "moderate", nil, 217, 62, 5.9),      // clamped into Moderate 3.0–5.9
        ("walking", 60, "moderate", 80, 294, 84, 3.5),
        ("walking", 60, "light", 80, 235, 67, 2.8),          // 3.5 × 0.8
        ("yoga", 45, "light", 55, 87, 25, 2.0),              // 2.5 × 0.8; 86.625 and 24.75 round up
        ("stretching", 10, "vigorous", 70, 74, 21, 6.0),     // raised into Vigorous ≥ 6.0; 73.5 rounds half up
        ("swimming", 1, "moderate", 20, 2, 1, 5.9),          // 6.0 clamped to 5.9
        ("jump_rope", 1440, "vigorous", 400, 142_733, 40_781, 14.16),
    ]

    @Test("kcal by the ACSM formula and by the seed's, across the table", arguments: 0..<table.count)
    func kcal(index: Int) throws {
        let (activity, minutes, intensity, kg, acsm, seed, met) = Self.table[index]
        let calculator = try calculator()
        let entry = WorkoutEntry(activity: activity, minutes: minutes, intensity: intensity)
        let result = try calculator.burn(entry, weightKg: kg)
        #expect(abs(result.met - met) < 1e-9)
        #expect(result.kcal == acsm)
        let seedRules = try #require(calculator.rules.using(formula: "seed_002"))
        #expect(try CalorieBurnCalculator(rules: seedRules, catalog: calculator.catalog).burn(entry, weightKg: kg).kcal == seed)
    }

    @Test("the seed's formula reports 1/3.5 of the ACSM figure before rounding")
    func ratio() throws {
        let calculator = try calculator()
        let seedRules = try #require(calculator.rules.using(formula: "seed_002"))
        let acsm = try calculator.rules.formula.kcal.number(["minutes": .int(60), "met": .float(7), "weight_kg": .float(70)])
        let seed = try seedRules.formula.kcal.number(["minutes": .int(60), "met": .float(7), "weight_kg": .float(70)])
        #expect(abs(acsm / seed - 3.5) < 1e-12)
    }

    @Test("property: kcal is never negative and adjusted METs stay in the chosen band", arguments: 0..<8)
    func neverNegative(seed: Int) throws {
        let calculator = try calculator()
        var random = SeededRandom(seed: UInt64(seed) + 11)
        for _ in 0..<100 {
            let activity = try #require(calculator.catalog.activities.randomElement(using: &random))
            let level = try #require(calculator.rules.levels.randomElement(using: &random))
            let minutes = Int.random(in: 1...1440, using: &random)
            let kg = Double.random(in: 20...400, using: &random)
            let result = try calculator.burn(WorkoutEntry(activity: activity.id, minutes: minutes, intensity: level.id), weightKg: kg)
            #expect(result.kcal >= 0)
            #expect(result.met >= level.minMET && result.met <= level.maxMET)
        }
        // The rounding rule clamps a negative raw figure to zero.
        #expect(try calculator.rules.rounding.number(["kcal": .float(-12.4)]) == 0)
    }

    @Test("70 kg is the default weight")
    func defaultWeight() throws {
        let calculator = try calculator()
        let entry = WorkoutEntry(activity: "cycling", minutes: 30, intensity: "moderate")
        #expect(try calculator.burn(entry).kcal == calculator.burn(entry, weightKg: 70).kcal)
        #expect(calculator.rules.defaultWeightKg == 70)
    }

    static let badEntries: [(WorkoutEntry, [String])] = [
        (WorkoutEntry(activity: "running", minutes: 0, intensity: "vigorous"), ["minutes must be at least 1 minute, got 0"]),
        (WorkoutEntry(activity: "running", minutes: 1441, intensity: "vigorous"), ["minutes must be at most 1440 minutes (24 hours), got 1441"]),
        (WorkoutEntry(activity: nil, minutes: nil, intensity: nil), ["activity is required", "minutes is required", "intensity is required"]),
        (WorkoutEntry(activity: "runing", minutes: 30, intensity: "vigorous"), ["unknown activity 'runing'; did you mean 'running'?"]),
        (WorkoutEntry(activity: "running", minutes: 30, intensity: "extreme"), ["intensity must be one of light, moderate, vigorous, got 'extreme'"]),
        (WorkoutEntry(activity: "running", minutes: 30, intensity: "light", timestamp: Timestamp(seconds: fixedNow.seconds + 60)),
         ["timestamp 2026-02-04T12:01:00Z is in the future (now is 2026-02-04T12:00:00Z)"]),
    ]

    @Test("each invalid entry gets its specific message", arguments: 0..<badEntries.count)
    func badEntry(index: Int) throws {
        let (entry, messages) = Self.badEntries[index]
        let calculator = try calculator()
        #expect(calculator.problems(with: entry, now: fixedNow) == messages)
        #expect(throws: BurnError(problems: messages)) { try calculator.burn(entry, now: fixedNow) }
    }

    @Test("a body weight outside the rules' range is rejected")
    func badWeight() throws {
        #expect(try calculator().weightProblem(10) == "weight must be between 20 and 400 kg, got 10")
    }

    @Test("a daily log totals consumed, burned and net per day")
    func dailyLog() throws {
        let log = Value.map([
            "weight_kg": .int(70),
            "foods": .list([
                .map(["name": .string("Oats"), "calories": .int(350), "timestamp": .string("2026-02-03T07:00:00Z")]),
                .map(["name": .string("Pasta"), "calories": .int(800), "timestamp": .string("2026-02-03T19:00:00Z")]),
                .map(["name": .string("Eggs"), "calories": .int(200), "timestamp": .string("2026-02-04T08:00:00Z")]),
            ]),
            "workouts": .list([
                .map(["activity": .string("running"), "minutes": .int(30), "intensity": .string("vigorous"), "timestamp": .string("2026-02-03T18:00:00Z")]),
            ]),
        ])
        let days = try DailyLogCalculator(calculator: calculator()).summarize(log, now: fixedNow).get()
        #expect(days.map { String($0.date.description.prefix(10)) } == ["2026-02-03", "2026-02-04"])
        #expect(days.map(\.consumed) == [1150, 200])
        #expect(days.map(\.burned) == [432, 0])
        #expect(days.map(\.net) == [718, 200])
        #expect(days.map(\.balance) == ["surplus", "surplus"])
    }

    @Test("a daily log reports every bad entry by position")
    func dailyLogErrors() throws {
        let log = Value.map([
            "foods": .list([.map(["name": .string("Soup"), "calories": .int(-5), "timestamp": .string("2026-02-03T07:00:00Z")])]),
            "workouts": .list([.map(["activity": .string("running"), "minutes": .int(0), "intensity": .string("vigorous"), "timestamp": .string("2030-01-01T00:00:00Z")])]),
        ])
        let result = try DailyLogCalculator(calculator: calculator()).summarize(log, now: fixedNow)
        guard case .failure(let errors) = result else { Issue.record("expected errors"); return }
        #expect(errors.problems.map(\.description) == [
            "foods[1]: calories must not be negative, got -5",
            "workouts[1]: minutes must be at least 1 minute, got 0",
            "workouts[1]: timestamp 2030-01-01T00:00:00Z is in the future (now is 2026-02-04T12:00:00Z)",
        ])
    }

    @Test("days group by the local date of the chosen time zone: 21:00 in New York on the 3rd is the 3rd, not the 4th")
    func dailyLogTimeZone() throws {
        let log = Value.map([
            "foods": .list([
                .map(["name": .string("Dinner"), "calories": .int(700), "timestamp": .string("2026-02-04T02:00:00Z")]),
                .map(["name": .string("Breakfast"), "calories": .int(300), "timestamp": .string("2026-02-04T12:00:00Z")]),
            ]),
        ])
        let calculator = DailyLogCalculator(calculator: try calculator())
        let utc = try calculator.summarize(log, now: nil).get()
        #expect(utc.map { String($0.date.description.prefix(10)) } == ["2026-02-04"])
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let local = try calculator.summarize(log, now: nil, timeZone: zone).get()
        #expect(local.map { String($0.date.description.prefix(10)) } == ["2026-02-03", "2026-02-04"])
        #expect(local.map(\.consumed) == [700, 300])
    }

    @Test("property: every entry lands on the local date of its instant, for every hour of a year and several zones")
    func dailyLogLocalDates() throws {
        let calculator = DailyLogCalculator(calculator: try calculator())
        for name in ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "America/St_Johns"] {
            let zone = try #require(TimeZone(identifier: name))
            var formatter = Date.ISO8601FormatStyle(timeZone: zone)
            formatter = formatter.year().month().day()
            for hour in stride(from: 0, to: 24 * 365, by: 7) {
                let seconds = Int64(1_767_225_600 + hour * 3_600)  // from 2026-01-01T00:00:00Z
                let text = Timestamp(seconds: seconds).description
                let log = Value.map(["foods": .list([.map(["name": .string("x"), "calories": .int(1), "timestamp": .string(text)])])])
                let days = try calculator.summarize(log, now: nil, timeZone: zone).get()
                let expected = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(formatter)
                #expect(days.map { String($0.date.description.prefix(10)) } == [expected], "\(name) \(text)")
            }
        }
    }
}
