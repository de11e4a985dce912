@testable import RegimenCoaching
@testable import RegimenLanguage
@testable import RegimenRules
import Testing
import Foundation

/// The training files' `when:` tables compile against their declared, typed inputs
/// (`regimen explain-kind training_splits`): a type error is a load error at its character, and
/// a failing or non-boolean condition never lets another row answer for it.
@Suite struct TrainingVariableTypeTests {
    private func errors(_ files: [(path: String, text: String)]) -> [String] {
        TrainingFixtures.load(files).diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    /// The line and column of `needle` in `path`'s text among `files`.
    private func location(of needle: String, in path: String, _ files: [(path: String, text: String)]) -> String? {
        guard let text = files.first(where: { $0.path == path })?.text else { return nil }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let range = line.range(of: needle) {
                return "\(path):\(index + 1):\(line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: range.lowerBound) + 1)"
            }
        }
        return nil
    }

    @Test(arguments: [
        ("rules/training-splits.yaml", "days == 3", "days <= 'three'", "days <= 'three'", "cannot compare int <= string"),
        ("rules/training-volume.yaml", "experience == 'novice'", "experience > 1", "experience > 1", "cannot compare string > int"),
        ("rules/training-goals.yaml", "goal == 'strength'", "goal - 1 > 0", "goal - 1", "unsupported operation: string - int"),
        ("rules/training-session-limits.yaml", "modifier == 'strength' && movement == 'compound'", "modifier * 2 == 4", "modifier * 2", "unsupported operation: string * int"),
        ("rules/training-selection.yaml", "experience == 'intermediate'", "experience.size() > 'x'", "experience.size() > 'x'", "cannot compare int > string"),
    ])
    func aTypeErrorInAWhenIsALoadErrorAtItsCharacter(file: String, original: String, broken: String, at needle: String, says: String) throws {
        let files = TrainingFixtures.files(editing: file, replacing: "when: \(original)", with: "when: \(broken)")
        let found = errors(files)
        let expected = try #require(location(of: needle, in: file, files))
        #expect(found.contains { $0.hasPrefix("\(expected): error:") && $0.contains(says) }, "\(found)")
    }

    @Test func aConditionThatGivesANumberIsALoadErrorAtItsRow() throws {
        let files = TrainingFixtures.files(editing: "rules/training-splits.yaml", replacing: "when: days == 5", with: "when: days + 1")
        let expected = try #require(location(of: "days + 1", in: "rules/training-splits.yaml", files))
        #expect(errors(files).contains { $0.hasPrefix("\(expected): error:") && $0.contains("gives int, not true or false") }, "\(errors(files))")
    }
}
