package import RegimenLanguage

/// A policy compiled once (every condition and function resolved to slots) and evaluated many
/// times. Immutable and `Sendable`: any number of threads may evaluate requests at once.
package struct CompiledPolicy: Sendable {
    /// Everything compiled, behind one reference so that copies of the policy (and closures that
    /// capture it) cost a single retain.
    final class Program: Sendable {
        let policy: SecurityPolicy
        let roots: [CompiledMatch]
        let allows: [CompiledAllow]
        let functions: [CompiledFunctionInfo]
        let namespaceWidth: Int
        let maxSlotCount: Int
        let warnings: [Diagnostic]
        /// The tree flattened for get and write requests; `nil` with a recursive wildcard.
        let walk: MatchWalk?
        /// Whether any condition or function may read the variable `resource`. When none can, a
        /// get or write does not build the stored document's `resource` value (its slot stays
        /// null, unread); `request.resource` is a member of `request` and is always built.
        let readsResource: Bool
        /// Whether any condition or function may call `get()`, `exists()`, `getAfter()` or
        /// `existsAfter()`. When none can, a decision builds no ``DocumentAccess`` and evaluates
        /// without a host: allocating and freeing it was a tenth of a decision's own work.
        let callsHost: Bool
        /// Where `request`, `resource` and their projected fields go in the slots.
        let layout: RequestLayout

        init(
            policy: SecurityPolicy, roots: [CompiledMatch], allows: [CompiledAllow], functions: [CompiledFunctionInfo],
            namespaceWidth: Int, maxSlotCount: Int, warnings: [Diagnostic], root: ExpressionEnvironment
        ) {
            self.policy = policy
            self.roots = roots
            self.allows = allows
            self.functions = functions
            self.namespaceWidth = namespaceWidth
            self.maxSlotCount = maxSlotCount
            self.warnings = warnings
            let layout = RequestLayout(root: root, conditions: allows.compactMap(\.condition))
            self.layout = layout
            walk = MatchWalk(roots: roots, allows: allows, firstSlot: layout.firstWildcardSlot)
            // Asked of the compiled conditions, whose names are resolved: `request.resource` is a
            // member, not the variable, and a map's `get()` method is not the host's `get()`.
            readsResource = allows.contains { $0.condition?.mayRead(variable: "resource") ?? false }
            callsHost = allows.contains { $0.condition?.mayCallHost ?? false }
        }
    }

    let program: Program

    package var policy: SecurityPolicy { program.policy }
    var roots: [CompiledMatch] { program.roots }
    var allows: [CompiledAllow] { program.allows }
    var functions: [CompiledFunctionInfo] { program.functions }
    /// Width of each function's span namespace (see ``SpanNamespaces``).
    var namespaceWidth: Int { program.namespaceWidth }
    /// The most variables any block sees (the size of the evaluation slot buffer).
    var maxSlotCount: Int { program.maxSlotCount }
    var layout: RequestLayout { program.layout }
    /// Non-fatal findings from compiling (for example a call the emulator reports as missing).
    package var warnings: [Diagnostic] { program.warnings }

    /// Firestore evaluates at most 1,000 expressions per request; the bound applies to each
    /// condition here (node evaluations), so a runaway condition ends in an error.
    static let limits = EvaluationLimits(maxSteps: 1_000, maxCallDepth: 20)

    /// The most scalars of namespaced function text a policy may need (see the check in `init`):
    /// a few seconds of compiling at most, far above what real policies need.
    static let maxNamespacedScalars = 16 * 1024 * 1024

    /// Compiles every function and condition of `policy`.
    /// - Throws: ``DiagnosticsError`` with every problem, located in the policy file.
    package init(_ policy: SecurityPolicy) throws(DiagnosticsError) {
        var diagnostics = DiagnosticCollector()
        let declarations = policy.allFunctions
        let conditionLengths = policy.allAllows.compactMap { $0.condition?.text.unicodeScalars.count }
        let functionLengths = declarations.map { f in f.lets.reduce(f.body.text.unicodeScalars.count) { $0 + $1.value.text.unicodeScalars.count + 1 } }
        let width = ((conditionLengths + functionLengths).max() ?? 0) + 64
        // Function k is compiled from its text placed k × width scalars to the right (see
        // ``SpanNamespaces``), so compiling reads about width × n²/2 scalars for n functions: a
        // hostile policy (thousands of functions, or a few beside one huge condition) would stall
        // here. Such a policy is refused; the shipped ones need well under 1% of the budget.
        let pairs = declarations.count * (declarations.count + 1) / 2
        let (namespaced, overflow) = width.multipliedReportingOverflow(by: pairs)
        if overflow || namespaced > Self.maxNamespacedScalars {
            throw DiagnosticsError([.error(
                "rules.too-large",
                "the policy is too large to compile: \(declarations.count) functions and a longest condition or function of \(width - 64) characters; use fewer functions or shorter expressions",
                at: declarations.last?.location)])
        }
        var builder = Builder(width: width, allFunctionDeclarations: declarations)
        let root: ExpressionEnvironment
        do {
            root = try ExpressionEnvironment(
                variables: ["request", "resource"], projections: RequestLayout.projections(for: policy),
                functions: builder.sources(for: policy.functions),
                hostFunctions: DocumentAccess.hostFunctions)
        } catch {
            throw DiagnosticsError(error.diagnostics)
        }
        var warnings = root.warnings
        var roots: [CompiledMatch] = []
        for block in policy.matches {
            if let match = builder.compile(block, parent: root, diagnostics: &diagnostics, warnings: &warnings) { roots.append(match) }
        }
        if diagnostics.hasErrors { throw DiagnosticsError(diagnostics.diagnostics) }
        func deepest(_ node: CompiledMatch) -> Int { node.children.map(deepest).reduce(node.slotCount, max) }
        program = Program(
            policy: policy, roots: roots, allows: builder.allows, functions: builder.functionInfos, namespaceWidth: width,
            maxSlotCount: roots.map(deepest).reduce(root.variables.count, max), warnings: warnings.sorted(by: Diagnostic.sortKey), root: root)
    }

    /// Compiling state: assigns allow ids and function namespaces in source order.
    private struct Builder {
        let width: Int
        let allFunctionDeclarations: [FunctionDeclaration]
        var allows: [CompiledAllow] = []
        var functionInfos: [CompiledFunctionInfo] = []

        /// Text-form functions, each shifted into its own span namespace.
        mutating func sources(for declarations: [FunctionDeclaration]) -> [FunctionSource] {
            declarations.map { declaration in
                let index = functionInfos.count
                let padding = (index + 1) * width
                let namespaced = SpanNamespaces.shift(declaration, by: padding)
                functionInfos.append(CompiledFunctionInfo(
                    declaration: declaration, resultSpan: namespaced.resultSpan, parsedResult: namespaced.parsedResult,
                    partSources: namespaced.parts, namespace: index + 1))
                return namespaced.source
            }
        }

        mutating func compile(
            _ block: MatchBlock, parent: ExpressionEnvironment, diagnostics: inout DiagnosticCollector, warnings: inout [Diagnostic]
        ) -> CompiledMatch? {
            let environment: ExpressionEnvironment
            do {
                environment = try ExpressionEnvironment(
                    variables: block.pattern.variableNames, functions: sources(for: block.functions), parent: parent)
            } catch {
                diagnostics.append(contentsOf: error.diagnostics)
                return nil
            }
            warnings.append(contentsOf: environment.warnings.filter { w in !warnings.contains(w) })
            let firstSlot = parent.variables.count
            var allowIDs: [Int] = []
            for statement in block.allows {
                var condition: CompiledExpression?
                var parsed: Expr?
                if let text = statement.condition {
                    do {
                        condition = try CompiledExpression(text.source, environment: environment)
                        if case .success(let expr) = Parser.parse(text.text) { parsed = expr }
                        warnings.append(contentsOf: condition?.warnings ?? [])
                    } catch {
                        diagnostics.append(contentsOf: error.diagnostics)
                    }
                }
                allowIDs.append(allows.count)
                allows.append(CompiledAllow(
                    id: allows.count, statement: statement, methods: statement.requestMethods, condition: condition,
                    expression: parsed, slotCount: environment.variables.count))
            }
            var children: [CompiledMatch] = []
            for child in block.children {
                if let compiled = compile(child, parent: environment, diagnostics: &diagnostics, warnings: &warnings) { children.append(compiled) }
            }
            return CompiledMatch(
                pattern: block.pattern.segments, firstSlot: firstSlot, slotCount: environment.variables.count,
                allowIDs: allowIDs, children: children, block: block,
                hasRecursiveWildcard: block.pattern.segments.contains { if case .recursive = $0 { true } else { false } })
        }
    }
}

/// One `match` block after compilation (a reference: the path walk visits it per request).
final class CompiledMatch: Sendable {
    let pattern: [PathPatternSegment]
    /// `pattern` as the walk's fast path reads it (only meaningful without a recursive wildcard).
    let steps: [PatternStep]
    /// The slot of this block's first wildcard variable; the rest follow in pattern order.
    let firstSlot: Int
    /// Variables visible inside the block (`request`, `resource`, every enclosing wildcard).
    let slotCount: Int
    let allowIDs: [Int]
    let children: [CompiledMatch]
    let block: MatchBlock
    let hasRecursiveWildcard: Bool

    init(
        pattern: [PathPatternSegment], firstSlot: Int, slotCount: Int, allowIDs: [Int], children: [CompiledMatch], block: MatchBlock,
        hasRecursiveWildcard: Bool
    ) {
        self.pattern = pattern
        steps = pattern.map { segment in
            switch segment {
            case .literal(let text): PatternStep(isLiteral: true, text: text)
            case .wildcard(let name), .recursive(let name): PatternStep(isLiteral: false, text: name)
            }
        }
        self.firstSlot = firstSlot
        self.slotCount = slotCount
        self.allowIDs = allowIDs
        self.children = children
        self.block = block
        self.hasRecursiveWildcard = hasRecursiveWildcard
    }
}

/// One segment of a pattern without a recursive wildcard. A plain struct rather than
/// ``PathPatternSegment``: reading an enum's payload copies it per segment per request.
struct PatternStep: Sendable {
    let isLiteral: Bool
    /// The literal, or the wildcard's variable name.
    let text: String
}

/// The request methods of an allow statement as bits, so the per-statement method test is a mask
/// rather than hashing the method's name in a `Set`.
struct MethodMask: Sendable, Hashable {
    let rawValue: UInt8

    init(_ methods: Set<RequestMethod>) {
        rawValue = methods.reduce(0) { $0 | Self.bit($1) }
    }

    func contains(_ method: RequestMethod) -> Bool { rawValue & Self.bit(method) != 0 }

    private static func bit(_ method: RequestMethod) -> UInt8 {
        switch method {
        case .get: 1
        case .list: 2
        case .create: 4
        case .update: 8
        case .delete: 16
        }
    }
}

/// One allow statement after compilation (a reference: the evaluation loop passes it around).
final class CompiledAllow: Sendable {
    let id: Int
    let statement: AllowStatement
    let methods: Set<RequestMethod>
    /// `methods` for the per-request test.
    let methodMask: MethodMask
    /// `nil` for `allow x;` (always grants), or when the condition failed to compile.
    let condition: CompiledExpression?
    /// The parsed condition, for explanations.
    let expression: Expr?
    let slotCount: Int

    init(id: Int, statement: AllowStatement, methods: Set<RequestMethod>, condition: CompiledExpression?, expression: Expr?, slotCount: Int) {
        self.id = id
        self.statement = statement
        self.methods = methods
        methodMask = MethodMask(methods)
        self.condition = condition
        self.expression = expression
        self.slotCount = slotCount
    }
}

/// A user function and where its result expression sits in its span namespace.
struct CompiledFunctionInfo: Sendable {
    var declaration: FunctionDeclaration
    var resultSpan: SourceSpan?
    var parsedResult: ParsedResult?
    var partSources: [SourceText]
    var namespace: Int
}
