import RegimenLanguage
import RegimenRules

/// The coach shorthand the training rule files accept: ranges (`8-12`), percentages (`30%`),
/// durations (`90s`, `15min`) and prescriptions (`4x6-10 @RIR 1-3`).
enum CoachNotation {
    /// `8-12`, `8–12` or a single integer `8`.
    static func range(_ text: String) -> ClosedRange<Int>? {
        let parts = text.replacingOccurrences(of: "–", with: "-").split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard (1...2).contains(parts.count), let low = Int(parts[0]), let high = Int(parts[parts.count - 1]),
              low >= 0, low <= high else { return nil }
        return low...high
    }

    /// `30%` as 0.3.
    static func percent(_ text: String) -> Double? {
        guard text.hasSuffix("%"), let number = Double(text.dropLast().trimmingCharacters(in: .whitespaces)),
              number >= 0 else { return nil }
        return number / 100
    }

    /// `90s`, `2min` or `2m` as seconds.
    static func seconds(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for (suffix, scale) in [("min", 60), ("s", 1), ("m", 60)] where trimmed.hasSuffix(suffix) {
            guard let number = Int(trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)), number >= 0
            else { return nil }
            return number * scale
        }
        return nil
    }

    /// `4x6-10 @RIR 1-3`: at most 4 sets of an exercise, 6-10 reps, 1-3 reps in reserve.
    static func prescription(_ text: String) -> TrainingRules.Prescription? {
        let halves = text.components(separatedBy: "@")
        guard halves.count == 2 else { return nil }
        let volume = halves[0].trimmingCharacters(in: .whitespaces).lowercased().split(separator: "x", maxSplits: 1)
        guard volume.count == 2, let sets = Int(volume[0].trimmingCharacters(in: .whitespaces)), sets >= 1,
              let reps = range(String(volume[1])), reps.lowerBound >= 1 else { return nil }
        let effort = halves[1].trimmingCharacters(in: .whitespaces)
        guard effort.uppercased().hasPrefix("RIR"), let rir = range(String(effort.dropFirst(3))) else { return nil }
        return TrainingRules.Prescription(maxSetsPerExercise: sets, reps: reps, rir: rir)
    }
}

extension MappingDecoder {
    /// A scalar under `key` read with a notation parser; a missing key or a bad value is reported.
    mutating func notation<T>(_ key: String, required: Bool = true, expected: String, _ parse: (String) -> T?) -> T? {
        guard let node = required ? requiredNode(key) : self.node(key) else { return nil }
        guard let text = node.scalar?.text, let value = parse(text) else {
            context.error("rules.bad-notation", path.appending(key: key).message("must be \(expected), not \(node)"), at: node.location)
            return nil
        }
        return value
    }

    /// A list of plain words.
    mutating func words(_ key: String, required: Bool = true) -> [String]? {
        required ? self.required(key, as: [String].self) : optional(key, as: [String].self)
    }
}
