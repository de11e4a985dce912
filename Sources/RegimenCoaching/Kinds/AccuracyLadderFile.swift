import RegimenLanguage
package import RegimenRules

/// `rules/accuracy-ladder.yaml`: the accuracy meter's ladder, next-best inputs and tips.
package struct AccuracyLadderFile: RuleFileKind, Sendable {
    package static let kind = "accuracy_ladder"
    /// The inputs the ladder may name.
    static let inputs = ["weight_kg", "height_cm", "age_range", "bodyfat_pct", "waist_cm"]

    struct Level: Sendable, Hashable {
        package var level: String
        var requires: [String]
        var confidence: String
    }

    var levels: [Level]
    var nextBestOrder: [String]
    var tips: [String: String]

    package static func decode(_ document: inout MappingDecoder) -> AccuracyLadderFile? {
        let context = document.context
        let levels = document.list("levels") { node, path in
            context.mapping(node, at: path) { map -> Level? in
                // Every key is read even without `level`, so a missing one is a single error.
                let level = map.required("level", as: String.self)
                if let level { map.path = map.path.about("accuracy level '\(level)'") }
                let name = level.map { "accuracy level '\($0)'" } ?? map.path.keyPath
                let requires = map.required("requires", as: [String].self) ?? []
                for input in requires where !inputs.contains(input) {
                    context.error("rules.value", "\(name): '\(input)' is not a ladder input (\(inputs.joined(separator: ", ")))", at: map.location(ofKey: "requires"))
                }
                let confidence = map.required("confidence", as: String.self) ?? "low"
                if !["low", "med", "high"].contains(confidence) {
                    context.error("rules.value", "\(name): confidence must be low, med or high", at: map.location(ofKey: "confidence"))
                }
                guard let level else { return nil }
                return Level(level: level, requires: requires, confidence: confidence)
            }
        }
        let order = document.required("next_best_order", as: [String].self)
        let tips = document.mapping("tips") { map -> [String: String]? in
            var result: [String: String] = [:]
            for input in inputs { result[input] = map.required(input, as: String.self) }
            return result
        }
        guard let levels, !levels.isEmpty, let order, let tips else { return nil }
        for input in order where !inputs.contains(input) {
            context.error("rules.value", "accuracy ladder: next_best_order names '\(input)', not a ladder input", at: document.node("next_best_order")?.location)
        }
        return AccuracyLadderFile(levels: levels, nextBestOrder: order, tips: tips)
    }
}
