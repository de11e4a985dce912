import Foundation
@testable import RegimenLanguage
import Testing
@testable import RegimenTracking
import OrderedCollections

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
        #expect(catalog.activities.allSatisfy { $0.rows.allSatisfy { $0.code.count == 5 } })
        #expect(catalog.search("yoga").map(\.id) == ["power_yoga", "yoga"])
    }

    @Test("property: every Compendium row's MET lies in the band of the level it serves")
    func metInBand() throws {
        let rules = try shippedRules()
        for activity in rules.activities.activities {
            #expect(activity.usualRow != nil)
            for row in activity.rows {
                let level = try #require(rules.calorieBurn.level(row.level))
                #expect(row.met >= level.minMET && row.met <= level.maxMET, "\(activity.id): \(row.code) \(row.met) is not \(row.level)")
            }
        }
    }

    /// Rows of the 2011 Compendium (code, MET, description), transcribed from its tables for every
    /// code the catalog uses; the catalog must quote each exactly.
    static let compendium2011: [String: (Double, String)] = [
        "01010": (4.0, "bicycling, <10 mph, leisure, to work or for pleasure"), "01018": (3.5, "bicycling, leisure, 5.5 mph"),
        "01030": (8.0, "bicycling, 12-13.9 mph, leisure, moderate effort"),
        "02013": (8.8, "bicycling, stationary, 101-160 watts, vigorous effort"),
        "02017": (4.8, "bicycling, stationary, 51-89 watts, light-to-moderate effort"),
        "02020": (8.0, "calisthenics (e.g., push ups, sit ups, pull-ups, jumping jacks), vigorous effort"),
        "02022": (3.8, "calisthenics (e.g., push ups, sit ups, pull-ups, lunges), moderate effort"),
        "02024": (2.8, "calisthenics (e.g., situps, abdominal crunches), light effort"),
        "02040": (8.0, "circuit training, including kettlebells, some aerobic movement with minimal rest, general, vigorous intensity"),
        "02048": (5.0, "elliptical trainer, moderate effort"),
        "02050": (6.0, "resistance training (weight lifting, free weight, nautilus or universal-type), power lifting or body building, vigorous effort"),
        "02052": (5.0, "resistance (weight) training, squats, slow or explosive effort"),
        "02054": (3.5, "resistance (weight) training, multiple exercises, 8-15 repetitions at varied resistance"),
        "02065": (9.0, "stair-treadmill ergometer, general"), "02070": (6.0, "rowing, stationary ergometer, general, vigorous effort"),
        "02071": (4.8, "rowing, stationary, general, moderate effort"), "02101": (2.3, "stretching, mild"), "02105": (3.0, "pilates, general"),
        "02150": (2.5, "yoga, Hatha"), "02160": (4.0, "yoga, Power"),
        "03020": (5.0, "aerobic, low impact"), "03021": (7.3, "aerobic, high impact"),
        "12020": (7.0, "jogging, general"), "12050": (9.8, "running, 6 mph (10 min/mile)"),
        "15020": (7.0, "badminton, competitive"), "15030": (5.5, "badminton, social singles and doubles, general"),
        "15055": (6.5, "basketball, general"), "15070": (4.5, "basketball, shooting baskets"), "15110": (5.5, "boxing, punching bag"),
        "15255": (4.8, "golf, general"),
        "15551": (11.8, "rope jumping, moderate pace, 100-120 skips/min, general, 2 foot skip, plain bounce"),
        "15610": (7.0, "soccer, casual, general"), "15660": (4.0, "table tennis, ping pong"),
        "15670": (3.0, "tai chi, qi gong, general"), "15672": (1.5, "tai chi, qi gong, sitting, light effort"),
        "15675": (7.3, "tennis, general"), "15685": (4.5, "tennis, doubles"),
        "15711": (6.0, "volleyball, competitive, in gymnasium"), "15720": (3.0, "volleyball, non-competitive, 6 - 9 member team, general"),
        "17080": (6.0, "hiking, cross country"), "17082": (5.3, "hiking or walking at a normal pace through fields and hillsides"),
        "17151": (2.0, "walking, less than 2.0 mph, level, strolling, very slow"),
        "17152": (2.8, "walking, 2.0 mph, level, slow pace, firm surface"),
        "17190": (3.5, "walking, 2.8 to 3.2 mph, level, moderate pace, firm surface"),
        "17200": (4.3, "walking, 3.5 mph, level, brisk, firm surface, walking for exercise"),
        "17230": (7.0, "walking, 4.5 mph, level, firm surface, very, very brisk"),
        "18230": (9.8, "swimming laps, freestyle, fast, vigorous effort"),
        "18240": (5.8, "swimming laps, freestyle, front crawl, slow, light or moderate effort"),
    ]

    @Test("every row of the catalog quotes its 2011 Compendium code, MET and description")
    func compendiumRows() throws {
        for activity in try shippedRules().activities.activities {
            for row in activity.rows {
                let reference = Self.compendium2011[row.code]
                #expect(reference?.0 == row.met, "\(activity.id): \(row.code) has MET \(reference.map { "\($0.0)" } ?? "unknown"), not \(row.met)")
                #expect(reference?.1 == row.description, "\(activity.id): \(row.code) is '\(reference?.1 ?? "unknown")'")
            }
        }
    }

    /// (activity, minutes, intensity, kg, ACSM kcal, seed kcal, MET)
    static let table: [(String, Int, String, Double?, Int64, Int64, Double)] = [
        ("running", 30, "vigorous", nil, 360, 103, 9.8),     // row 12050; 30 × 9.8 × 3.5 × 70 / 200 = 360.15
        ("running", 30, "moderate", nil, 217, 62, 5.9),      // single row: fallback 9.8 × 1.0 / 1.2, kept within Moderate 3.0–5.9
        ("walking", 60, "moderate", 80, 294, 84, 3.5),       // row 17190
        ("walking", 60, "light", 80, 168, 48, 2.0),          // row 17151
        ("walking", 60, "vigorous", 80, 588, 168, 7.0),      // row 17230
        ("yoga", 45, "light", 55, 108, 31, 2.5),             // row 02150; 108.28 and 30.94
        ("stretching", 10, "vigorous", 70, 74, 21, 6.0),     // single row: raised into Vigorous ≥ 6.0; 73.5 rounds half up
        ("powerlifting", 60, "light", 70, 213, 61, 2.9),     // single row: 6.0 × 0.8 / 1.2 = 4.0, kept within Light
        ("swimming", 1, "moderate", 20, 2, 1, 5.8),          // row 18240
        ("jump_rope", 1440, "vigorous", 400, 118_944, 33_984, 11.8),
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

    @Test("property: a level with a row burns at that row's MET, a single row falls back (and says so), several rows refuse other levels",
          arguments: 0..<8)
    func neverNegative(seed: Int) throws {
        let calculator = try calculator()
        var random = SeededRandom(seed: UInt64(seed) + 11)
        for _ in 0..<100 {
            let activity = try #require(calculator.catalog.activities.randomElement(using: &random))
            let level = try #require(calculator.rules.levels.randomElement(using: &random))
            let minutes = Int.random(in: 1...1440, using: &random)
            let kg = Double.random(in: 20...400, using: &random)
            let entry = WorkoutEntry(activity: activity.id, minutes: minutes, intensity: level.id)
            if activity.rows.count > 1, activity.row(level.id) == nil {
                #expect(throws: BurnError.self) { try calculator.burn(entry, weightKg: kg) }
                continue
            }
            let result = try calculator.burn(entry, weightKg: kg)
            #expect(result.kcal >= 0)
            #expect(result.met >= level.minMET && result.met <= level.maxMET)
            if let row = activity.row(level.id) {
                #expect(result.met == row.met && result.row == row && result.fallback == nil)
            } else {
                #expect(result.fallback?.contains("no Compendium row for \(activity.id) at \(level.id)") == true)
                #expect((result.met * 10).rounded() == result.met * 10)
            }
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
        #expect(days.map(\.burned) == [360, 0])
        #expect(days.map(\.net) == [790, 200])
        #expect(days.map(\.balance) == ["surplus", "surplus"])
    }

    /// Positions are zero-based field paths (`foods[0]` is the first food), as every other
    /// field path is (`checkins[0]`); they used to count from 1.
    @Test("a daily log reports every bad entry by position")
    func dailyLogErrors() throws {
        let log = Value.map([
            "foods": .list([.map(["name": .string("Soup"), "calories": .int(-5), "timestamp": .string("2026-02-03T07:00:00Z")])]),
            "workouts": .list([.map(["activity": .string("running"), "minutes": .int(0), "intensity": .string("vigorous"), "timestamp": .string("2030-01-01T00:00:00Z")])]),
        ])
        let result = try DailyLogCalculator(calculator: calculator()).summarize(log, now: fixedNow)
        guard case .failure(let errors) = result else { Issue.record("expected errors"); return }
        #expect(errors.problems.map(\.description) == [
            "foods[0]: calories must not be negative, got -5",
            "workouts[0]: minutes must be at least 1 minute, got 0",
            "workouts[0]: timestamp 2030-01-01T00:00:00Z is in the future (now is 2026-02-04T12:00:00Z)",
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
