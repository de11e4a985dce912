/// An expression compiled once against an ``ExpressionEnvironment`` and evaluated many times.
///
/// Compilation parses, resolves every name and checks what can be checked statically; evaluation
/// neither parses nor looks names up by string. The value is immutable and `Sendable`: any number
/// of threads may evaluate it at once.
///
/// ```swift
/// let env = try ExpressionEnvironment(variables: ["profile"])
/// let bmi = try CompiledExpression(SourceText("profile.weight_kg / math.pow(profile.height_cm / 100, 2)"), environment: env)
/// let value = try bmi.evaluate(["profile": profile])
/// ```
package struct CompiledExpression: Sendable {
    /// Everything compiled, behind one reference: rule sets hold and pass expressions around on
    /// every evaluation, and a copy should cost one retain, not one per field.
    final class Program: Sendable {
        let source: SourceText
        let root: Node
        let evaluator: Evaluator
        let tracedEvaluator: Evaluator
        /// The condition asking only "is it `true`?".
        let grant: Grant
        /// Whether the expression or a function it can reach calls a host function. Its reads
        /// count against the whole request, so skipping one could change a later answer:
        /// ``CompiledExpression/grants(slots:limits:host:)`` then evaluates in full.
        let callsHost: Bool
        /// No evaluation counts more steps than this (see ``StepBound``).
        let stepBound: Int
        let functions: [CompiledFunction]
        let slotNames: [String]
        let usedSlots: [Int]
        let staticType: StaticType
        let warnings: [Diagnostic]
        let vocabularyUses: [VocabularyUse]
        let comparedNames: [ComparedName]
        let literalStrings: [LiteralString]?

        init(
            source: SourceText, root: Node, functions: [CompiledFunction], slotNames: [String], usedSlots: [Int],
            staticType: StaticType, warnings: [Diagnostic], vocabularyUses: [VocabularyUse] = [],
            comparedNames: [ComparedName] = [], literalStrings: [LiteralString]? = nil
        ) {
            self.vocabularyUses = vocabularyUses
            self.comparedNames = comparedNames
            self.literalStrings = literalStrings
            self.source = source
            self.root = root
            let inlined = CallInliner(functions: functions).inline(root, callerParameters: 0)
            self.evaluator = ClosureCompiler.compile(inlined)
            var bound = StepBound(functions: functions)
            self.stepBound = bound.bound(root)
            self.callsHost = Self.reachableBodies(root, functions).contains { body in
                body.contains { node in
                    if case .host = node { true } else { false }
                }
            }
            self.grant = GrantCompiler().compile(inlined)
            self.tracedEvaluator = ClosureCompiler.compileTraced(root)
            self.functions = functions
            self.slotNames = slotNames
            self.usedSlots = usedSlots
            self.staticType = staticType
            self.warnings = warnings
        }

        /// `root` and every function body it could reach (errs towards yes: every function of
        /// the environment counts, called or not).
        static func reachableBodies(_ root: Node, _ functions: [CompiledFunction]) -> [Node] {
            [root] + functions.flatMap { $0.letNodes + [$0.resultNode] }
        }
    }

    let program: Program

    package var source: SourceText { program.source }
    var root: Node { program.root }
    var evaluator: Evaluator { program.evaluator }
    var tracedEvaluator: Evaluator { program.tracedEvaluator }
    var functions: [CompiledFunction] { program.functions }
    var slotNames: [String] { program.slotNames }
    var usedSlots: [Int] { program.usedSlots }
    var staticType: StaticType { program.staticType }
    /// Non-fatal findings (for example a call the emulator reports as missing).
    package var warnings: [Diagnostic] { program.warnings }
    /// String literals compared with a value of a named vocabulary (goal ids, catalog ids), for
    /// the loader to check once the files naming the vocabulary are read.
    package var vocabularyUses: [VocabularyUse] { program.vocabularyUses }
    /// Variables compared with a declared enumeration or vocabulary (`item.id in minor_allowed`),
    /// for the loader to check the strings of the variables' own expressions.
    package var comparedNames: [ComparedName] { program.comparedNames }
    /// The string literals the expression is made of, when it is a string literal or a list
    /// literal of string literals (`['whey_protein', 'omega_3']`); `nil` otherwise.
    package var literalStrings: [LiteralString]? { program.literalStrings }

    /// Parses and compiles `source`.
    /// - Throws: ``DiagnosticsError`` with every syntax, name and type problem, located in the file.
    package init(_ source: SourceText, environment: ExpressionEnvironment) throws(DiagnosticsError) {
        switch Parser.parse(source.text) {
        case .failure(let failure):
            throw DiagnosticsError([.error("expr.syntax", failure.message, at: Self.location(source, failure.span.start))])
        case .success(let expr):
            try self.init(parsed: expr, source: source, environment: environment)
        }
    }

    /// Parses and compiles a free-standing expression (its diagnostics are located at `<expression>:1:COLUMN`).
    package init(_ text: String, environment: ExpressionEnvironment = .empty) throws(DiagnosticsError) {
        try self.init(SourceText(text, startingAt: SourceLocation(file: "<expression>", line: 1, column: 1)), environment: environment)
    }

    /// Compiles an already-parsed expression (the `.rules` parser uses this).
    package init(parsed expr: Expr, source: SourceText, environment: ExpressionEnvironment) throws(DiagnosticsError) {
        var compiler = Compiler(scope: Compiler.Scope(
            globals: environment.slots,
            projections: environment.projections,
            functions: environment.functionNames,
            functionArity: Dictionary(uniqueKeysWithValues: environment.functionTable.enumerated().map { ($0, $1.parameterCount) }),
            hosts: Dictionary(environment.hostFunctions.enumerated().map { ($1.name, (index: $0, arity: $1.arity)) }, uniquingKeysWith: { a, _ in a }),
            globalTypes: environment.variableTypes,
            globalShapes: environment.variableShapes
        ), source: source)
        let (root, type) = compiler.compile(expr)
        if compiler.diagnostics.hasErrors { throw DiagnosticsError(compiler.diagnostics.diagnostics) }
        program = Program(
            source: source, root: root, functions: environment.functionTable, slotNames: environment.variables,
            usedSlots: compiler.usedGlobals.sorted(), staticType: type, warnings: compiler.diagnostics.diagnostics,
            vocabularyUses: compiler.vocabularyUses, comparedNames: compiler.comparedNames,
            literalStrings: Self.literalStrings(of: expr, in: source))
    }

    /// The strings of a string literal or of a list literal made only of string literals.
    private static func literalStrings(of expr: Expr, in source: SourceText) -> [LiteralString]? {
        func literal(_ expr: Expr) -> LiteralString? {
            guard case .literal(.string(let text), let span) = expr else { return nil }
            return LiteralString(text: text, location: location(source, span.start))
        }
        if let single = literal(expr) { return [single] }
        guard case .list(let items, _) = expr else { return nil }
        let strings = items.compactMap(literal)
        return strings.count == items.count ? strings : nil
    }

    private static func location(_ source: SourceText, _ offset: Int) -> SourceLocation? {
        source.location(ofScalarOffset: offset)
    }

    /// The type name the compiler inferred (`"bool"`, `"int"`, …), or `nil` when only evaluation can tell.
    package var inferredTypeName: String? { staticType.isKnown ? staticType.rawValue : nil }

    /// The type the compiler inferred, as a declaration would state it (`any` when only
    /// evaluation can tell): lets a rule file declare a `let:` name with its expression's type.
    package var inferredType: ExpressionType {
        switch staticType {
        case .bool: .bool
        case .int: .int
        case .float: .float
        case .number: .number
        case .string: .string
        case .list: .list
        case .map: .map
        case .set: ExpressionType(.set)
        case .timestamp: ExpressionType(.timestamp)
        case .duration: ExpressionType(.duration)
        case .dynamic, .null, .bytes, .path, .latlng, .mapDiff: .any
        }
    }

    /// Names of the environment variables this expression reads.
    package var referencedVariables: [String] { usedSlots.map { slotNames[$0] } }

    /// Whether evaluating may read the environment variable `name`, in the expression or in any
    /// function of its environment. Errs towards yes: a function counts whether called or not.
    package func mayRead(variable name: String) -> Bool {
        let slots = Set(slotNames.indices.filter { slotNames[$0] == name })
        guard !slots.isEmpty else { return false }
        return reachableBodies.contains { body in
            body.contains { node in
                if case .global(let slot, _) = node { slots.contains(slot) } else { false }
            }
        }
    }

    /// Which variable slots some bodies read, and which they use whole (see ``Projection``):
    /// `request.keys()` uses `request` whole, `request.auth` reads only its projected field.
    package struct SlotUses {
        package var read: Set<Int> = []
        package var whole: Set<Int> = []

        /// Adds what `body` reads.
        mutating func add(_ body: Node) {
            _ = body.rewritten { node in
                switch node {
                case .global(let slot, _):
                    read.insert(slot)
                    whole.insert(slot)
                    return node
                case .projected(_, _, let field, _):
                    // A projected read uses its own field whole; its bases (projected fields and
                    // the variable) are read field by field.
                    whole.insert(field.slot)
                    var base = node
                    while case .projected(let inner, _, _, _) = base { base = inner }
                    if case .global(let slot, _) = base { read.insert(slot) }
                    return node
                default:
                    return nil
                }
            }
        }
    }

    /// What the expression itself reads, without the functions it may call.
    package var ownSlotUses: SlotUses {
        var uses = SlotUses()
        uses.add(root)
        return uses
    }

    /// What the functions of `expressions`' environments read, each function once however many
    /// expressions share it (called or not).
    package static func functionSlotUses(_ expressions: [CompiledExpression]) -> SlotUses {
        var uses = SlotUses()
        var seen: Set<ObjectIdentifier> = []
        for expression in expressions {
            for function in expression.functions where seen.insert(ObjectIdentifier(function)).inserted {
                for body in function.letNodes + [function.resultNode] { uses.add(body) }
            }
        }
        return uses
    }

    /// Whether evaluating may use the value in `slot` whole, in the expression or in any function
    /// of its environment (called or not).
    func usesWhole(slot: Int) -> Bool {
        ownSlotUses.whole.contains(slot) || Self.functionSlotUses([self]).whole.contains(slot)
    }

    /// Whether evaluating may call a host function (`get()`, `exists()`, …), in the expression or
    /// in any function of its environment.
    package var mayCallHost: Bool { program.callsHost }

    /// The expression and every function body it could reach.
    private var reachableBodies: [Node] { Program.reachableBodies(root, functions) }

    /// Evaluates with variables given by name.
    /// - Throws: ``EvaluationError`` — including when a variable the expression reads has no value.
    package func evaluate(_ bindings: [String: Value], limits: EvaluationLimits = .default) throws(EvaluationError) -> Value {
        var slots = [Value](repeating: .null, count: slotNames.count)
        for slot in usedSlots {
            guard let value = bindings[slotNames[slot]] else {
                throw EvaluationError(.invalidArgument, "Variable '\(slotNames[slot])' has no value.")
            }
            slots[slot] = value
        }
        for (slot, name) in slotNames.enumerated() where bindings[name] != nil {
            slots[slot] = bindings[name] ?? .null
        }
        return try evaluate(slots: slots, limits: limits)
    }

    /// The fast path: variables in the environment's slot order (``ExpressionEnvironment/variables``).
    /// - Parameters:
    ///   - slots: one value per environment variable; a missing slot is an error, not a crash.
    ///   - host: supplies host functions such as `get()` for this evaluation.
    ///   - tracer: receives each sub-expression's outcome, for explanations.
    @inline(__always)
    package func evaluate(
        slots: [Value], limits: EvaluationLimits = .default, host: (any EvaluationHost)? = nil,
        tracer: (any EvaluationTracer)? = nil
    ) throws(EvaluationError) -> Value {
        guard slots.count >= slotNames.count else {
            throw EvaluationError(.invalidArgument, "Expected \(slotNames.count) variable values, got \(slots.count).")
        }
        let program = program
        return try slots.withUnsafeBufferPointer { (globals) throws(EvaluationError) -> Value in
            try program.functions.withUnsafeBufferPointer { (functions) throws(EvaluationError) -> Value in
                var context = EvaluationContext(globals: globals, functions: functions, limits: limits, host: host, tracer: tracer)
                if tracer != nil { return try program.tracedEvaluator(&context) }
                return try program.evaluator(&context)
            }
        }
    }

    /// What an evaluation counted: its outcome, the nodes it evaluated and the work it was charged
    /// (``Cost``). Tests and the fuzz target assert on these counts, never on the clock.
    package func measure(slots: [Value], limits: EvaluationLimits = .default) -> (outcome: Result<Value, EvaluationError>, steps: Int, cost: Int) {
        guard slots.count >= slotNames.count else {
            return (.failure(EvaluationError(.invalidArgument, "Expected \(slotNames.count) variable values, got \(slots.count).")), 0, 0)
        }
        let program = program
        return slots.withUnsafeBufferPointer { globals in
            program.functions.withUnsafeBufferPointer { functions in
                var context = EvaluationContext(globals: globals, functions: functions, limits: limits, host: nil, tracer: nil)
                let outcome: Result<Value, EvaluationError>
                do throws(EvaluationError) {
                    outcome = .success(try program.evaluator(&context))
                } catch {
                    outcome = .failure(error)
                }
                return (outcome, context.steps, context.cost)
            }
        }
    }

    /// Evaluates as a condition the way security rules do: `true` only for the bool `true`;
    /// an error or a non-bool value is `false` (fail closed), with the reason.
    package func evaluateCondition(
        slots: [Value], limits: EvaluationLimits = .default, host: (any EvaluationHost)? = nil,
        tracer: (any EvaluationTracer)? = nil
    ) -> Result<Bool, EvaluationError> {
        do {
            let value = try evaluate(slots: slots, limits: limits, host: host, tracer: tracer)
            guard case .bool(let b) = value else {
                return .failure(EvaluationError(.typeError, "Type error: condition evaluated to \(value.typeName), not bool.", span: root.span))
            }
            return .success(b)
        } catch {
            return .failure(error)
        }
    }

    /// Whether the condition evaluates to `true` — what ``evaluateCondition(slots:limits:host:tracer:)``
    /// returns as `.success(true)` — without finding out, when it does not, whether it was false
    /// or failed. That is all a security decision needs: it runs and charges what evaluation runs
    /// (so a cost budget runs out at the same operation in both) but builds no error values.
    /// Exactly the same answer in every case: where its step count could differ (a host call, or
    /// a step limit the condition could reach) it evaluates in full.
    ///
    /// The variables are in a buffer the caller keeps (a decision builds them on its stack rather
    /// than in a heap array it would free right after).
    package func grants(slots: UnsafeBufferPointer<Value>, limits: EvaluationLimits = .default, host: (any EvaluationHost)? = nil) -> Bool {
        let program = program
        guard !program.callsHost, program.stepBound <= limits.maxSteps, slots.count >= program.slotNames.count else {
            if case .success(true) = evaluateCondition(slots: Array(slots), limits: limits, host: host) { return true }
            return false
        }
        return program.functions.withUnsafeBufferPointer { functions in
            var context = EvaluationContext(globals: slots, functions: functions, limits: limits, host: host, tracer: nil)
            return program.grant(&context) == .granted
        }
    }

    /// Where an evaluation error points in the file, when the expression has a file origin.
    package func location(of error: EvaluationError) -> SourceLocation? {
        error.span.flatMap { source.location(ofScalarOffset: $0.start) }
    }
}

/// A tracer that keeps every outcome, in evaluation order (explanations, `regimen eval --explain`).
package final class RecordingTracer: EvaluationTracer {
    package private(set) var records: [(span: SourceSpan, outcome: Result<Value, EvaluationError>)] = []

    package init() {}

    package func record(span: SourceSpan, outcome: Result<Value, EvaluationError>) {
        records.append((span, outcome))
    }
}
