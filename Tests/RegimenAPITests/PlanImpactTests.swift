import Foundation
@testable import RegimenCommands
@testable import RegimenKit
import Testing

/// `regimen impact` and `PlanImpact` over the shipped panel:
/// - the same rules on both sides change no client;
/// - an edit confined to one kind of client changes only such clients, and each group counts
///   exactly the clients it lists;
/// - the report is the same bytes on every run, in every format.
@Suite struct PlanImpactTests {
    static let root = ReadmeExamplesTests.root

    /// Every 6th client of examples/panel (40 of 240): every axis still varies, at a sixth of the cost.
    static let panel: [PlanImpact.Client] = {
        let folder = root.appendingPathComponent("examples/panel")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
        return names.enumerated().compactMap { index, name in
            guard index % 6 == 0, let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { return nil }
            return PlanImpact.Client(name: name, profile: data)
        }
    }()

    /// A copy of rules/ and catalogs/ in a scratch folder, with `edit` applied to one rule file.
    static func editedRules(_ file: String, replacing old: String, with new: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("impact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["rules", "catalogs"] {
            try FileManager.default.copyItem(at: root.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let target = folder.appendingPathComponent("rules/\(file)")
        let text = try String(contentsOf: target, encoding: .utf8)
        #expect(text.contains(old), "the edit must apply")
        try text.replacingOccurrences(of: old, with: new).write(to: target, atomically: true, encoding: .utf8)
        return folder
    }

    @Test func thePanelSpansEveryAxis() throws {
        let folder = Self.root.appendingPathComponent("examples/panel")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.count >= 200)
        let text = try files.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
        for value in ["sex: female", "sex: male", "goal: fat_loss", "goal: lean_mass", "goal: recomp", "goal: strength",
                      "experience: novice", "experience: advanced", "equipment: bands_only", "equipment: bodyweight_only",
                      "schedule_days: 1", "schedule_days: 7", "exclusions: [vegan]", "injuries: [knee]", "budget_tier: low",
                      "meals_per_day: 2", "meals_per_day: 6", "age_range: \"<18\"", "age_range: \">60\"", "medications: [warfarin]"] {
            #expect(text.contains(value), "no client with \(value)")
        }
    }

    @Test func sameRulesChangeNoClient() throws {
        let engine = try ReadmeExamplesTests.loaded()
        let impact = PlanImpact.compare(base: engine, new: engine, panel: Self.panel)
        #expect(impact.clientCount == Self.panel.count)
        #expect(impact.changed.isEmpty, "\(impact.changed.prefix(3))")
        #expect(impact.groups.isEmpty)
    }

    /// The README's coach edit: one line raises intermediate chest by two sets. Over the panel,
    /// exactly the intermediate clients change, each with chest's band moved, and no other
    /// muscle's band moves for anyone (the sets of muscles chest's exercises also train follow,
    /// through the indirect credit).
    @Test func anIntermediateChestLineMovesOnlyChestsBandForIntermediates() throws {
        let edited = try Self.editedRules(
            "training-volume.yaml", replacing: "muscle_adjustments: []",
            with: "muscle_adjustments:\n  - { muscle: chest, experience: intermediate, add_sets: 2 }")
        defer { try? FileManager.default.removeItem(at: edited) }
        let base = try ReadmeExamplesTests.loaded()
        let new = try RegimenEngine(rules: edited)
        let impact = PlanImpact.compare(base: base, new: new, panel: Self.panel)
        let intermediates = Set(Self.panel.filter { String(decoding: $0.profile, as: UTF8.self).contains("experience: intermediate") }.map(\.name))
        #expect(!intermediates.isEmpty)
        #expect(Set(impact.changed.map(\.client)) == intermediates)
        for client in impact.changed {
            let bands = client.changes.filter { $0.summary.contains("weekly band") }
            #expect(bands.map(\.summary).allSatisfy { $0.hasPrefix("chest weekly band: ") }, "\(client.client): \(bands.map(\.summary))")
            #expect(bands.count == 1, "\(client.client): \(client.changes.map(\.summary))")
        }
    }

    @Test func aNoviceBandEditChangesOnlyNovicesAndGroupsCountTheirClients() throws {
        let edited = try Self.editedRules("training-volume.yaml", replacing: "      sets: 8-12", with: "      sets: 10-14")
        defer { try? FileManager.default.removeItem(at: edited) }
        let base = try ReadmeExamplesTests.loaded()
        let new = try RegimenEngine(rules: edited)
        let impact = PlanImpact.compare(base: base, new: new, panel: Self.panel)
        let novices = Set(Self.panel.filter { String(decoding: $0.profile, as: UTF8.self).contains("experience: novice") }.map(\.name))
        #expect(!impact.changed.isEmpty)
        for client in impact.changed {
            #expect(novices.contains(client.client), "\(client.client) is not a novice: \(client.changes.map { $0.summary })")
        }
        for group in impact.groups {
            #expect(group.summary.hasPrefix("\(group.clients.count) of \(Self.panel.count) clients: "), "\(group.summary)")
            #expect(Set(group.clients).count == group.clients.count)
        }
        // Every changed client appears in a group with each of its changes.
        let grouped = impact.groups.reduce(0) { $0 + $1.clients.count }
        #expect(grouped == impact.changed.reduce(0) { $0 + $1.changes.count })
        // The band row itself moved for the novices whose band was the unmodified one.
        #expect(impact.groups.contains { $0.summary.hasSuffix("weekly band: 8–12 → 10–14") })
    }

    /// An ingredient a catalog edit takes out of some clients' meals is reported for exactly the
    /// clients whose options held it (the comparison read an `id` that meal options do not have,
    /// so ingredient changes were never reported).
    @Test func anIngredientLeavingMealsIsReportedForTheClientsWhoHadIt() throws {
        let edited = try Self.editedRules("../catalogs/ingredients.yaml", replacing: "    budget_tier: low\n    contains: [gluten]\n  - id: buckwheat",
                                          with: "    budget_tier: low\n    contains: [gluten, dairy]\n  - id: buckwheat")
        defer { try? FileManager.default.removeItem(at: edited) }
        let base = try ReadmeExamplesTests.loaded()
        let new = try RegimenEngine(rules: edited.appendingPathComponent("rules"), catalogs: edited.appendingPathComponent("catalogs"))
        let impact = PlanImpact.compare(base: base, new: new, panel: Self.panel)
        let droppers = impact.changed.filter { client in client.changes.contains { $0.summary == "carb ingredients: drops barley" } }
        #expect(!droppers.isEmpty, "\(impact.groups.map(\.summary))")
        for client in droppers {
            let profile = try #require(Self.panel.first { $0.name == client.client })
            // rules/dietary-exclusions.yaml: `dairy` and `vegan` both exclude dairy.
            let text = String(decoding: profile.profile, as: UTF8.self)
            #expect(text.contains("dairy") || text.contains("vegan"), "\(client.client) excludes no dairy")
        }
    }

    /// A new personal caution for clients over 60 is reported for every over-60 client of the
    /// panel who is shown a supplement, and for no one else (impact read only the catalog's
    /// cautions of shortlisted items, so this reported "No change").
    @Test func aNewCautionForClientsOverSixtyChangesExactlyTheOverSixties() throws {
        let message = "Over 60: check this supplement with your doctor alongside your medicines."
        let edited = try Self.editedRules("supplement-rules.yaml", replacing: "  # ── Gut ──", with: """
              - id: over_sixty_check
                when: "profile.age != null && profile.age >= 60"
                action: caution
                message: "\(message)"

              # ── Gut ──
            """)
        defer { try? FileManager.default.removeItem(at: edited) }
        let base = try ReadmeExamplesTests.loaded()
        let new = try RegimenEngine(rules: edited.appendingPathComponent("rules"), catalogs: edited.appendingPathComponent("catalogs"))
        let impact = PlanImpact.compare(base: base, new: new, panel: Self.panel)
        let changed = Dictionary(uniqueKeysWithValues: impact.changed.map { ($0.client, $0.changes) })
        var overSixties = 0
        for client in Self.panel {
            let profile = try new.profile(from: client.profile, name: client.name)
            let shown = try new.supplements(for: profile)
            let isOverSixty = (profile.age ?? 0) >= 60 && !(shown.shortlist.isEmpty && shown.optional.isEmpty)
            let changes: [PlanImpact.Change] = changed[client.name] ?? []
            if isOverSixty {
                overSixties += 1
                #expect(changes.contains { $0.measure == "supplement cautions" && $0.after.hasSuffix(message) }, "\(client.name): \(changes.map { $0.summary })")
            }
            #expect(changes.allSatisfy { $0.measure == "supplement cautions" && $0.after.hasSuffix(message) }, "\(client.name): \(changes.map { $0.summary })")
            if !isOverSixty { #expect(changes.isEmpty, "\(client.name) is not over 60: \(changes.map { $0.summary })") }
        }
        #expect(overSixties > 0)
    }

    /// Impact names what a client is told beyond the shortlist: an item moved from the shortlist
    /// to the left-out list is reported with the reason the client reads.
    @Test func anItemLeftOutIsReportedWithItsReason() throws {
        let message = "Left out for this test: not offered by this gym."
        let edited = try Self.editedRules("supplement-rules.yaml", replacing: "  # ── Gut ──", with: """
              - id: gym_does_not_sell_creatine
                when: "item.id == 'creatine_monohydrate'"
                action: exclude
                message: "\(message)"

              # ── Gut ──
            """)
        defer { try? FileManager.default.removeItem(at: edited) }
        let base = try ReadmeExamplesTests.loaded()
        let new = try RegimenEngine(rules: edited.appendingPathComponent("rules"), catalogs: edited.appendingPathComponent("catalogs"))
        let impact = PlanImpact.compare(base: base, new: new, panel: Self.panel)
        let summaries = impact.groups.map(\.summary)
        #expect(summaries.contains { $0.hasSuffix("supplements left out: adds creatine_monohydrate") }, "\(summaries)")
        // The same clients lose it from their shortlist, and the two groups are the same clients.
        let shortlist = impact.groups.first { $0.summary.hasSuffix("supplement shortlist: drops creatine_monohydrate") }
        let leftOut = impact.groups.first { $0.summary.hasSuffix("supplements left out: adds creatine_monohydrate") }
        #expect(shortlist != nil && shortlist?.clients == leftOut?.clients, "\(summaries)")
        #expect(summaries.contains { $0.hasSuffix("reasons supplements are left out: adds creatine_monohydrate: \(message)") }, "\(summaries)")
    }

    /// Optional items are part of what a client is told: with only tier A shortlisted and tier B
    /// optional, goals no tier A item serves are offered their tier B items as optional, and impact reports each
    /// item offered or withdrawn for exactly the clients whose advice gained or lost it.
    @Test func optionalItemsAreReportedForExactlyTheClientsOfferedThem() throws {
        let edited = try Self.editedRules("supplement-rules.yaml", replacing: "  shortlist_min_tier: B\n", with: "  shortlist_min_tier: A\n")
        defer { try? FileManager.default.removeItem(at: edited) }
        // Tier B items, no longer shortlisted, are what may be offered as optional.
        let file = edited.appendingPathComponent("rules/supplement-rules.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("  optional_tier: C\n"))
        try text.replacingOccurrences(of: "  optional_tier: C\n", with: "  optional_tier: B\n").write(to: file, atomically: true, encoding: .utf8)
        let base = try ReadmeExamplesTests.loaded()
        let new = try RegimenEngine(rules: edited.appendingPathComponent("rules"), catalogs: edited.appendingPathComponent("catalogs"))
        let impact = PlanImpact.compare(base: base, new: new, panel: Self.panel)
        let changed = Dictionary(uniqueKeysWithValues: impact.changed.map { ($0.client, $0.changes) })
        var offered = 0
        for client in Self.panel {
            let before = Set(try base.supplements(for: try base.profile(from: client.profile, name: client.name)).optional.map(\.id))
            let after = Set(try new.supplements(for: try new.profile(from: client.profile, name: client.name)).optional.map(\.id))
            let reported = (changed[client.name] ?? []).filter { $0.measure == "optional supplements" }
            #expect(Set(reported.map(\.after).filter { !$0.isEmpty }) == after.subtracting(before), "\(client.name): \(reported.map(\.summary))")
            #expect(Set(reported.map(\.before).filter { !$0.isEmpty }) == before.subtracting(after), "\(client.name): \(reported.map(\.summary))")
            offered += after == before ? 0 : 1
        }
        #expect(offered > 0, "the edit offers no client of the panel an optional item")
    }

    /// A change of one block's exercise or dose is named by its day and block, with the exercise.
    @Test func aChangedBlockIsNamedWithItsDayAndExercise() throws {
        let edited = try Self.editedRules("training-volume.yaml", replacing: "      sets: 8-12", with: "      sets: 10-14")
        defer { try? FileManager.default.removeItem(at: edited) }
        let base = try ReadmeExamplesTests.loaded()
        let new = try RegimenEngine(rules: edited)
        let impact = PlanImpact.compare(base: base, new: new, panel: Self.panel)
        let blocks = impact.changed.flatMap(\.changes).filter { $0.measure.hasPrefix("day ") && $0.measure.contains(" block ") }
        #expect(!blocks.isEmpty, "\(impact.groups.map(\.summary).prefix(10))")
        for change in blocks {
            if change.measure.contains(", ") {
                // The same exercise, its dose changed: `day 1 (Push) block 2, Push-up (push_up):
                // 3 × 8–15 → 4 × 8–15`, the exercise named with its block.
                #expect(change.measure.hasSuffix(")") && change.measure.contains(" ("), "\(change.summary)")
                for side in [change.before, change.after] { #expect(side.contains(" × ") && !side.contains("("), "\(change.summary)") }
            } else {
                // Another exercise in the block, or a block added or dropped: `Push-up (push_up)
                // 3 × 6–10`, the exercise's name and id, then its dose (empty on the side
                // where the block does not exist).
                for side in [change.before, change.after] where !side.isEmpty {
                    #expect(side.contains(" (") && side.contains(") ") && side.contains(" × "), "\(change.summary)")
                }
            }
        }
    }

    @Test func theCommandPrintsTheSameBytesEveryRunInEveryFormat() throws {
        let edited = try Self.editedRules("training-volume.yaml", replacing: "      sets: 8-12", with: "      sets: 10-14")
        defer { try? FileManager.default.removeItem(at: edited) }
        let clients = ["examples/panel/client-001.yaml", "examples/panel/client-002.yaml", "examples/panel/client-003.yaml",
                       "examples/minimal.yaml", "examples/complete.yaml"]
        for format in ["text", "json", "html"] {
            let arguments = ["impact", "--base", Self.root.appendingPathComponent("rules").path, "--rules", edited.appendingPathComponent("rules").path,
                             "--format", format] + clients
            let first = EngineMatchesCommandTests.regimen(arguments)
            let second = EngineMatchesCommandTests.regimen(arguments)
            #expect(first.status == 0, "\(first.error)")
            #expect(first.output == second.output)
            if format == "json" {
                let object = try JSONSerialization.jsonObject(with: Data(first.output.utf8)) as? [String: Any]
                #expect(object?["clients"] as? Int == clients.count)
            }
            if format == "html" {
                #expect(first.output.hasPrefix("<!doctype html>") && !first.output.contains("<script"))
            }
        }
    }

    @Test func badPanelsAndBasesAreUsageErrors() {
        #expect(EngineMatchesCommandTests.regimen(["impact", "--base", "rules"]).status == 2)
        #expect(EngineMatchesCommandTests.regimen(["impact", "--base", "rules", "no/such/panel"]).status == 2)
        #expect(EngineMatchesCommandTests.regimen(["impact", "--base", "no/such/rules", "examples/minimal.yaml"]).status == 2)
        #expect(EngineMatchesCommandTests.regimen(["impact", "--base", "git:--upload-pack=x", "examples/minimal.yaml"]).status == 2)
    }
}
