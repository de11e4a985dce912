import Foundation
import Testing
@testable import RegimenCommands

/// Every shipped rule and catalog file is named after its `kind:` (underscores become hyphens),
/// so a coach finds a kind's file by its name and a file's name says what it holds. Files of a
/// kind with several files add a topic after the kind; security policies are named by their path.
@Suite struct RuleFileNamingTests {
    @Test func everyFileIsNamedAfterItsKind() throws {
        let repository = ShippedRulesCheckTests.repository
        var checked = 0
        for folder in ["rules", "catalogs"] {
            let root = repository.appendingPathComponent(folder)
            let walker = try #require(FileManager.default.enumerator(atPath: root.path))
            for case let relative as String in walker where relative.hasSuffix(".yaml") && !relative.hasPrefix("security/") {
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                let kindLine = text.split(separator: "\n").first { $0.hasPrefix("kind:") }
                let kind = try #require(kindLine.map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) }, "\(folder)/\(relative) has no kind: line")
                #expect(!kind.contains("-"), "\(folder)/\(relative): kinds are spelled with underscores, not '\(kind)'")
                let stem = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension
                let expected = kind.replacingOccurrences(of: "_", with: "-")
                #expect(stem == expected || stem.hasPrefix(expected + "-"), "\(folder)/\(relative) holds kind '\(kind)'; name it \(expected).yaml")
                checked += 1
            }
        }
        #expect(checked >= 30)
    }
}
