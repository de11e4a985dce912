import Foundation
import Testing
@testable import RegimenCommands

/// Numbers print as a person writes them in the planner commands' JSON and YAML too: never a binary
/// rounding artefact such as `33.800000000000004` or `25.349999999999998`.
@Suite struct ProfileReportNumberTests {
    static let profiles = [
        "examples/minimal.yaml", "examples/complete.yaml", "examples/cutting-office-worker.yaml", "examples/masters-strength.yaml",
        "examples/plan-home-bodyweight-knee.yaml", "examples/plan-six-day-advanced.yaml", "examples/supplements-hypertension.yaml",
        "examples/teen-athlete.yaml", "examples/vegetarian-student.json",
    ]

    /// A decimal with a run of seven 0s or 9s after the point, the mark of an unrounded double.
    static func artefacts(in text: String) -> [String] {
        let pattern = try? NSRegularExpression(pattern: #"-?[0-9]+\.[0-9]*(0000000|9999999)[0-9]+"#)
        let range = NSRange(text.startIndex..., in: text)
        return (pattern?.matches(in: text, range: range) ?? []).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }

    @Test(arguments: ["plan", "indexes", "nutrition", "supplements"])
    func profileReportsPrintHumanNumbers(command: String) {
        for profile in Self.profiles {
            for format in ["json", "yaml"] {
                let run = runRegimen([command, profile, "--format", format], in: ExitCodeTableTests.repository)
                #expect(run.status == 0, "\(command) \(profile): \(run.standardError)")
                #expect(Self.artefacts(in: run.standardOutput) == [], "\(command) \(profile) --format \(format)")
            }
        }
    }
}
