/// The names an expression may use: variables (bound at evaluation), user-defined functions and
/// host functions. Built once, then shared by every expression compiled against it.
///
/// Environments nest: a child sees its parent's variables and functions and adds its own (a
/// Firestore `match` block adds wildcard variables and functions to its enclosing block's). A
/// child's variable slots extend its parent's, so a function compiled in the parent works
/// unchanged when called from the child.
package struct ExpressionEnvironment: Sendable {
    /// Variable names in slot order (the parent's first).
    package let variables: [String]
    let slots: [String: Int]
    let functionTable: [CompiledFunction]
    let functionNames: [String: Int]
    let hostFunctions: [HostFunction]
    /// Projected variables (see ``Projection``), by the slot of the variable.
    let projections: [Int: ProjectionSlots]
    /// Declared types of variables (see ``VariableDeclaration``), by slot; others are unchecked.
    private(set) var variableTypes: [Int: StaticType] = [:]
    /// Declared records and enumerations (see ``ExpressionType/fields`` and
    /// ``ExpressionType/values``), by slot: fields and string values the compiler checks.
    private(set) var variableShapes: [Int: ExpressionType] = [:]
    /// The slot of the projections' presence bits (see ``Projection``); `nil` without projections.
    package let projectionPresenceSlot: Int?
    static let presenceName = "?projected"
    /// Limits the static checks enforce (Firestore's).
    static let maxFunctionArguments = 7
    static let maxCallDepth = 20

    /// An environment with no names.
    package static let empty = ExpressionEnvironment(uncheckedVariables: [])

    private init(uncheckedVariables: [String]) {
        variables = uncheckedVariables
        slots = Dictionary(uncheckedVariables.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last })
        functionTable = []
        functionNames = [:]
        hostFunctions = []
        projections = [:]
        projectionPresenceSlot = nil
        callGraph = [:]
    }

    /// Compiles `functions` (text form) against `variables` and the parent's names.
    /// - Parameter projections: fields of `variables` the host may supply separately (see
    ///   ``Projection``); a projection of an unknown variable is ignored.
    /// - Throws: ``DiagnosticsError`` with every problem in every function.
    package init(
        variables: [String] = [], projections: [Projection] = [], functions: [FunctionSource] = [], hostFunctions: [HostFunction] = [],
        parent: ExpressionEnvironment? = nil
    ) throws(DiagnosticsError) {
        var parseDiagnostics = DiagnosticCollector()
        let definitions = functions.map { Self.definition(from: $0, &parseDiagnostics) }
        do {
            try self.init(variables: variables, projections: projections, definitions: definitions, hostFunctions: hostFunctions, parent: parent)
        } catch {
            throw DiagnosticsError(parseDiagnostics.diagnostics + error.diagnostics)
        }
        if parseDiagnostics.hasErrors { throw DiagnosticsError(parseDiagnostics.diagnostics) }
    }

    /// Parses a text-form function into one combined text whose spans map back to the file. A part
    /// that does not parse is reported and replaced by a body that keeps the function's name and
    /// parameters resolvable, so callers are not reported a second time.
    private static func definition(from function: FunctionSource, _ diagnostics: inout DiagnosticCollector) -> FunctionDefinition {
        var combined = ""
        var origins: [SourceLocation] = []
        let fallbackOrigin = function.location ?? SourceLocation(file: "<function \(function.name)>", line: 1, column: 1)
        var failed = false
        // Kept alongside `combined`: counting its scalars anew for every part made a function of
        // n `let`s compile in n² time (10,000 lets took seconds).
        var combinedScalars = 0
        func append(_ text: SourceText) -> Expr? {
            switch Parser.parse(text.text) {
            case .failure(let failure):
                diagnostics.error("expr.syntax", "function '\(function.name)': \(failure.message)",
                                  at: text.location(ofScalarOffset: failure.span.start) ?? function.location)
                failed = true
                return nil
            case .success(let expr):
                if !combined.isEmpty {
                    combined += "\n"
                    combinedScalars += 1
                }
                let offset = combinedScalars
                combined += text.text
                combinedScalars += text.text.unicodeScalars.count
                let lineCount = text.text.unicodeScalars.filter { $0 == "\n" }.count + 1
                for i in 0..<lineCount {
                    origins.append(i < text.lineOrigins.count ? text.lineOrigins[i] : (text.lineOrigins.first ?? fallbackOrigin))
                }
                return expr.shifted(by: offset)
            }
        }
        var lets: [(name: String, value: Expr, span: SourceSpan)] = []
        for binding in function.lets {
            if let expr = append(binding.value) { lets.append((binding.name, expr, expr.span)) }
        }
        let result = append(function.result)
        let none = SourceSpan(start: 0, end: 0)
        guard let result, !failed else {
            return FunctionDefinition(
                name: function.name, parameters: function.parameters.map { ($0, none) }, lets: [],
                result: .list(function.parameters.map { .identifier($0, none) }, none),
                source: SourceText(combined, lineOrigins: origins), location: function.location)
        }
        return FunctionDefinition(
            name: function.name, parameters: function.parameters.map { ($0, none) }, lets: lets, result: result,
            source: SourceText(combined, lineOrigins: origins), location: function.location)
    }

    /// An environment of declared variables: expressions compiled against it are type-checked
    /// against each variable's declared type (`readiness <= 'two'` is an error when `readiness`
    /// is a number), on top of everything `parent` offers.
    /// - Throws: ``DiagnosticsError`` when the parent's functions do not compile.
    package init(declaring declarations: [VariableDeclaration], parent: ExpressionEnvironment? = nil) throws(DiagnosticsError) {
        try self.init(variables: declarations.map(\.name), definitions: [], parent: parent)
        for declaration in declarations {
            guard let slot = slots[declaration.name] else { continue }
            let type = declaration.type.staticType
            if type.isKnown { variableTypes[slot] = type } else { variableTypes[slot] = nil }
            variableShapes[slot] = declaration.type.hasShape ? declaration.type : nil
        }
    }

    /// Compiles already-parsed functions (used by the `.rules` parser).
    package init(
        variables: [String], projections: [Projection] = [], definitions: [FunctionDefinition], hostFunctions: [HostFunction] = [],
        parent: ExpressionEnvironment? = nil
    ) throws(DiagnosticsError) {
        var diagnostics = DiagnosticCollector()
        let parentVariables = parent?.variables ?? []
        var allVariables = parentVariables
        var slots = parent?.slots ?? [:]
        for name in variables {
            // A child's variable of the same name shadows the parent's with a new slot.
            slots[name] = allVariables.count
            allVariables.append(name)
        }
        // Projection slots follow the variables. Their names are not identifiers, so no
        // expression can name them and no suggestion offers them.
        var projectionSlots = parent?.projections ?? [:]
        var presenceSlot = parent?.projectionPresenceSlot
        var fieldSlots: [String: Int] = [:]
        for projection in projections {
            guard let base = slots[projection.variable] ?? fieldSlots[projection.variable], projectionSlots[base] == nil,
                  projectionSlots.count < ProjectionSlots.maxProjections
            else { continue }
            let presence: Int
            if let presenceSlot { presence = presenceSlot } else {
                presence = allVariables.count
                presenceSlot = presence
                allVariables.append(Self.presenceName)
            }
            let group = projectionSlots.count
            var fields: [String: ProjectedField] = [:]
            var order: [String] = []
            for field in projection.fields where order.count < ProjectionSlots.maxFields && fields[field] == nil {
                let name = projection.variable + "." + field
                fields[field] = ProjectedField(
                    presence: presence, projected: 1 << Int64(8 * group + 7), mask: 1 << Int64(8 * group + order.count), slot: allVariables.count)
                order.append(field)
                fieldSlots[name] = allVariables.count
                allVariables.append(name)
            }
            projectionSlots[base] = ProjectionSlots(name: projection.variable, group: group, fields: fields)
        }
        var table = parent?.functionTable ?? []
        var names = parent?.functionNames ?? [:]
        var arity: [Int: Int] = [:]
        for (index, function) in table.enumerated() { arity[index] = function.parameterCount }
        let firstNew = table.count
        var seen: [String: SourceLocation?] = [:]
        for (offset, definition) in definitions.enumerated() {
            if seen[definition.name] != nil {
                diagnostics.error("expr.duplicate-function", "function '\(definition.name)' is declared twice in the same scope", at: definition.location)
            }
            seen[definition.name] = definition.location
            if definition.parameters.count > Self.maxFunctionArguments {
                diagnostics.error("expr.too-many-parameters", "function '\(definition.name)' has \(definition.parameters.count) parameters; at most \(Self.maxFunctionArguments) are allowed", at: definition.location)
            }
            names[definition.name] = firstNew + offset
            arity[firstNew + offset] = definition.parameters.count
            table.append(CompiledFunction(name: definition.name, parameterCount: definition.parameters.count, lets: [], result: .constant(.null)))
        }
        var hostsByName = parent.map { Dictionary($0.hostFunctions.enumerated().map { ($1.name, (index: $0, arity: $1.arity)) }, uniquingKeysWith: { a, _ in a }) } ?? [:]
        var hosts = parent?.hostFunctions ?? []
        for host in hostFunctions where hostsByName[host.name] == nil {
            hostsByName[host.name] = (hosts.count, host.arity)
            hosts.append(host)
        }
        // A child's variable of a parent's name has a slot of its own, undeclared unless the
        // child declares it.
        let inheritedTypes = parent?.variableTypes ?? [:]
        let scope = Compiler.Scope(globals: slots, projections: projectionSlots, functions: names, functionArity: arity, hosts: hostsByName, globalTypes: inheritedTypes,
                                    globalShapes: parent?.variableShapes ?? [:])
        var callGraph = parent?.callGraph ?? [:]
        var bodies: [CallInliner.Body] = []
        var letNodes: [[Node]] = []
        for (offset, definition) in definitions.enumerated() {
            var compiler = Compiler(scope: scope, source: definition.source)
            var lets: [Node] = []
            for (i, parameter) in definition.parameters.enumerated() {
                compiler.locals[parameter.name] = i
            }
            for (i, binding) in definition.lets.enumerated() {
                if compiler.locals[binding.name] != nil {
                    compiler.error("expr.duplicate-let", "'\(binding.name)' is already defined in function '\(definition.name)'", binding.value.span)
                }
                lets.append(compiler.compile(binding.value).0)
                compiler.locals[binding.name] = definition.parameters.count + i
            }
            let (result, _) = compiler.compile(definition.result)
            for (i, parameter) in definition.parameters.enumerated() where !compiler.usedLocals.contains(i) {
                let location = parameter.span.end > parameter.span.start ? definition.source.location(ofScalarOffset: parameter.span.start) : definition.location
                // The emulator reports this only alongside a real compile error; a warning here.
                compiler.diagnostics.warning("expr.unused-parameter", "unused parameter '\(parameter.name)' in function '\(definition.name)'", at: location)
            }
            diagnostics.append(contentsOf: compiler.diagnostics.diagnostics)
            bodies.append(CallInliner.Body(parameterCount: definition.parameters.count, hasLets: !lets.isEmpty, result: result))
            letNodes.append(lets)
            callGraph[firstNew + offset] = compiler.calledFunctions
        }
        // Recursion is forbidden and call chains are bounded, as in Firestore; both are static checks.
        for (offset, definition) in definitions.enumerated() {
            let depth = Self.callDepth(from: firstNew + offset, callGraph)
            if depth == nil {
                diagnostics.error("expr.recursion", "function '\(definition.name)' calls itself (directly or through other functions); recursion is not allowed", at: definition.location)
            } else if let depth, depth > Self.maxCallDepth {
                diagnostics.error("expr.call-depth", "function '\(definition.name)' reaches a call depth of \(depth); the maximum is \(Self.maxCallDepth)", at: definition.location)
            }
        }
        if diagnostics.hasErrors { throw DiagnosticsError(diagnostics.diagnostics) }
        // Every body is known (and recursion ruled out) before any is inlined into another.
        let inherited = table
        let inliner = CallInliner { index in
            if index >= firstNew { return bodies.indices.contains(index - firstNew) ? bodies[index - firstNew] : nil }
            return inherited.indices.contains(index) ? inherited[index].inlinerBody : nil
        }
        for (offset, definition) in definitions.enumerated() where bodies.indices.contains(offset) {
            table[firstNew + offset] = CompiledFunction(
                name: definition.name, parameterCount: definition.parameters.count, lets: letNodes[offset], result: bodies[offset].result,
                inliner: inliner)
        }
        self.variables = allVariables
        self.slots = slots
        self.functionTable = table
        self.functionNames = names
        self.hostFunctions = hosts
        self.projections = projectionSlots
        self.projectionPresenceSlot = presenceSlot
        self.callGraph = callGraph
        self.warnings = diagnostics.diagnostics
        self.variableTypes = inheritedTypes
        self.variableShapes = parent?.variableShapes ?? [:]
    }

    let callGraph: [Int: Set<Int>]
    /// Non-fatal findings from compiling the functions.
    package private(set) var warnings: [Diagnostic] = []

    /// Longest call chain starting at `start`, or `nil` when it reaches a cycle.
    private static func callDepth(from start: Int, _ graph: [Int: Set<Int>]) -> Int? {
        var memo: [Int: Int] = [:]
        var visiting: Set<Int> = []
        func visit(_ node: Int) -> Int? {
            if let known = memo[node] { return known }
            guard visiting.insert(node).inserted else { return nil }
            var deepest = 0
            for callee in graph[node] ?? [] {
                guard let d = visit(callee) else { return nil }
                deepest = Swift.max(deepest, d)
            }
            visiting.remove(node)
            memo[node] = deepest + 1
            return deepest + 1
        }
        return visit(start)
    }

    /// Whether a function of this name is visible.
    func hasFunction(named name: String) -> Bool { functionNames[name] != nil }

    /// Presence bits (see ``Projection``) saying `variable` is projected with the fields in
    /// `present`; 0 when `variable` is not projected here.
    package func projectionBits(_ variable: String, present: [String]) -> Int64 {
        guard let projection = projections.values.first(where: { $0.name == variable }) else { return 0 }
        var bits: Int64 = 1 << Int64(8 * projection.group + 7)
        for field in present { bits |= projection.fields[field]?.mask ?? 0 }
        return bits
    }

    /// The slot of a variable, for ``CompiledExpression/evaluate(slots:limits:host:tracer:)``; also
    /// a projected field's slot (`"request.auth"`).
    package func slot(of variable: String) -> Int? { slots[variable] ?? variables.lastIndex(of: variable) }
}

extension Expr {
    /// The same tree with every span moved `offset` scalars later (for re-anchored texts).
    func shifted(by offset: Int) -> Expr {
        guard offset != 0 else { return self }
        func s(_ span: SourceSpan) -> SourceSpan { SourceSpan(start: span.start + offset, end: span.end + offset) }
        switch self {
        case .literal(let v, let sp): return .literal(v, s(sp))
        case .identifier(let n, let sp): return .identifier(n, s(sp))
        case .member(let b, let n, let sp): return .member(b.shifted(by: offset), n, s(sp))
        case .index(let b, let i, let sp): return .index(b.shifted(by: offset), i.shifted(by: offset), s(sp))
        case .slice(let b, let f, let t, let sp): return .slice(b.shifted(by: offset), f?.shifted(by: offset), t?.shifted(by: offset), s(sp))
        case .call(let c, let a, let sp): return .call(c.shifted(by: offset), a.map { $0.shifted(by: offset) }, s(sp))
        case .unary(let o, let e, let sp): return .unary(o, e.shifted(by: offset), s(sp))
        case .binary(let o, let l, let r, let sp): return .binary(o, l.shifted(by: offset), r.shifted(by: offset), s(sp))
        case .isType(let e, let t, let sp): return .isType(e.shifted(by: offset), t, s(sp))
        case .ternary(let c, let t, let f, let sp): return .ternary(c.shifted(by: offset), t.shifted(by: offset), f.shifted(by: offset), s(sp))
        case .list(let items, let sp): return .list(items.map { $0.shifted(by: offset) }, s(sp))
        case .map(let entries, let sp): return .map(entries.map { MapEntry(key: $0.key.shifted(by: offset), value: $0.value.shifted(by: offset)) }, s(sp))
        case .path(let parts, let sp):
            return .path(parts.map { part in
                if case .interpolation(let e) = part { return .interpolation(e.shifted(by: offset)) }
                return part
            }, s(sp))
        }
    }
}
