package import RegimenLanguage
import RegimenRules

/// A coach-written formula from a rule file, evaluated with named variables.
///
/// Rule files hold formulas as expressions; the loader compiles them once into a `Formula`, and
/// the algorithms of this module evaluate them without knowing how they were written.
package struct Formula: Sendable {
    /// The formula as written in the rule file, for explanations and error messages.
    package let source: String
    /// Where the formula is written, when it was compiled from a rule file.
    package let location: SourceLocation?
    private let body: @Sendable ([String: Value]) throws -> Value

    /// A formula computed by `body`; the loader builds these from compiled expressions.
    init(source: String, _ body: @escaping @Sendable ([String: Value]) throws -> Value) {
        self.source = source
        self.location = nil
        self.body = body
    }

    /// Compiles `text` as an expression over `variables`.
    /// - Throws: ``DiagnosticsError`` located in the rule file when the expression is wrong.
    init(compiling text: SourceText, variables: [String]) throws(DiagnosticsError) {
        try self.init(compiling: text, environment: try ExpressionEnvironment(variables: variables))
    }

    /// Compiles `text` in `environment`: its variables, and the rule set's shared functions when
    /// the environment comes from the loader (``DecodingContext/environment(variables:)``).
    /// - Throws: ``DiagnosticsError`` located in the rule file when the expression is wrong.
    init(compiling text: SourceText, environment: ExpressionEnvironment) throws(DiagnosticsError) {
        self.init(compiled: try CompiledExpression(text, environment: environment), text: text)
    }

    /// A formula over an expression the loader compiled (and whose warnings it reported) from `text`.
    init(compiled expression: CompiledExpression, text: SourceText) {
        let location = text.lineOrigins.first
        self.source = text.text
        self.location = location
        self.body = { bindings in
            BindingRecorder.current?.record(at: location, bindings)
            do throws(EvaluationError) {
                return try expression.evaluate(bindings)
            } catch {
                let place = expression.location(of: error).map { "\($0): " } ?? ""
                throw FormulaError(message: "\(place)formula '\(text.text)' failed: \(error)")
            }
        }
    }

    /// The formula's value for `variables`.
    package func evaluate(_ variables: [String: Value]) throws -> Value {
        try body(variables)
    }

    /// The formula's value as a number; an error names the formula when it yields anything else.
    package func number(_ variables: [String: Value]) throws -> Double {
        let value = try body(variables)
        guard let number = value.numberValue else {
            throw FormulaError(message: "formula '\(source)' gave \(value.typeName), expected a number")
        }
        return number
    }

    /// The formula's value as a boolean.
    package func bool(_ variables: [String: Value]) throws -> Bool {
        let value = try body(variables)
        guard let bool = value.boolValue else {
            throw FormulaError(message: "formula '\(source)' gave \(value.typeName), expected a bool")
        }
        return bool
    }
}

/// A formula gave a value of the wrong type or failed to evaluate.
struct FormulaError: DiagnosticError {
    package var message: String
    init(message: String) { self.message = message }
    package var description: String { message }
    /// A formula of the rule files failed.
    package var kind: ErrorKind { .rules }
    package var diagnostics: [Diagnostic] { [.error("rules.formula", message, at: nil)] }
}
