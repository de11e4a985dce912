import RegimenLanguage
import RegimenRules

/// The variables the formulas of `rules/tracker/tracker-duplication.yaml` read, declared once:
/// the file compiles its formulas against them (types checked), the duplicator binds exactly
/// them, and `regimen explain-kind tracker_duplication` and the file's header print them.
enum TrackerDuplicationVariables {
    typealias V = VariableDeclaration

    static let source = V("source", .map, "the source document's fields, with its id")
    static let maxSiblingValue = V(
        "max_sibling_value", ExpressionType.number.orNull, "the field's highest value under the same parent, the source's included; null when none is a number")
    static let n = V("n", .int, "the try: 2, 3, … while the computed value is taken")

    static let duplicatedScope = ExpressionScope("levels.*.when_duplicated.*", "once per field, on the document the user duplicates", [source, maxSiblingValue])
    static let takenScope = ExpressionScope("levels.*.when_taken.*", "once per try while the field's value is taken", [source, n])
}
