import Foundation
import RegimenLanguage
import RegimenRules

/// `rules/age-ranges.yaml`: the data dictionary's age ranges and the numeric age each maps to.
struct AgeRangesFile: RuleFileKind, Sendable {
    package static let kind = "age_ranges"

    struct AgeRange: Sendable, Hashable {
        /// Canonical id with an ASCII hyphen, e.g. `18-24`.
        package var id: String
        var mappedAge: Int
        var minor: Bool
    }

    package var ranges: [AgeRange]

    /// `age_range`: the range labels a profile may give.
    package static func vocabularies(_ ruleSet: RuleSet) -> [String: Set<String>] {
        let ids = ruleSet.all(AgeRangesFile.self).flatMap { $0.ranges.map(\.id) }
        return ids.isEmpty ? [:] : ["age_range": Set(ids)]
    }
    /// Accepted exact ages in years.
    var exactAge: ClosedRange<Double>
    /// An exact age below this counts as a minor.
    var minorBelowAge: Int
    var minorCaution: String

    /// The canonical range for a written one: `18–24` (en dash), `18 - 24` and `18-24` are the same.
    package func range(named text: String) -> AgeRange? {
        let key = Self.normalize(text)
        return ranges.first { $0.id == key }
    }

    static func normalize(_ text: String) -> String {
        text.replacingOccurrences(of: "–", with: "-").replacingOccurrences(of: "—", with: "-")
            .replacingOccurrences(of: " ", with: "")
    }

    package static func decode(_ document: inout MappingDecoder) -> AgeRangesFile? {
        let context = document.context
        let exact = decodeRange(&document, "exact_age")
        let minorBelow = document.required("minor_below_age", as: Int.self)
        let caution = document.required("minor_caution", as: String.self)
        let ranges = document.list("ranges") { node, path in
            context.mapping(node, at: path) { map -> AgeRange? in
                // Every key is read even when one is missing, so each mistake is one error.
                let id = map.required("id", as: String.self)
                if let id { map.path = map.path.about("age range '\(id)'") }
                let age = map.required("mapped_age", as: Int.self, in: 1...120)
                let minor = map.optional("minor", as: Bool.self) ?? false
                guard let id, let age else { return nil }
                return AgeRange(id: normalize(id), mappedAge: age, minor: minor)
            }
        } ?? []
        let rangeNodes = document.node("ranges")?.sequence ?? []
        context.checkUnique(zip(ranges, rangeNodes).map { ($0.id, $1.location) }, what: "age range")
        guard let exact, let minorBelow, let caution, !ranges.isEmpty else { return nil }
        return AgeRangesFile(ranges: ranges, exactAge: exact, minorBelowAge: minorBelow, minorCaution: caution)
    }

    package var ruleCount: Int { ranges.count }
}
