@testable import RegimenCoaching
import Testing

/// Properties every training plan has, over a grid of 2,688 profiles: days 1–7 × experience ×
/// goal × equipment × eight injury subsets (none, each single flag, and all seven). Weekly sets
/// per muscle stay within the goal-modified band or the plan says why they fall short; session
/// limits hold; no exercise needs equipment the user lacks or is contraindicated by a flagged
/// injury; every busy-day variant fits its time limit; seven days give six training days and one
/// recovery day; the same profile always gives the same plan.
@Suite struct TrainingPlanPropertyTests {
    static let injurySubsets: [[Profile.Injury]] = [[]] + Profile.Injury.allCases.map { [$0] } + [Profile.Injury.allCases]
    static let goals = ["lean_mass", "strength", "fat_loss", "recomp"]

    static var profiles: [Profile] {
        var result: [Profile] = []
        for days in 1...7 {
            for experience in Profile.Experience.allCases {
                for goal in goals {
                    for equipment in Profile.Equipment.allCases {
                        for injuries in injurySubsets {
                            result.append(Profile(
                                sex: .female, scheduleDays: days, experience: experience, equipment: equipment,
                                injuries: injuries, goal: goal))
                        }
                    }
                }
            }
        }
        return result
    }

    @Test func gridHasAtLeastTwoThousandProfiles() {
        #expect(Self.profiles.count >= 2000)
    }

    @Test func everyPlanKeepsTheInvariants() throws {
        let planner = try #require(TrainingFixtures.planner)
        let rules = planner.rules
        let catalog = planner.catalog
        var failures: [String] = []
        func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition, failures.count < 25 { failures.append(message()) }
        }
        for profile in Self.profiles {
            let name = "\(profile.scheduleDays)d \(profile.experience?.rawValue ?? "") \(profile.goal ?? "") \(profile.equipment?.rawValue ?? "") \(profile.injuries.map(\.rawValue))"
            let week = try planner.plan(for: profile)
            let experience = try #require(profile.experience)
            let limits = try #require(rules.sessionLimits[experience]).value
            let equipment = try #require(profile.equipment)
            let tags = try #require(rules.equipmentProfiles[equipment])

            // Weekly sets per muscle lie in the band, or the plan states the shortfall.
            for volume in week.volume {
                check(volume.planned <= Double(volume.band.upperBound) + 1e-9, "\(name): \(volume.muscle) \(volume.planned) above \(volume.band)")
                check(!volume.isShort || !volume.shortfallReasons.isEmpty, "\(name): \(volume.muscle) short without a reason")
            }
            // 7 days → 6 training days and 1 recovery day.
            check(week.workouts.count == profile.scheduleDays, "\(name): \(week.workouts.count) workouts")
            check(week.workouts.filter(\.isRecovery).count == max(0, profile.scheduleDays - 6), "\(name): recovery days")

            for workout in week.workouts {
                // Session limits are never exceeded.
                check(workout.workingSets <= limits.maxSetsPerSession, "\(name) day \(workout.day): \(workout.workingSets) sets")
                check(workout.estimatedMinutes <= limits.maxMinutes, "\(name) day \(workout.day): \(workout.estimatedMinutes) min")
                var perMuscle: [String: Double] = [:]
                for block in workout.blocks where block.kind == .strength {
                    guard let exercise = catalog[block.exerciseId] else { continue }
                    for muscle in exercise.muscles { perMuscle[muscle, default: 0] += Double(block.sets) * rules.setCredit.value.direct }
                    for muscle in exercise.secondaryMuscles { perMuscle[muscle, default: 0] += Double(block.sets) * rules.setCredit.value.indirect }
                }
                for (muscle, sets) in perMuscle where rules.trackedMuscles.contains(muscle) {
                    check(sets <= Double(limits.maxSetsPerMusclePerSession) + 1e-9, "\(name) day \(workout.day): \(muscle) \(sets) sets")
                }
                // No exercise needs missing equipment or is contraindicated by a flagged injury.
                let compactBlocks = workout.compact?.groups.flatMap(\.blocks) ?? []
                for block in workout.blocks + compactBlocks {
                    guard let exercise = catalog[block.exerciseId] else {
                        check(false, "\(name): unknown exercise \(block.exerciseId)")
                        continue
                    }
                    check(tags.isSuperset(of: exercise.equipment), "\(name): \(exercise.id) needs \(exercise.equipment)")
                    check(exercise.contraindicated.isDisjoint(with: profile.injuries), "\(name): \(exercise.id) contraindicated")
                }
                // Each busy-day variant estimates ≤ 25 minutes; every training day has one.
                if !workout.isRecovery {
                    check(workout.compact != nil || workout.blocks.allSatisfy { $0.kind != .strength }, "\(name) day \(workout.day): no compact variant")
                }
                if let compact = workout.compact {
                    check(compact.estimatedMinutes <= rules.compact.value.maxMinutes, "\(name) day \(workout.day): compact \(compact.estimatedMinutes) min")
                    for block in compactBlocks {
                        check(catalog[block.exerciseId]?.supersetSafe == true, "\(name): compact uses \(block.exerciseId)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func samePlanForTheSameProfile() throws {
        let planner = try #require(TrainingFixtures.planner)
        for profile in Self.profiles.enumerated().filter({ $0.offset % 97 == 0 }).map(\.element) {
            #expect(try planner.plan(for: profile) == planner.plan(for: profile))
        }
    }

    /// Complete: every tracked muscle is trained, none is short for lack of an exercise, and each
    /// gets within three sets of the full-gym plan for the same schedule (capped at what the
    /// schedule allows: the band's minimum, or its sessions times the per-muscle session limit).
    @Test(arguments: [Profile.Equipment.bodyweightOnly, .bandsOnly])
    func homeEquipmentGivesCompleteWeeks(_ equipment: Profile.Equipment) throws {
        let planner = try #require(TrainingFixtures.planner)
        for days in 3...6 {
            for experience in Profile.Experience.allCases {
                let week = try planner.plan(for: Profile(sex: .male, scheduleDays: days, experience: experience, equipment: equipment))
                let cap = try #require(planner.rules.sessionLimits[experience]).value.maxSetsPerMusclePerSession
                let gym = try planner.plan(for: Profile(sex: .male, scheduleDays: days, experience: experience, equipment: .fullGym))
                for (volume, gymVolume) in zip(week.volume, gym.volume) {
                    let label = "\(equipment.rawValue) \(days)d \(experience.rawValue) \(volume.muscle)"
                    let reachable = min(Double(min(volume.band.lowerBound, volume.sessions * cap)), gymVolume.planned)
                    #expect(volume.planned > 0, "\(label): not trained")
                    #expect(!volume.shortfallReasons.contains { $0.hasPrefix("no exercise") }, "\(label)")
                    #expect(volume.planned >= reachable - 3, "\(label): \(volume.planned), gym \(gymVolume.planned)")
                }
            }
        }
    }
}
