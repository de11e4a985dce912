package import RegimenLanguage

/// What one sub-expression produced over a test run: how often it ran, how often it was true,
/// false or an error, and the first distinct values it produced, in the order first seen.
///
/// Memory is bounded however long the run: at most ``keptValues`` values are kept with their
/// counts, at most ``countedOthers`` further distinct values are remembered (to say "and N
/// more"), and at most ``keptErrors`` distinct error messages.
package struct ValueSummary: Sendable {
    /// Values shown with their counts.
    static let keptValues = 5
    /// Further distinct values counted before the report says "and at least N more".
    static let countedOthers = 64
    static let keptErrors = 3

    package var evaluated = 0
    package var isTrue = 0
    package var isFalse = 0
    package var errored = 0
    /// The first distinct values seen, with how often each was produced.
    package private(set) var values: [(value: Value, count: Int)] = []
    /// Distinct values beyond ``values`` (at most ``countedOthers``).
    private var others: Set<Value> = []
    /// Whether more distinct values were seen than ``others`` holds.
    private(set) var othersOverflowed = false
    /// The first distinct error messages.
    package private(set) var errors: [String] = []

    init() {}

    /// How many distinct values were seen beyond ``values`` (a lower bound when ``othersOverflowed``).
    package var moreValues: Int { others.count }

    /// Whether the sub-expression only ever produced booleans (or failed): its true/false counts
    /// say all there is to say.
    var isBoolean: Bool { evaluated == isTrue + isFalse + errored }

    mutating func record(_ outcome: Result<Value, EvaluationError>) {
        evaluated += 1
        switch outcome {
        case .success(.bool(true)): isTrue += 1
        case .success(.bool(false)): isFalse += 1
        case .success(let value):
            if let index = values.firstIndex(where: { $0.value == value }) {
                values[index].count += 1
            } else if values.count < Self.keptValues {
                values.append((value, 1))
            } else if !others.contains(value) {
                if others.count < Self.countedOthers { others.insert(value) } else { othersOverflowed = true }
            }
        case .failure(let error):
            errored += 1
            let message = error.message
            if errors.count < Self.keptErrors, !errors.contains(message) { errors.append(message) }
        }
    }

    /// The outcomes in words: `evaluated 4: true 2, false 2, error 0` for a condition, `evaluated
    /// 3: 'a' ×2, 'b' ×1 and 2 more` for a value.
    package var description: String {
        var parts: [String] = []
        if isTrue + isFalse > 0 || values.isEmpty { parts.append("true \(isTrue), false \(isFalse)") }
        if !values.isEmpty {
            var shown = values.map { "\(Self.shortened($0.value.description)) ×\($0.count)" }.joined(separator: ", ")
            if moreValues > 0 { shown += " and \(moreValues)\(othersOverflowed ? "+" : "") more" }
            parts.append(shown)
        }
        if errored > 0 || values.isEmpty { parts.append("error \(errored)") }
        return "evaluated \(evaluated): " + parts.joined(separator: ", ")
    }

    /// A value's text cut to a length a note can show.
    package static func shortened(_ text: String, limit: Int = 60) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
