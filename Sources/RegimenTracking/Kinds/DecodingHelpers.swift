import RegimenLanguage
import RegimenRules

extension MappingDecoder {
    /// Compiles the expression under `key` over the declared `variables` (types checked),
    /// reporting compile errors located in the file; `nil` when the key is missing or the
    /// expression is wrong.
    mutating func formula(_ key: String, declaring variables: [VariableDeclaration]) -> Formula? {
        guard let node = requiredNode(key) else { return nil }
        return context.formula(node, declaring: variables, at: path.appending(key: key))
    }

    /// A list of strings under `key` (required), `[]` when missing or invalid.
    mutating func strings(_ key: String) -> [String] { required(key, as: [String].self) ?? [] }

    /// A coach range such as `0.60-0.70` or `8-12` (a single number is a one-point range).
    mutating func range(_ key: String) -> ClosedRange<Double>? {
        guard let node = requiredNode(key) else { return nil }
        return context.range(node, at: path.appending(key: key))
    }
}

extension DecodingContext {
    /// Compiles `node`'s text as an expression over the declared `variables` (types checked).
    func formula(_ node: LocatedNode, declaring variables: [VariableDeclaration], at path: DecodingPath) -> Formula? {
        if describe(.expression, for: node) { return nil }
        guard node.scalar?.plainType != .null, let source = ExpressionSource(node) else {
            error("rules.wrong-type", path.message("must be an expression string, not \(node.kindDescription)"), at: node.location)
            return nil
        }
        do {
            // The loader's environment, so a formula may call the `kind: functions` helpers as
            // every other rule expression can.
            let expression = try CompiledExpression(source.sourceText, environment: environment(declaring: variables, at: node.location))
            ExpressionRecorder.current?.record(source)
            recordVocabularyUses(of: expression, from: source)
            // Its warnings too (an operand that is not a bool, a function the emulator lacks), as
            // every other rule expression reports them.
            for warning in expression.warnings {
                let corrected = source.correcting(warning)
                report(Diagnostic(corrected.severity, id: corrected.id, path.message(corrected.message), at: corrected.location, notes: corrected.notes))
            }
            return Formula(compiled: expression, text: source.sourceText)
        } catch {
            for diagnostic in error.diagnostics {
                let corrected = source.correcting(diagnostic)
                report(Diagnostic(corrected.severity, id: corrected.id, path.message("has a bad expression: \(corrected.message)"),
                                  at: corrected.location, notes: corrected.notes))
            }
            return nil
        }
    }

    /// `low-high` (either may be a decimal) or one number; reports anything else.
    func range(_ node: LocatedNode, at path: DecodingPath) -> ClosedRange<Double>? {
        NumberRange.decode(from: node, at: path, in: self)?.closedRange
    }

    /// An integer range `low-high`.
    func intRange(_ node: LocatedNode, at path: DecodingPath) -> ClosedRange<Int>? {
        guard let range = NumberRange.decode(from: node, at: path, in: self) else { return nil }
        guard let bounds = range.integerBounds else {
            error("rules.wrong-type", path.message("must be a range of whole numbers"), at: node.location)
            return nil
        }
        return bounds
    }
}
