package import RegimenLanguage

extension ExpressionFunctions {
    /// The declarations in the form the expression compiler takes.
    var functionSources: [FunctionSource] {
        declarations.map { declaration in
            FunctionSource(
                name: declaration.name, parameters: declaration.parameters,
                lets: declaration.bindings.map { ($0.name, $0.expression.sourceText) },
                result: declaration.body.sourceText, location: declaration.location)
        }
    }

    /// Compiles the functions into a root environment that every rule expression extends.
    ///
    /// Problems are reported at the exact character. When some functions do not compile, the ones
    /// that do (in declaration order) still form the environment, so expressions calling them are
    /// not reported a second time.
    func compileEnvironment(into context: DecodingContext) -> ExpressionEnvironment {
        guard !declarations.isEmpty else { return .empty }
        do {
            let environment = try ExpressionEnvironment(functions: functionSources)
            context.report(contentsOf: environment.warnings.map(correcting))
            return environment
        } catch {
            context.report(contentsOf: error.diagnostics.map(correcting))
        }
        var accepted: [FunctionSource] = []
        var environment = ExpressionEnvironment.empty
        for source in functionSources {
            if let candidate = try? ExpressionEnvironment(functions: accepted + [source]) {
                accepted.append(source)
                environment = candidate
            }
        }
        return environment
    }

    /// Moves a diagnostic about a function to the exact character of whichever part it is in.
    private func correcting(_ diagnostic: Diagnostic) -> Diagnostic {
        for declaration in declarations {
            for source in declaration.bindings.map(\.expression) + [declaration.body] {
                let corrected = source.correcting(diagnostic)
                if corrected.location != diagnostic.location { return corrected }
            }
        }
        return diagnostic
    }
}

extension DecodingContext {
    /// An environment with `variables` in this order plus every shared function of the rule set.
    /// Environments are cached per variable list, so asking again is cheap.
    package func environment(variables: [String]) -> ExpressionEnvironment {
        if let cached = environments[variables] { return cached }
        let root = services.expressionEnvironment
        let environment = (try? ExpressionEnvironment(variables: variables, parent: root)) ?? root
        environments[variables] = environment
        return environment
    }

    /// Compiles the expression written in `node` against `environment`.
    ///
    /// Syntax, name and type errors are reported at the exact character inside the scalar, the
    /// message prefixed with `path`'s subject (`rule 'sleep_low': unknown name 'slep'`).
    /// - Parameter name: The name the expression defines (a fact), whose strings are then checked
    ///   against what the file's other expressions compare the name with.
    /// - Returns: The compiled expression, or `nil` when it does not compile (errors reported).
    package func compileExpression(_ node: LocatedNode, at path: DecodingPath, in environment: ExpressionEnvironment, defining name: String? = nil) -> CompiledExpression? {
        if describe(.expression, for: node) { return nil }
        guard let scalar = node.scalar, scalar.plainType != .null, let source = ExpressionSource(node) else {
            wrongType(node, expected: "an expression", at: path)
            return nil
        }
        do {
            let compiled = try CompiledExpression(source.sourceText, environment: environment)
            ExpressionRecorder.current?.record(source)
            recordVocabularyUses(of: compiled, from: source)
            if let name { recordDefinition(name, of: compiled, from: source) }
            report(contentsOf: compiled.warnings.map { located(source.correcting($0), path) })
            return compiled
        } catch {
            report(contentsOf: error.diagnostics.map { located(source.correcting($0), path) })
            return nil
        }
    }

    private func located(_ diagnostic: Diagnostic, _ path: DecodingPath) -> Diagnostic {
        var copy = diagnostic
        copy.message = path.prefixed(diagnostic.message)
        return copy
    }
}

extension MappingDecoder {
    /// Compiles the required expression under `key` against `environment`.
    package mutating func requiredExpression(_ key: String, in environment: ExpressionEnvironment) -> CompiledExpression? {
        if context.isDescribing {
            _ = required(key, as: DescribedExpression.self)
            return nil
        }
        guard let value = requiredNode(key) else { return nil }
        return context.compileExpression(value, at: path.appending(key: key), in: environment)
    }

    /// Compiles the expression under `key`, if present, against `environment`.
    package mutating func optionalExpression(_ key: String, in environment: ExpressionEnvironment) -> CompiledExpression? {
        if context.isDescribing {
            _ = optional(key, as: DescribedExpression.self)
            return nil
        }
        guard let value = node(key) else { return nil }
        return context.compileExpression(value, at: path.appending(key: key), in: environment)
    }
}

/// The shape of an expression key, for describing mode: the key is recorded as an expression
/// through the same `required`/`optional` calls every other key goes through.
enum DescribedExpression: NodeDecodable {
    static func decode(from node: LocatedNode, at path: DecodingPath, in context: DecodingContext) -> DescribedExpression? {
        _ = context.describe(.expression, for: node)
        return nil
    }
}
